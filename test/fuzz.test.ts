import { beforeAll, expect, test } from "vitest";
import { operations as routes } from "../src/schema/operations.ts";
import { createVerifiedAgent, type Reply, type TestAgent } from "./support/api.ts";
import { served } from "./support/served.ts";

// A few thousand generated requests over every route: whatever arrives, the
// service answers without a 5xx, with a JSON error body on every 4xx, and is
// healthy afterwards. The generator is seeded, so a failure can be replayed.

const REQUESTS = 2500;
const CONCURRENCY = 8;
const SEED = Number(process.env.FUZZ_SEED ?? Date.now() % 2 ** 31);

/** The fuzz's own agents; it may rotate their keys or delete them, and keeps up. */
const agents: Record<"main" | "other", TestAgent> = { main: { id: "", apiKey: "" }, other: { id: "", apiKey: "" } };

const { svc, api, x } = served({ smtp: true, env: { DAILY_SEND_LIMIT: "100000" } });

beforeAll(async () => {
  agents.main = await createVerifiedAgent(api, x);
  agents.other = await createVerifiedAgent(api, x);
});

/** mulberry32: small, fast and good enough to pick test inputs. */
function generator(seed: number) {
  let state = seed >>> 0;
  const next = () => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 2 ** 32;
  };
  const int = (n: number) => Math.floor(next() * n);
  const pick = <T>(items: readonly T[]): T => items[int(items.length)] as T;
  return { next, int, pick };
}

type Random = ReturnType<typeof generator>;

const STRINGS = [
  "",
  " ",
  "inbox",
  "trash",
  "a/b",
  "\u0000",
  "\ud800",
  "\udfff",
  "é",
  "😀",
  "<script>",
  "' OR 1=1 --",
  '"; DROP TABLE "Agent"; --',
  "%00",
  "../../etc/passwd",
  "x".repeat(70),
  "y".repeat(5000),
  "bob@example.com",
  "not an address",
  "https://x.com/someone/status/123",
  "R1BDOlM6eA==",
  "-1",
  "0",
  "1e309",
  "null",
  "true",
];

function randomString(r: Random): string {
  if (r.next() < 0.7) return r.pick(STRINGS);
  return Array.from({ length: r.int(40) }, () => String.fromCharCode(r.int(0x3000))).join("");
}

function randomJson(r: Random, depth = 0): unknown {
  const kind = r.int(depth > 3 ? 5 : 8);
  if (kind === 0) return null;
  if (kind === 1) return r.next() < 0.5;
  if (kind === 2) return r.pick([0, -1, 1.5, 2 ** 53, -(2 ** 31), 100, 101, Number.MAX_SAFE_INTEGER]);
  if (kind <= 4) return randomString(r);
  if (kind === 5) return Array.from({ length: r.int(4) }, () => randomJson(r, depth + 1));
  return Object.fromEntries(Array.from({ length: r.int(5) }, () => [randomField(r), randomJson(r, depth + 1)]));
}

const FIELDS = ["id", "name", "metadata", "to", "subject", "text", "html", "replyTo", "folder", "isRead", "tweetUrl"];
const randomField = (r: Random) => (r.next() < 0.8 ? r.pick(FIELDS) : randomString(r));

/** Values that pass most checks, so that the odd one out reaches deeper. */
function plausible(r: Random, field: string): unknown {
  const valid: Record<string, () => unknown> = {
    id: () => `fz-${r.int(1e9)}`,
    name: () => "Fuzz",
    metadata: () => ({ k: randomString(r) }),
    to: () => "bob@example.com",
    subject: () => "s",
    text: () => "t",
    folder: () => "archive",
    isRead: () => true,
    tweetUrl: () => "https://x.com/someone/status/1",
  };
  return r.next() < 0.6 ? (valid[field]?.() ?? randomJson(r)) : randomJson(r);
}

/** A body the route might take: mostly its own fields with odd values, sometimes no JSON at all. */
function randomBody(r: Random): { body?: string; type?: string } {
  const roll = r.next();
  if (roll < 0.05) return {};
  if (roll < 0.1) return { body: r.pick(["{", "[]", "null", "5", '"s"', "{}}", `{"a":${"[".repeat(100)}`]) };
  if (roll < 0.13) return { body: "{}", type: r.pick(["text/plain", "application/xml", ""]) };
  const fields =
    r.next() < 0.5 ? FIELDS.filter(() => r.next() < 0.6) : Array.from({ length: r.int(6) }, () => randomField(r));
  return { body: JSON.stringify(Object.fromEntries(fields.map((field) => [field, plausible(r, field)]))) };
}

