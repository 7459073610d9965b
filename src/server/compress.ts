import { promisify } from "node:util";
import { gzip } from "node:zlib";
import type { Context as HonoContext } from "hono";
import { acceptedEncoding } from "./assets.ts";
import type { Env } from "./env.ts";

// Answers compressed with gzip when the client takes it: pages, JSON and
// text of 1 KiB or more, each already whole in memory. Streams of events are
// left as they are (each event must reach the client as it is written). The
// answer's body is read only for a client that takes gzip: reading it turns
// the server's fast path for a string body into a stream.

const MIN_BYTES = 1024;
const COMPRESSIBLE = /^(?:text\/(?!event-stream)|application\/(?:json|javascript|xml|graphql-response\+json))/i;
const gzipped = promisify(gzip);

/** Runs the answer, then compresses it when the client takes gzip. */
export async function compressed(c: HonoContext<Env>, answer: () => Promise<void>): Promise<void> {
  // Every answer may differ by it. Said on Node's response, which the answer's own head joins: a client
  // that takes no gzip never makes the adapter build the answer's headers as a Headers object.
  c.env.outgoing.setHeader("Vary", "Accept-Encoding");
  await answer();
  if (acceptedEncoding(c.req.header("accept-encoding"), ["gzip"]) === null) return;
  const { res } = c;
  if (!COMPRESSIBLE.test(res.headers.get("Content-Type") ?? "") || res.headers.has("Content-Encoding")) return;
  // The answer's own Vary (CORS adds Origin) takes the place of Node's.
  res.headers.append("Vary", "Accept-Encoding");
  if (!res.body) return;
  const bytes = Buffer.from(await res.arrayBuffer());
  const compress = bytes.length >= MIN_BYTES;
  c.res = new Response(new Uint8Array(compress ? await gzipped(bytes) : bytes), res);
  c.res.headers.delete("Content-Length");
  if (compress) c.res.headers.set("Content-Encoding", "gzip");
}
