import { randomBytes } from "node:crypto";
import type { FakeX } from "./oembed-server.ts";
import { embedHtml } from "./oembed-server.ts";

// A small HTTP client for the tests: every call goes over the network to the
// running service, as a user's would.

export interface Reply {
  status: number;
  headers: Headers;
  text: string;
  // biome-ignore lint/suspicious/noExplicitAny: tests read whatever the service answered
  body: any;
}

export interface CallOptions {
  key?: string;
  /** A value sent as JSON, or a string sent as it is. */
  body?: unknown;
  headers?: Record<string, string>;
}

export class Api {
  constructor(readonly url: string) {}

  async call(method: string, path: string, { key, body, headers = {} }: CallOptions = {}): Promise<Reply> {
    const init: RequestInit = { method, headers: { ...headers } };
    const sent = init.headers as Record<string, string>;
    if (key) sent.authorization = `Bearer ${key}`;
    if (body !== undefined) {
      init.body = typeof body === "string" ? body : JSON.stringify(body);
      sent["content-type"] ??= "application/json";
    }
    const response = await fetch(this.url + path, init);
    const text = await response.text();
    let parsed: unknown;
    try {
      parsed = JSON.parse(text);
    } catch {
      parsed = undefined;
    }
    return { status: response.status, headers: response.headers, text, body: parsed };
  }

  get = (path: string, options?: CallOptions) => this.call("GET", path, options);
  post = (path: string, options?: CallOptions) => this.call("POST", path, options);
  delete = (path: string, options?: CallOptions) => this.call("DELETE", path, options);

  graphql(query: string, variables: Record<string, unknown> = {}, key?: string): Promise<Reply> {
    return this.post("/graphql", { key, body: { query, variables } });
  }
}

export function uniqueId(prefix = "agent"): string {
  return `${prefix}-${randomBytes(4).toString("hex")}`;
}

/** A fresh X username: letters, digits and underscores only. */
export function uniqueAuthor(prefix = "u"): string {
  return uniqueId(prefix).replace("-", "_");
}

export interface TestAgent {
  id: string;
  apiKey: string;
}

export async function createAgent(api: Api, id = uniqueId()): Promise<TestAgent> {
  const reply = await api.post("/agents", { body: { id, name: `Agent ${id}` } });
  if (reply.status !== 201) throw new Error(`create ${id}: ${reply.status} ${reply.text}`);
  return { id, apiKey: reply.body.apiKey };
}

let nextStatusId = 1_000_000;

/** Publishes a post on the fake X and returns its URL. */
export function publishPost(x: FakeX, author: string, text: string): string {
  const statusId = String(nextStatusId++);
  x.publish(statusId, { status: 200, author, html: embedHtml(text, author) });
  return `https://x.com/${author}/status/${statusId}`;
}

/** Runs start and complete the way a person would, from a fresh X account. */
export async function verifyAgent(api: Api, x: FakeX, agent: TestAgent, author = uniqueAuthor()) {
  const start = await api.post("/verify/start", { key: agent.apiKey });
  const tweetUrl = publishPost(x, author, start.body.tweetText);
  const complete = await api.post("/verify/complete", { key: agent.apiKey, body: { tweetUrl } });
  if (complete.status !== 200) throw new Error(`verify ${agent.id}: ${complete.status} ${complete.text}`);
  return { author, tweetUrl };
}

export async function createVerifiedAgent(api: Api, x: FakeX, id?: string): Promise<TestAgent> {
  const agent = await createAgent(api, id);
  await verifyAgent(api, x, agent);
  return agent;
}
