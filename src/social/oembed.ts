import { ServiceError } from "../errors.ts";
import type { PostLookup, PostUrl, SocialPost } from "./posts.ts";

// X's public oEmbed endpoint answers for public posts only, which is exactly
// the visibility verification asks for. The client's URL is never fetched.

const TIMEOUT_MS = 10_000;

const unavailable = () =>
  new ServiceError("SERVICE_UNAVAILABLE", "X could not be reached to look up the post; try again later");

export function oembedLookup(endpoint: string): PostLookup {
  return {
    async find(post: PostUrl): Promise<SocialPost | null> {
      const url = new URL(endpoint);
      url.searchParams.set("url", post.canonical);
      url.searchParams.set("omit_script", "true");
      const response = await fetch(url, { signal: AbortSignal.timeout(TIMEOUT_MS) }).catch(() => {
        throw unavailable();
      });
      if (response.status === 404 || response.status === 403) return null;
      if (!response.ok) throw unavailable();
      const body = (await response.json().catch(() => null)) as { author_url?: unknown; html?: unknown } | null;
      const author = typeof body?.author_url === "string" && /\/([A-Za-z0-9_]{1,15})\/?$/.exec(body.author_url)?.[1];
      if (!author || typeof body?.html !== "string") throw unavailable();
      return { authorUsername: author, text: postText(body.html) };
    },
  };
}

/** The post's own words: the paragraphs of the embed, without tags and entities. */
export function postText(html: string): string {
  const paragraphs = [...html.matchAll(/<p\b[^>]*>([\s\S]*?)<\/p>/gi)].map((m) => m[1] ?? "");
  const body = paragraphs.length > 0 ? paragraphs.join("\n") : html;
  return decodeEntities(body.replace(/<br\s*\/?>/gi, "\n").replace(/<[^>]*>/g, ""));
}

const NAMED: Record<string, string> = {
  amp: "&",
  lt: "<",
  gt: ">",
  quot: '"',
  apos: "'",
  nbsp: " ",
  mdash: "—",
  ndash: "–",
  hellip: "…",
};

function decodeEntities(text: string): string {
  return text.replace(/&(#x[0-9a-f]+|#\d+|[a-z]+);/gi, (entity, name: string) => {
    if (name[0] !== "#") return NAMED[name.toLowerCase()] ?? entity;
    const codePoint = name[1]?.toLowerCase() === "x" ? Number.parseInt(name.slice(2), 16) : Number(name.slice(1));
    return codePoint <= 0x10ffff ? String.fromCodePoint(codePoint) : entity;
  });
}
