import { beforeAll, describe, expect, test } from "vitest";
import { createVerifiedAgent, type TestAgent, uniqueId } from "./support/api.ts";
import { served } from "./support/served.ts";

// Text no database can store, JSON nested without end and client input echoed
// whole: each is a 400 in the spec's shape, never a 500, on either database.

let agent: TestAgent;

const { svc, api, x, provider } = served({ smtp: true });

beforeAll(async () => {
  agent = await createVerifiedAgent(api, x);
});

const badRequest = { error: "Bad Request", statusCode: 400, message: expect.any(String) };

function expectNoFault() {
  expect(svc.logs.filter((line) => line.event === "request_failed")).toEqual([]);
}

describe("NUL characters and unpaired surrogates", () => {
  const dirty = [
    ["a NUL", "a\u0000b", /NUL/],
    ["a lone high surrogate", "a\ud800b", /surrogate/],
    ["a lone low surrogate", "\udfffb", /surrogate/],
  ] as const;

  test.each(dirty)("%s in an agent name, metadata value or key is 400", async (_, text, message) => {
    for (const body of [
      { id: uniqueId(), name: text },
      { id: uniqueId(), name: "n", metadata: { note: text } },
      { id: uniqueId(), name: "n", metadata: { [text]: 1 } },
    ]) {
      const reply = await api.post("/agents", { body });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual(badRequest);
      expect(reply.body.message).toMatch(message);
    }
    expectNoFault();
  });

  test.each(dirty)("%s in a subject, text or html is 400 and nothing is sent", async (_, text) => {
    const before = provider.deliveries.length;
    for (const field of ["subject", "text", "html"]) {
      const body = { to: "bob@example.com", subject: "s", text: "t", [field]: text };
      const reply = await api.post(`/agents/${agent.id}/send`, { key: agent.apiKey, body });
      expect(reply.status).toBe(400);
      expect(reply.body).toEqual(badRequest);
    }
    expect(provider.deliveries.length).toBe(before);
    expectNoFault();
  });

  test.each([
    "/agents/a%00b",
    "/agents/AGENT/emails/a%00b",
    "/agents/AGENT/sent/a%00b",
    "/agents/AGENT/emails?folder=a%00b",
  ])("a NUL in %s is 400", async (path) => {
    const reply = await api.get(path.replace("AGENT", agent.id), { key: agent.apiKey });
    const deleted = await api.delete(path.replace("AGENT", agent.id), { key: agent.apiKey });
    for (const answer of [reply, deleted]) {
      if (answer.status === 405) continue;
      expect(answer.status).toBe(400);
      expect(answer.body).toEqual(badRequest);
    }
    expectNoFault();
  });

  test("in GraphQL variables and in string literals alike", async () => {
    const mutation = `mutation($i: CreateAgentInput!) { createAgent(input: $i) { apiKey } }`;
    const variables = await api.graphql(mutation, { i: { id: uniqueId(), name: "a\u0000b" } });
    expect(variables.body.errors[0].extensions).toEqual({ code: "BAD_REQUEST", status: 400 });
    const literal = await api.graphql(
      `mutation { createAgent(input: { id: "${uniqueId()}", name: "a\\u0000b" }) { apiKey } }`,
    );
    expect(literal.body.errors[0].extensions).toEqual({ code: "BAD_REQUEST", status: 400 });
    expect(literal.body.errors[0].message).toMatch(/NUL/);
    const email = await api.graphql(
      `query($a: ID!, $e: ID!) { email(agentId: $a, emailId: $e) { id } }`,
      { a: agent.id, e: "a\u0000b" },
      agent.apiKey,
    );
    expect(email.body.errors[0].extensions).toEqual({ code: "BAD_REQUEST", status: 400 });
    expectNoFault();
  });
});

describe("nesting", () => {
  const nested = (depth: number) => {
    let value: unknown = "leaf";
    for (let i = 0; i < depth; i++) value = { a: value };
    return value as Record<string, unknown>;
  };

  test("metadata up to 10 levels is kept; deeper is 400 naming the limit", async () => {
    const ok = await api.post("/agents", { body: { id: uniqueId(), name: "n", metadata: nested(10) } });
    expect(ok.status).toBe(201);
    expect(ok.body.agent.metadata).toEqual(nested(10));
    for (const depth of [11, 122]) {
      const reply = await api.post("/agents", { body: { id: uniqueId(), name: "n", metadata: nested(depth) } });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toMatch(/^metadata (must nest at most 10|nests deeper than 32) levels/);
    }
    expectNoFault();
  });

  test("a JSON body or GraphQL variables nested 200,000 deep are 400", async () => {
    const depth = 200_000;
    const deep = `${"[".repeat(depth)}${"]".repeat(depth)}`;
    const rest = await api.post("/agents", { body: `{"id":"deep","name":"n","metadata":{"a":${deep}}}` });
    expect(rest.status).toBe(400);
    expect(rest.body).toEqual(badRequest);
    const query = `mutation($i: CreateAgentInput!) { createAgent(input: $i) { apiKey } }`;
    const graphql = await api.post("/graphql", {
      body: `{"query":${JSON.stringify(query)},"variables":{"i":{"id":"deep","name":"n","metadata":{"a":${deep}}}}}`,
    });
    expect(graphql.body.errors[0].extensions).toEqual({ code: "BAD_REQUEST", status: 400 });
    expect(graphql.body.errors[0].message).toMatch(/deeper than 32/);
    expectNoFault();
  });
});

describe("cursors", () => {
  test.each([
    ["emailConnection", "after", "garbage"],
    ["emailConnection", "before", "Zm9v"],
    ["sentConnection", "before", "Zm9v"],
    ["sentConnection", "after", Buffer.from("GPC:X:1").toString("base64")],
  ])("%s(%s: %j) is BAD_REQUEST", async (field, arg, cursor) => {
    const reply = await api.graphql(
      `query($id: ID!, $c: String) { agent(id: $id) { ${field}(${arg}: $c, ${arg === "after" ? "first" : "last"}: 1) { edges { cursor } } } }`,
      { id: agent.id, c: cursor },
      agent.apiKey,
    );
    expect(reply.body.errors[0].extensions).toEqual({ code: "BAD_REQUEST", status: 400 });
    expect(reply.body.errors[0].message).toMatch(/cursor/i);
    expectNoFault();
  });
});

describe("echoes", () => {
  test("a 680 kB value is never echoed whole in an error", async () => {
    const huge = "x".repeat(680_000);
    const replies = [
      await api.post("/agents", { body: { id: uniqueId(), name: "n", metadata: huge } }),
      await api.post("/agents", { body: { id: huge, name: "n" } }),
      await api.post(`/agents/${agent.id}/send`, { key: agent.apiKey, body: { to: huge, subject: "s", text: "t" } }),
      await api.graphql(`mutation($i: CreateAgentInput!) { createAgent(input: $i) { apiKey } }`, {
        i: { id: uniqueId(), name: "n", metadata: huge },
      }),
    ];
    for (const reply of replies) {
      expect(reply.status).toBeLessThan(500);
      expect(reply.text.length).toBeLessThan(2_000);
    }
  });
});
