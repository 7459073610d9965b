import { beforeAll, describe, expect, test } from "vitest";
import { Api, createVerifiedAgent, type TestAgent, uniqueId } from "./support/api.ts";
import { served } from "./support/served.ts";
import { withService } from "./support/service.ts";

// What one GraphQL request may ask for is checked before anything runs: a
// hostile request is refused in milliseconds with a 400 naming the limit,
// and the service stays healthy for everyone else.

let agent: TestAgent;

const { api, x } = served({ smtp: true });

beforeAll(async () => {
  agent = await createVerifiedAgent(api, x);
});

const aliases = (n: number, field: string) => Array.from({ length: n }, (_, i) => `a${i}: ${field}`).join(" ");

/** Posts a query and expects a quick 400-style refusal naming the limit. */
async function refused(query: string, limit: RegExp, key?: string) {
  const started = performance.now();
  const reply = await api.graphql(query, {}, key);
  const elapsed = performance.now() - started;
  // Nothing ran: no data, or null for each root field.
  expect(Object.values(reply.body.data ?? {}).every((value) => value === null)).toBe(true);
  const [error] = reply.body.errors;
  expect(error.extensions).toMatchObject({ code: "BAD_REQUEST", status: 400 });
  expect(error.message).toMatch(limit);
  return { reply, elapsed };
}

async function healthy() {
  const reply = await api.get("/healthz");
  expect(reply.status).toBe(200);
}

describe("limits checked before execution", () => {
  test("60,000 aliases of __schema (3.8 MB) are refused by the token limit in milliseconds", async () => {
    const query = `{ ${aliases(60_000, "__schema { types { name fields { name type { name } } } }")} }`;
    expect(query.length).toBeGreaterThan(3_500_000);
    const { elapsed } = await refused(query, /token limit of 2000/i);
    expect(elapsed).toBeLessThan(5_000);
    await healthy();
  });

  test("50,000 aliases of verificationStatus do not block the instance", async () => {
    const query = `{ ${aliases(50_000, "verificationStatus { verified }")} }`;
    const [result, health] = await Promise.all([
      refused(query, /token limit/i),
      (async () => {
        await new Promise((r) => setTimeout(r, 20));
        const started = performance.now();
        await healthy();
        return performance.now() - started;
      })(),
    ]);
    expect(result.elapsed).toBeLessThan(5_000);
    expect(health).toBeLessThan(5_000);
  });

  test("the largest query the token limit allows is parsed and validated quickly", async () => {
    // The same field over and over is the worst case for the rule that checks fields can be merged.
    const query = `{ ${Array.from({ length: 390 }, () => "verificationStatus { verified }").join(" ")} }`;
    const started = performance.now();
    const reply = await api.graphql(query, {}, agent.apiKey);
    expect(performance.now() - started).toBeLessThan(2_000);
    expect(reply.body.data.verificationStatus).toEqual({ verified: true });
  });

  test("more than 30 aliases are refused; 30 are fine", async () => {
    await refused(`{ ${aliases(31, "verificationStatus { verified }")} }`, /aliases limit of 30/i, agent.apiKey);
    const ok = await api.graphql(`{ ${aliases(30, "verificationStatus { verified }")} }`, {}, agent.apiKey);
    expect(ok.body.errors).toBeUndefined();
    expect(Object.keys(ok.body.data)).toHaveLength(30);
  });

  test("a query deeper than 10 is refused", async () => {
    const deep = `{ agent(id: "${agent.id}") { emailConnection { edges { node { from { address } } } } } }`;
    const ok = await api.graphql(deep, {}, agent.apiKey);
    expect(ok.body.errors).toBeUndefined();
    const tooDeep = '{ a: agent(id: "x") { b: agent { c { d { e { f { g { h { i { j { k } } } } } } } } } } }';
    await refused(tooDeep, /depth limit of 10/i);
  });

  test("more than 10 directives are refused", async () => {
    const directives = Array.from({ length: 11 }, () => "@include(if: true)").join(" ");
    await refused(`{ verificationStatus ${directives} { verified } }`, /directives limit of 10/i, agent.apiKey);
  });

  test("a document refused once is refused again the same way: its validation is kept, not skipped", async () => {
    const query = `{ verificationStatus { verified } unknownField }`;
    const first = await refused(query, /Cannot query field "unknownField"/);
    const second = await refused(query, /Cannot query field "unknownField"/);
    expect(second.reply.body).toEqual(first.reply.body);
  });

  test("list fields cost their limit: a query over 5,000 is refused, the REST list is not", async () => {
    const list = (limit: number) => `sent(limit: ${limit}) { data { id bodyText bodyHtml subject } total }`;
    const query = `{ agent(id: "${agent.id}") { ${aliases(4, list(100))} } }`;
    await refused(query, /cost .* over the limit of 5000/i, agent.apiKey);
    const small = await api.graphql(`{ agent(id: "${agent.id}") { ${list(10)} } }`, {}, agent.apiKey);
    expect(small.body.errors).toBeUndefined();
    const rest = await api.get(`/agents/${agent.id}/emails?limit=100`, { key: agent.apiKey });
    expect(rest.status).toBe(200);
    const sent = await api.get(`/agents/${agent.id}/sent?limit=100`, { key: agent.apiKey });
    expect(sent.status).toBe(200);
  });

  test("createAgent must be the only field of its mutation", async () => {
    const create = (i: number) => `c${i}: createAgent(input: { id: "${uniqueId()}", name: "n${i}" }) { apiKey }`;
    const batch = `mutation { ${Array.from({ length: 5 }, (_, i) => create(i)).join(" ")} }`;
    await refused(batch, /createAgent must be the only field/);
    const viaFragment = `mutation { ...F } fragment F on Mutation { ${create(1)} ${create(2)} }`;
    await refused(viaFragment, /createAgent must be the only field/);
    const mixed = `mutation { ${create(1)} startVerification { verificationCode } }`;
    await refused(mixed, /createAgent must be the only field/);
    const one = await api.graphql(`mutation { ${create(1)} }`);
    expect(one.body.data.c1.apiKey).toMatch(/^ph_/);
  });

  test("over application/graphql-response+json a refusal is HTTP 400; over application/json 200", async () => {
    const query = `{ ${aliases(31, "__typename")} }`;
    const strict = await api.post("/graphql", {
      body: { query },
      headers: { accept: "application/graphql-response+json" },
    });
    expect(strict.status).toBe(400);
    expect(strict.body.errors[0].extensions).toEqual({ code: "BAD_REQUEST", status: 400 });
    const legacy = await api.post("/graphql", { body: { query } });
    expect(legacy.status).toBe(200);
    expect(legacy.body.errors[0].extensions).toEqual({ code: "BAD_REQUEST", status: 400 });
  });

  test("GraphiQL's introspection query is allowed when introspection is on", async () => {
    const { getIntrospectionQuery } = await import("graphql");
    const reply = await api.graphql(getIntrospectionQuery());
    expect(reply.body.errors).toBeUndefined();
    expect(reply.body.data.__schema.types.length).toBeGreaterThan(10);
  });
});

