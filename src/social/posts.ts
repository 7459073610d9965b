// Verification posts on X. The lookup sits behind PostLookup so another
// source (the X API with a bearer token) can stand beside oEmbed.

export interface PostUrl {
  user: string;
  statusId: string;
  /** The form lookups are made with, whatever host or query the client used. */
  canonical: string;
}

export interface SocialPost {
  /** The author's username as X shows it, without @. */
  authorUsername: string;
  text: string;
}

export interface PostLookup {
  /** The public post, or null when it does not exist or is not public. Throws when X cannot be asked. */
  find(url: PostUrl): Promise<SocialPost | null>;
}

const POST_HOSTS = new Set(["x.com", "twitter.com"].flatMap((host) => [host, `www.${host}`, `mobile.${host}`]));
const POST_PATH = /^\/([A-Za-z0-9_]{1,15})\/status\/(\d{1,20})\/?$/;

/** Accepts only https://(www.|mobile.)(x|twitter).com/<user>/status/<digits>. */
export function parsePostUrl(input: string): PostUrl | null {
  if (!URL.canParse(input)) return null;
  const url = new URL(input);
  const path = POST_PATH.exec(url.pathname);
  if (url.protocol !== "https:" || url.port || url.username || url.password || !POST_HOSTS.has(url.hostname) || !path) {
    return null;
  }
  const [, user = "", statusId = ""] = path;
  return { user, statusId, canonical: `https://twitter.com/${user}/status/${statusId}` };
}

/** Whether the text mentions @handle: the whole handle, in any case. */
export function mentions(text: string, handle: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9_])@${handle}(?![A-Za-z0-9_])`, "i").test(text);
}

/** Whether the text holds the code as a word of its own, in any case. */
export function containsCode(text: string, code: string): boolean {
  return new RegExp(`(^|[^A-Za-z0-9])${code}(?![A-Za-z0-9])`, "i").test(text);
}
