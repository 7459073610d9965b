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
