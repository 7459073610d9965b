import { readFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { Asset } from "./assets.ts";
import { appPolicy, newNonce } from "./html.ts";

// /docs: Redoc's reference of /openapi.json, its standalone bundle served
// from the installed package rather than a CDN, under a policy that lets the
// page load nothing from anywhere else.

let bundle: Promise<Asset> | undefined;

/** Redoc's browser bundle (0.9 MB), an asset read on first use. */
export function redocBundle(): Promise<Asset> {
  bundle ??= readFile(createRequire(import.meta.url).resolve("redoc/bundles/redoc.standalone.js")).then(
    (raw) => new Asset("redoc", "js", "text/javascript; charset=utf-8", raw),
  );
  return bundle;
}

/** The docs page and the headers it must be served with, a fresh nonce each time. */
export async function docsPage(): Promise<{ html: string; headers: Record<string, string> }> {
  const nonce = newNonce();
  const script = (await redocBundle()).path;
  const html = `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>Pigeonhole API reference</title>
</head>
<body>
<redoc spec-url="/openapi.json"></redoc>
<script nonce="${nonce}" src="${script}"></script>
</body>
</html>
`;
  return { html, headers: appPolicy(nonce) };
}