function randomSegment(r: Random, param: string): string {
  const { main, other } = agents;
  const own = param.startsWith("agent") ? r.pick([main.id, main.id, main.id.toUpperCase(), other.id]) : "";
  const raw = r.next() < 0.5 && own ? own : randomString(r);
  // A lone surrogate has no UTF-8: send the bytes it would have had, which no decoder accepts.
  const encoded = raw.isWellFormed() ? encodeURIComponent(raw) : r.pick(["%ED%A0%80", "%FF", "%C0%AF"]);
  return r.next() < 0.9 ? encoded : raw.replace(/[/?#%]/g, "");
}

function randomQuery(r: Random): string {
  const keys = ["folder", "limit", "offset", "permanent", randomString(r)];
  const pairs = Array.from({ length: r.int(4) }, () => [r.pick(keys), randomString(r)]);
  return pairs.length === 0 ? "" : `?${new URLSearchParams(pairs).toString()}`;
}

const QUERIES = [
  "{ __typename }",
  "{ verificationStatus { verified hasActiveCode } }",
  "query($id: ID!) { agent(id: $id) { id email emails(limit: $l) { total data { id subject } } } }",
  "query($id: ID!, $c: String) { agent(id: $id) { emailConnection(after: $c, first: 3) { edges { cursor } } } }",
  "mutation($i: CreateAgentInput!) { createAgent(input: $i) { apiKey } }",
  "mutation($a: ID!, $e: ID!, $f: String) { updateEmail(agentId: $a, emailId: $e, folder: $f) { id } }",
  "mutation($a: ID!, $i: SendEmailInput!) { sendEmail(agentId: $a, input: $i) { ... on SentEmail { id } } }",
  "{ agent(",
  "{ a: __typename b: __typename }",
  "query A { __typename } query B { domains }",
  "query A { verificationStatus { verified } }",
];

/** Mostly none, as clients send it; else one the document may or may not hold, or no string at all. */
const OPERATION_NAMES = [undefined, undefined, undefined, null, "", "A", "B", "x", 5];

function randomGraphql(r: Random): { body?: string; type?: string } {
  const variables = Object.fromEntries(
    ["id", "a", "e", "c", "f", "l", "i"].map((name) => [name, r.next() < 0.5 ? agents.main.id : randomJson(r)]),
  );
  return { body: JSON.stringify({ query: r.pick(QUERIES), variables, operationName: r.pick(OPERATION_NAMES) }) };
}

function randomRequest(r: Random) {
  // Mostly the main agent's key, as it is when the request goes out.
  const key = r.pick(["main", "main", "main", "other", undefined, "ph_wrong", ""] as const);
  if (r.next() < 0.2) return { method: "POST", path: "/graphql", key, ...randomGraphql(r) };
  if (r.next() < 0.05) return { method: r.pick(["GET", "PUT", "OPTIONS", "HEAD"]), path: randomString(r), key };
  const route = r.pick(routes);
  const path = route.path.replace(/:(\w+)/g, (_, param: string) => randomSegment(r, param));
  const method = r.next() < 0.95 ? route.method : r.pick(["GET", "POST", "PATCH", "DELETE", "PUT"]);
  return { method, path: `${path}${randomQuery(r)}`, key, ...randomBody(r) };
}

function decodedPath(path: string): string {
  try {
    return decodeURIComponent(path.split("?")[0] ?? "");
  } catch {
    return path;
  }
}

/** A rotated key replaces the old one; a deleted agent is registered again. */
async function keepUp(request: { method: string; path: string }, reply: Reply): Promise<void> {
  if (reply.status !== 200) return;
  for (const role of ["main", "other"] as const) {
    const own = `/agents/${agents[role].id}`.toLowerCase();
    const path = decodedPath(request.path).toLowerCase();
    if (path === `${own}/rotate-key` && typeof reply.body?.apiKey === "string") {
      agents[role] = { ...agents[role], apiKey: reply.body.apiKey };
    }
    if (request.method === "DELETE" && path === own) agents[role] = await createVerifiedAgent(api, x);
  }
}

function problemWith(reply: Reply, request: { method: string; path: string }): string | null {
  if (reply.status >= 500) return `${reply.status} ${reply.text.slice(0, 200)}`;
  if (reply.status < 400 || request.method === "HEAD") return null;
  if (typeof reply.body !== "object" || reply.body === null) return `${reply.status} without a JSON body`;
  const restShape =
    typeof reply.body.error === "string" &&
    typeof reply.body.message === "string" &&
    reply.body.statusCode === reply.status;
  const graphqlShape = Array.isArray(reply.body.errors);
  return restShape || graphqlShape ? null : `${reply.status} body of another shape: ${reply.text.slice(0, 200)}`;
}

test(`${REQUESTS} generated requests: no 5xx, a JSON error on every 4xx, healthy afterwards (seed ${SEED})`, async () => {
  const r = generator(SEED);
  const problems: string[] = [];
  let sent = 0;
  await Promise.all(
    Array.from({ length: CONCURRENCY }, async () => {
      // Made as they go, so that they use the agents' keys and ids as they are now.
      for (; sent < REQUESTS; sent++) {
        const request = randomRequest(r);
        const path = request.path.startsWith("/") ? request.path : `/${request.path}`;
        const headers: Record<string, string> = {};
        if (request.type !== undefined) headers["content-type"] = request.type;
        // fetch sends no body with GET or HEAD.
        const body = ["GET", "HEAD"].includes(request.method) ? undefined : request.body;
        const key = request.key === "main" || request.key === "other" ? agents[request.key].apiKey : request.key;
        const reply = await api.call(request.method, path, { key, body, headers });
        await keepUp(request, reply);
        const problem = problemWith(reply, request);
        if (problem) problems.push(`${request.method} ${path.slice(0, 120)}: ${problem}`);
      }
    }),
  );
  expect(problems).toEqual([]);
  expect(svc.logs.filter((line) => line.level === "error")).toEqual([]);
  const health = await api.get("/healthz");
  expect(health.status).toBe(200);
  // The fuzz may have rotated or deleted its agents' keys: a new agent works as ever.
  const fresh = await createVerifiedAgent(api, x);
  expect((await api.get(`/agents/${fresh.id}`, { key: fresh.apiKey })).status).toBe(200);
}, 120_000);
