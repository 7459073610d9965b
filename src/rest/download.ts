import type { Context as HonoContext } from "hono";
import type { Attachment } from "../generated/prisma/sqlite/client.ts";

// An attachment's bytes as a download: never rendered by the browser as the
// service's own page, whatever the sender called it.

/** Types a browser would run or render as a page; served as plain bytes. */
const ACTIVE =
  /^(?:text\/html|application\/xhtml\+xml|image\/svg\+xml|text\/xml|application\/xml|[^/]+\/[^;]*\+xml|text\/javascript|application\/(?:x-)?javascript|application\/ecmascript|text\/ecmascript)$/i;

export function servedType(contentType: string): string {
  return ACTIVE.test(contentType.trim()) ? "application/octet-stream" : contentType;
}

/** RFC 6266: an ASCII fallback, and the name itself in filename* when it is not plain ASCII. */
export function contentDisposition(filename: string): string {
  const ascii = filename.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  if (ascii === filename) return `attachment; filename="${ascii}"`;
  const encoded = encodeURIComponent(filename).replace(
    /['()*]/g,
    (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`,
  );
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encoded}`;
}

export function answerFile(
  c: HonoContext,
  record: Pick<Attachment, "filename" | "contentType" | "sha256">,
  content: Buffer,
): Response {
  const etag = `"${record.sha256}"`;
  const headers = {
    "Content-Type": servedType(record.contentType),
    "Content-Disposition": contentDisposition(record.filename),
    "X-Content-Type-Options": "nosniff",
    "Cache-Control": "private, no-cache",
    ETag: etag,
  };
  if (
    c.req
      .header("if-none-match")
      ?.split(/\s*,\s*/)
      .includes(etag)
  )
    return c.body(null, 304, headers);
  return c.body(new Uint8Array(content), 200, { ...headers, "Content-Length": String(content.length) });
}
