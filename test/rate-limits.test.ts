import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Api, createAgent, type Reply, uniqueId } from "./support/api.ts";
import { startTestService, type TestService } from "./support/service.ts";

// Request rate limits over HTTP: per API key (with bursts), per client
// address for registrations, shared by the instances of one PostgreSQL.

const isRefusal = (reply: Reply) => reply.status === 429;

/**
 * The most requests of a key limited to 5 a second, with a burst of 5 more every 10 s, that may pass while
 * `run` lasts: 5 for each 1-s window it spans, one more for a window that ends while it runs, and a burst for
 * each 10-s window (the windows start at the key's first request). Under a second, 15. A busy machine
 * stretches the run, and the bound grows with it: the test says what the limiter does, not how fast the
 * machine is.
 */
async function mostThatPass<T>(run: () => Promise<T>): Promise<{ result: T; most: number }> {
  const started = Date.now();
  const result = await run();
  const seconds = Math.max((Date.now() - started) / 1000, 0.001);
  return { result, most: 5 * (Math.ceil(seconds) + 1) + 5 * Math.ceil(seconds / 10) };
}

function expectRefusal(reply: Reply, policy: string) {
  expect(reply.status).toBe(429);
  expect(reply.body).toMatchObject({
    error: "Rate limit exceeded",
    statusCode: 429,
    code: "REQUEST_RATE_LIMITED",
    retryAfter: expect.any(Number),
  });
  expect(reply.headers.get("retry-after")).toBe(String(reply.body.retryAfter));
  expect(reply.headers.get("ratelimit-policy")).toBe(policy);
  expect(reply.headers.get("ratelimit")).toMatch(/^"(key|registration)";r=0;t=\d+$/);
}

describe("per API key", () => {
  let svc: TestService;
  let api: Api;
  beforeAll(async () => {
    svc = await startTestService({ RATE_LIMIT_REQUESTS_PER_SECOND: "5" });
    api = new Api(svc.url);
  });
  afterAll(async () => {
    await svc.stop();
  });

  test("5 a second and a burst of as many again; then 429 with Retry-After and the RateLimit headers; other keys go on", async () => {
    const [busy, calm] = await Promise.all([createAgent(api), createAgent(api)]);
    const { result: replies, most } = await mostThatPass(() =>
      Promise.all(Array.from({ length: 30 }, () => api.get("/verify/status", { key: busy.apiKey }))),
    );
    const passed = replies.filter((reply) => reply.status === 200).length;
    // Within a second: 10, or 15 when a second's window ends while they run.
    expect(passed).toBeGreaterThanOrEqual(10);
    expect(passed).toBeLessThanOrEqual(Math.min(most, 30));
    expect(replies.filter(isRefusal).length).toBe(30 - passed);
    expectRefusal(replies.find(isRefusal) as Reply, '"key";q=5;w=1');
    expect((await api.get("/verify/status", { key: calm.apiKey })).status).toBe(200);
    // The same key over GraphQL is the same key: of 20 at once, at most a window's 15 pass, whenever they run.
    const viaGraphql = await Promise.all(
      Array.from({ length: 20 }, () => api.graphql("{ verificationStatus { verified } }", {}, busy.apiKey)),
    );
    const refused = viaGraphql.flatMap((reply) => reply.body.errors ?? []);
    expect(refused.length).toBeGreaterThanOrEqual(5);
    expect(refused[0].extensions).toMatchObject({ code: "REQUEST_RATE_LIMITED", status: 429 });
  });

  test.runIf(process.env.TEST_DATABASE === "postgresql")("instances on one PostgreSQL count together", async () => {
    const other = new Api((await svc.startAnother()).url);
    const agent = await createAgent(api);
    const { result: replies, most } = await mostThatPass(() =>
      Promise.all(
        Array.from({ length: 40 }, (_, n) => (n % 2 ? api : other).get("/verify/status", { key: agent.apiKey })),
      ),
    );
    const passed = replies.filter((reply) => reply.status === 200).length;
    // Counted apart, each instance would let 10 pass at once, 20 in all.
    expect(passed).toBeGreaterThanOrEqual(10);
    expect(passed).toBeLessThanOrEqual(most);
  });
});

describe("registrations per client address", () => {
  test("3 an hour from one address, over REST and GraphQL alike; X-Forwarded-For counts only with TRUST_PROXY", async () => {
    const svc = await startTestService({ RATE_LIMIT_REGISTRATIONS_PER_HOUR: "3" });
    const proxied = await startTestService({ RATE_LIMIT_REGISTRATIONS_PER_HOUR: "3", TRUST_PROXY: "true" });
    try {
      const api = new Api(svc.url);
      const register = (client: Api, forwarded?: string) =>
        client.post("/agents", {
          body: { id: uniqueId(), name: "Many" },
          headers: forwarded ? { "x-forwarded-for": forwarded } : {},
        });
      for (let n = 0; n < 3; n++) expect((await register(api, `10.0.0.${n}`)).status).toBe(201);
      expectRefusal(await register(api, "10.0.0.9"), '"registration";q=3;w=3600');
      const viaGraphql = await api.graphql(
        `mutation { createAgent(input: { id: "${uniqueId()}", name: "G" }) { apiKey } }`,
      );
      expect(viaGraphql.body.errors[0].extensions).toMatchObject({ code: "REQUEST_RATE_LIMITED" });

      const behind = new Api(proxied.url);
      for (let n = 0; n < 3; n++) expect((await register(behind, "203.0.113.7, 10.0.0.1")).status).toBe(201);
      expect((await register(behind, "203.0.113.7")).status).toBe(429);
      expect((await register(behind, "198.51.100.2")).status).toBe(201);
    } finally {
      await svc.stop();
      await proxied.stop();
    }
  });

  test("0 turns both limits off", async () => {
    const svc = await startTestService({ RATE_LIMIT_REQUESTS_PER_SECOND: "0", RATE_LIMIT_REGISTRATIONS_PER_HOUR: "0" });
    try {
      const api = new Api(svc.url);
      const agents = await Promise.all(Array.from({ length: 15 }, () => createAgent(api)));
      const [first] = agents;
      const replies = await Promise.all(
        Array.from({ length: 60 }, () => api.get("/verify/status", { key: first?.apiKey })),
      );
      expect(replies.every((reply) => reply.status === 200)).toBe(true);
    } finally {
      await svc.stop();
    }
  });
});
