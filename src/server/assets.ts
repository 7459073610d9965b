import { createHash } from "node:crypto";
import { promisify } from "node:util";
import { brotliCompress, constants, gzip } from "node:zlib";

// The files the service's pages load (GraphiQL's editor, Redoc): each named
// by a hash of its bytes, so a browser keeps it a year and asks again only
// when it changes, and compressed once per encoding, on first demand.

/** What the service compresses: brotli where the client takes it, else gzip. */
export type Encoding = "br" | "gzip";

const compressors: Record<Encoding, (raw: Buffer) => Promise<Buffer>> = {
  br: (raw) =>
    promisify(brotliCompress)(raw, {
      params: { [constants.BROTLI_PARAM_QUALITY]: 9, [constants.BROTLI_PARAM_SIZE_HINT]: raw.length },
    }),
  gzip: (raw) => promisify(gzip)(raw, { level: 9 }),
};

/** The encoding to answer in: the first offered that the client accepts (q above 0). */
export function acceptedEncoding(
  header: string | undefined,
  offered: readonly Encoding[] = ["br", "gzip"],
): Encoding | null {
  if (!header) return null;
  const accepted = new Map(
    header.split(",").map((part) => {
      const [name = "", ...params] = part.trim().toLowerCase().split(";");
      const q = params.map((p) => /^\s*q=([\d.]+)\s*$/.exec(p)?.[1]).find(Boolean);
      return [name, q === undefined ? 1 : Number(q)] as const;
    }),
  );
  const wildcard = accepted.get("*") ?? 0;
  return offered.find((encoding) => (accepted.get(encoding) ?? wildcard) > 0) ?? null;
}

export class Asset {
  readonly path: string;
  readonly #encoded = new Map<Encoding, Promise<Buffer>>();

  constructor(
    name: string,
    extension: string,
    readonly type: string,
    readonly raw: Buffer,
  ) {
    const hash = createHash("sha256").update(raw).digest("base64url").slice(0, 12);
    this.path = `/assets/${name}.${hash}.${extension}`;
  }

  /** The bytes and headers of an answer to a client that sent this Accept-Encoding. */
  async answer(acceptEncoding: string | undefined): Promise<{ body: Buffer; headers: Record<string, string> }> {
    const encoding = acceptedEncoding(acceptEncoding);
    const headers: Record<string, string> = {
      "Content-Type": this.type,
      "Cache-Control": "public, max-age=31536000, immutable",
      Vary: "Accept-Encoding",
      "X-Content-Type-Options": "nosniff",
    };
    if (encoding === null) return { body: this.raw, headers };
    let encoded = this.#encoded.get(encoding);
    if (!encoded) {
      encoded = compressors[encoding](this.raw);
      this.#encoded.set(encoding, encoded);
    }
    return { body: await encoded, headers: { ...headers, "Content-Encoding": encoding } };
  }
}