describe("answers are capped in size", () => {
  test("a query whose answer would pass 32 MiB is refused; the service lives on", async () => {
    const big = await createVerifiedAgent(api, x);
    // Three sends of about 8 MiB each: 24 MiB of bodies, read three times over by aliases.
    const text = "x".repeat(8 * 1024 * 1024);
    for (let i = 0; i < 3; i++) {
      const sent = await api.post(`/agents/${big.id}/send`, {
        key: big.apiKey,
        body: { to: "someone@example.com", subject: `big ${i}`, text },
      });
      expect(sent.status).toBe(201);
    }
    const list = "sent(limit: 5) { data { bodyText } }";
    const reply = await api.graphql(`{ agent(id: "${big.id}") { ${aliases(30, list)} } }`, {}, big.apiKey);
    expect(reply.status).toBe(200);
    expect(reply.body.errors[0].extensions).toMatchObject({ code: "PAYLOAD_TOO_LARGE", status: 413 });
    expect(reply.body.errors[0].message).toMatch(/32 MiB/);
    expect(reply.text.length).toBeLessThan(100_000);
    const rest = await api.get(`/agents/${big.id}/sent?limit=5`, { key: big.apiKey });
    expect(rest.status).toBe(200);
    expect(rest.body.data).toHaveLength(3);
    await healthy();
  }, 60_000);
});

describe("GRAPHQL_INTROSPECTION=false", () => {
  test("refuses introspection and serves no GraphiQL; ordinary queries still work", async () => {
    await withService({ SOCIAL_OEMBED_URL: x.url, GRAPHQL_INTROSPECTION: "false" }, async (closed) => {
      const client = new Api(closed.url);
      const schema = await client.graphql("{ __schema { types { name } } }");
      expect(schema.body.errors[0].extensions.code).toBe("BAD_REQUEST");
      expect(schema.body.errors[0].message).toMatch(/introspection/i);
      const page = await client.get("/graphql", { headers: { accept: "text/html" } });
      expect(page.headers.get("content-type") ?? "").not.toMatch(/text\/html/);
      const typename = await client.graphql("{ __typename }");
      expect(typename.body.data).toEqual({ __typename: "Query" });
    });
  });
});
