import { randomBytes } from "node:crypto";

// How the service's own pages are served: each with a fresh nonce for its
// inline script and style, a policy naming all it may load, and nothing
// cached, sniffed or leaked in a Referer.

export const newNonce = () => randomBytes(18).toString("base64");

export function pageHeaders(policy: string[]): Record<string, string> {
  return {
    "Content-Type": "text/html; charset=utf-8",
    "Content-Security-Policy": [...policy, "base-uri 'none'", "form-action 'none'", "frame-ancestors 'none'"].join(
      "; ",
    ),
    "X-Content-Type-Options": "nosniff",
    "Referrer-Policy": "no-referrer",
    "Cache-Control": "no-store",
  };
}

/** The policy of a self-contained page: its own inline script and style under the nonce, calls to this origin only. */
export function pagePolicy(nonce: string): Record<string, string> {
  return pageHeaders([
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    `style-src 'nonce-${nonce}'`,
    "connect-src 'self'",
  ]);
}

/**
 * The policy of a page that runs a bundled app (Redoc, GraphiQL): its script
 * under the nonce; styles the app sets as it renders (styled-components writes
 * <style> elements, Monaco sets styles on elements); images and fonts of its
 * own or inline; workers made from blobs of its script (Redoc's search,
 * Monaco's editor); calls to this origin only.
 */
export function appPolicy(nonce: string): Record<string, string> {
  return pageHeaders([
    "default-src 'none'",
    `script-src 'nonce-${nonce}'`,
    "style-src 'self' 'unsafe-inline'",
    "img-src 'self' data:",
    "font-src 'self' data:",
    "worker-src blob:",
    "connect-src 'self'",
  ]);
}

export const escaped = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

const STYLE = `
:root { color-scheme: light; font: 1.0625rem/1.5 system-ui, -apple-system, "Segoe UI", sans-serif; color: #1b1b1b; background: #f4f5f7; }
body { margin: 0; }
main { max-width: 36rem; margin: 0 auto; padding: 1.5rem 1rem 3rem; }
section { background: #fff; border: 1px solid #d0d4db; border-radius: .5rem; padding: 1rem 1.25rem; margin: 1rem 0; }
h1 { font-size: 1.5rem; margin: .5rem 0 0; } h2 { font-size: 1.15rem; margin: 0 0 .5rem; }
.address, .targets { font-family: ui-monospace, monospace; word-break: break-all; }
button, .button { display: inline-block; font: inherit; font-weight: 600; padding: .6rem 1rem; border-radius: .4rem; border: 2px solid #0b57d0; background: #0b57d0; color: #fff; text-decoration: none; cursor: pointer; }
button.secondary { background: #fff; color: #0b57d0; }
button:focus-visible, .button:focus-visible, input:focus-visible { outline: 3px solid #ffb300; outline-offset: 2px; }
label { display: block; font-weight: 600; margin-bottom: .25rem; }
input { font: inherit; width: 100%; box-sizing: border-box; padding: .55rem; border: 1px solid #5c6370; border-radius: .4rem; }
.code { font: 700 1.4rem ui-monospace, monospace; letter-spacing: .08em; }
blockquote { margin: .5rem 0; padding: .5rem .75rem; background: #f4f5f7; border-left: 4px solid #5c6370; white-space: pre-wrap; }
.row { display: flex; flex-wrap: wrap; gap: .5rem; align-items: center; margin: .5rem 0; }
.ok { border-color: #137333; } .ok h2 { color: #137333; }
.problem { border-color: #b3261e; } .problem h2 { color: #b3261e; }
dl { display: grid; grid-template-columns: max-content 1fr; gap: .25rem .75rem; margin: 0; } dt { font-weight: 600; } dd { margin: 0; word-break: break-word; }
pre.body { white-space: pre-wrap; word-break: break-word; font: inherit; margin: 0; }
iframe { width: 100%; min-height: 20rem; border: 1px solid #d0d4db; background: #fff; }
textarea { font: inherit; width: 100%; box-sizing: border-box; padding: .55rem; border: 1px solid #5c6370; border-radius: .4rem; min-height: 4rem; }
button.danger { background: #b3261e; border-color: #b3261e; }
[hidden] { display: none !important; }
`;

export function pageDocument(title: string, body: string, nonce: string): string {
  return `<!doctype html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<title>${escaped(title)}</title>
<style nonce="${nonce}">${STYLE}</style>
</head>
<body><main>
${body}
</main></body>
</html>`;
}

/** A page that only tells something. */
export function notice(title: string, text: string, nonce: string): string {
  return pageDocument(title, `<h1>${escaped(title)}</h1>\n<section><p>${escaped(text)}</p></section>`, nonce);
}
