import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";

// A real HTTP server playing X's oEmbed endpoint. Tests publish posts on it
// and may make it fail, stall or vanish.

export type PostReply =
  | { status: 200; author: string; html: string }
  | { status: 403 | 404 | 500 }
  | { status: "stall" };

export interface FakeX {
  url: string;
  /** Every `url` query the service asked about. */
  asked: string[];
  publish(statusId: string, reply: PostReply): void;
  close(): Promise<void>;
}

/** The embed HTML as X writes it: the post's paragraph, then the byline. */
export function embedHtml(text: string, author: string): string {
  return `<blockquote class="twitter-tweet"><p lang="en" dir="ltr">${text}</p>&mdash; Someone (@${author}) <a href="https://twitter.com/${author}/status/1">November 22, 2026</a></blockquote>\n`;
}

export async function startFakeX(): Promise<FakeX> {
  const posts = new Map<string, PostReply>();
  const asked: string[] = [];
  const stalled = new Set<() => void>();
  const server: Server = createServer((req, res) => {
    const query = new URL(req.url ?? "/", "http://x").searchParams;
    const postUrl = query.get("url") ?? "";
    asked.push(postUrl);
    const reply = posts.get(/\/status\/(\d+)$/.exec(postUrl)?.[1] ?? "") ?? { status: 404 };
    if (reply.status === "stall") {
      stalled.add(() => res.destroy());
      return;
    }
    res.writeHead(reply.status, { "content-type": "application/json" });
    if (reply.status !== 200) return res.end(JSON.stringify({ error: "nope" }));
    res.end(
      JSON.stringify({
        url: postUrl,
        author_name: "Someone",
        author_url: `https://twitter.com/${reply.author}`,
        html: reply.html,
        type: "rich",
        provider_name: "Twitter",
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/oembed`,
    asked,
    publish: (statusId, reply) => posts.set(statusId, reply),
    close: () =>
      new Promise((resolve) => {
        for (const end of stalled) end();
        server.close(() => resolve());
      }),
  };
}
