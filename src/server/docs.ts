import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { newNonce, pageHeaders } from "./html.ts";

// /docs: Redoc's reference of /openapi.json, its standalone bundle served
// from the installed package rather than a CDN, under a policy that lets the
// page load nothing from anywhere else.

export const DOCS_SCRIPT = "/docs/redoc.standalone.js";

let bundle: Promise<Buffer> | undefined;

/** Redoc's browser bundle (0.9 MB), read on first use. */
export function redocBundle(): Promise<Buffer> {
  bundle ??= readFile(createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js"));
  return bundle;
}

/** The docs page and the headers it must be served with, a fresh nonce each time. */
export function docsPage(): { html: string; headers: Record<string, string> } {
  const nonce = newNonce();
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pigeonhole API reference</title>
</head>
<body>
<redoc spec-url="/openapi.json"></redoc>
<script nonce="${nonce}" src="${DOCS_SCRIPT}"></script>
</body>
</html>
`;
  const headers = pageHeaders([
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    // styled-components writes the page's styles into <style> elements as it renders.
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    // Search runs in a worker made from a blob of the bundle.
    "worker-src blob:",
    "connect-src 'self'",
  ]);
  return { html, headers };
}
