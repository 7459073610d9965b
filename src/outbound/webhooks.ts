import type { LookupAddress } from "node:dns";
import { lookup } from "node:dns/promises";
import { request as httpRequest } from "node:http";
import { request as httpsRequest } from "node:https";
import type { LookupFunction } from "node:net";
import { Webhook } from "standardwebhooks";
import { withDeadline } from "../deadline.ts";
import { isPublicAddress } from "./public-address.ts";

// POSTs one webhook delivery. The host is resolved here, every address it
// has must be public, and the connection goes to the address that was
// checked, so a name cannot be turned to a private address between the
// check and the request. Redirects are not followed; the answer's body is
// read and dropped.

export interface WebhookPost {
  url: string;
  headers: Record<string, string>;
  body: string;
  /** http:// and private addresses too (tests, private networks). */
  allowPrivate: boolean;
  /** For the whole attempt: resolving, connecting, sending and the answer. */
  timeoutMs: number;
  /** Aborts the attempt when the service stops. */
  signal: AbortSignal;
}

/** What an answer's status says went wrong; null for a 2xx. */
export function statusProblem(statusCode: number): string | null {
  if (statusCode >= 200 && statusCode < 300) return null;
  if (statusCode >= 300 && statusCode < 400) return `HTTP ${statusCode}: redirects are not followed`;
  return `HTTP ${statusCode}`;
}

/** A signing secret as Standard Webhooks libraries take it: whsec_ and 24-64 random bytes in base64. */
export function isWebhookSecret(value: string): boolean {
  if (!/^whsec_[A-Za-z0-9+/]+={0,2}$/.test(value)) return false;
  const bytes = Buffer.from(value.slice("whsec_".length), "base64").length;
  return bytes >= 24 && bytes <= 64;
}

/** Standard Webhooks: the message's id, the attempt's time, and the signature over both and the body. */
export function signedHeaders(messageId: string, secret: string, at: Date, body: string): Record<string, string> {
  return {
    "content-type": "application/json",
    "user-agent": "Pigeonhole-Webhooks",
    "webhook-id": messageId,
    "webhook-timestamp": String(Math.floor(at.getTime() / 1000)),
    "webhook-signature": new Webhook(secret).sign(messageId, at, body),
  };
}

/** The receiver's HTTP status; rejects when it could not be reached or took too long. */
export function postWebhook(post: WebhookPost): Promise<number> {
  return withDeadline(post.timeoutMs, post.signal, async (deadline) => {
    try {
      const url = new URL(post.url);
      const address = await resolvePublic(url.hostname.replace(/^\[|\]$/g, ""), post.allowPrivate, deadline);
      return await send(url, address, post, deadline);
    } catch (error) {
      if (deadline.aborted && !post.signal.aborted) throw new Error(`no answer within ${post.timeoutMs / 1000} s`);
      throw error;
    }
  });
}

/** Names the resolver has no address for. */
const ABSENT = new Set(["ENOTFOUND", "ENODATA"]);

/**
 * The host's first address, when all of them are public (or private ones are allowed). Where they must be public,
 * a name with a private address and one with none get the same words, which the attempt's record shows the key's
 * holder: pointed at names inside the service's network, it learns neither their addresses nor which exist.
 */
async function resolvePublic(host: string, allowPrivate: boolean, signal: AbortSignal): Promise<LookupAddress> {
  const noPublic = new Error(`${host} has no public address`);
  // getaddrinfo cannot be cancelled: the attempt stops waiting for it instead.
  const addresses = await new Promise<LookupAddress[]>((resolve, reject) => {
    signal.addEventListener("abort", () => reject(signal.reason), { once: true });
    lookup(host, { all: true, verbatim: true }).then(resolve, (error: NodeJS.ErrnoException) =>
      reject(!allowPrivate && ABSENT.has(error.code ?? "") ? noPublic : error),
    );
  });
  if (!allowPrivate && addresses.some(({ address }) => !isPublicAddress(address))) throw noPublic;
  const [chosen] = addresses;
  if (!chosen) throw new Error(`${host} has no address`);
  return chosen;
}

function send(url: URL, address: LookupAddress, post: WebhookPost, signal: AbortSignal): Promise<number> {
  const pinned: LookupFunction = (_hostname, options, callback) => {
    if (options.all) callback(null, [address]);
    else callback(null, address.address, address.family);
  };
  const request = url.protocol === "https:" ? httpsRequest : httpRequest;
  return new Promise((resolve, reject) => {
    const outgoing = request(
      url,
      {
        method: "POST",
        headers: { ...post.headers, "content-length": Buffer.byteLength(post.body) },
        lookup: pinned,
        signal,
      },
      (response) => {
        response.resume();
        response.on("end", () => resolve(response.statusCode ?? 0));
        response.on("error", reject);
      },
    );
    outgoing.on("error", reject);
    outgoing.end(post.body);
  });
}
