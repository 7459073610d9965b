import { describe, expect, test } from "vitest";
import { Api, createAgent, createVerifiedAgent, uniqueId, verifyAgent } from "./support/api.ts";
import { served } from "./support/served.ts";

const { svc, api, x } = served({ env: { STORAGE_LIMIT_BYTES: "1000000" } });

describe("POST /agents", () => {
  test("creates an unverified agent and returns its key and instruction once", async () => {
    const id = uniqueId("Bot");
    const before = Date.now();
    const reply = await api.post("/agents", { body: { id, name: "  Mail Bot  ", metadata: { team: "ops", n: 1 } } });
    expect(reply.status).toBe(201);
    expect(Object.keys(reply.body)).toEqual(["agent", "apiKey", "verifyUrl", "instruction"]);
    expect(reply.body.agent).toEqual({
      id,
      email: `${id}@mail.example`,
      name: "Mail Bot",
      metadata: { team: "ops", n: 1 },
      createdAt: expect.any(Number),
      verified: false,
    });
    expect(reply.body.agent.createdAt).toBeGreaterThanOrEqual(before - 1000);
    expect(reply.body.apiKey).toMatch(/^ph_[A-Za-z0-9_-]{43}$/);
    // The link a person opens: a claim token of its own, never the key.
    expect(reply.body.verifyUrl).toMatch(/^http:\/\/localhost:\d+\/verify\/pv_[A-Za-z0-9_-]{43}$/);
    expect(reply.body.verifyUrl).not.toContain(reply.body.apiKey.slice(3));
    expect(reply.body.instruction).toContain(reply.body.verifyUrl);
    expect(reply.body.instruction).toContain("/verify/start");
    expect(reply.body.instruction).toContain("@pigeonhole");
    // Rotation needs the current key: a lost one is the operator's to replace.
    expect(reply.body.instruction).toMatch(/rotate-key replaces it, with the current key; a lost key .* operator/);
    expect(reply.body.instruction).toContain("/verify/complete");
    expect(reply.body.instruction).toContain("24 hours");
  });

  test("leaves metadata out when none is given", async () => {
    const reply = await api.post("/agents", { body: { id: uniqueId(), name: "n" } });
    expect(reply.status).toBe(201);
    expect(reply.body.agent).not.toHaveProperty("metadata");
  });

  test.each([
    [{ name: "n" }, "id is required"],
    [{ id: "a" }, "name is required"],
    [{ id: 5, name: "n" }, "Invalid id"],
    [{ id: "has space", name: "n" }, "id must be 1-64 characters"],
    [{ id: "dot.ted", name: "n" }, "id must be 1-64 characters"],
    [{ id: "", name: "n" }, "id must be 1-64 characters"],
    [{ id: "a".repeat(65), name: "n" }, "id must be 1-64 characters"],
    [{ id: "Postmaster", name: "n" }, "reserved"],
    [{ id: "mailer-daemon", name: "n" }, "reserved"],
    [{ id: "ABUSE", name: "n" }, "reserved"],
    [{ id: "Admin", name: "n" }, "id Admin is reserved on every domain: certificate authorities mail it"],
    [{ id: "ok-id", name: "   " }, "name must be 1-128 characters"],
    [{ id: "ok-id", name: "n".repeat(129) }, "name must be 1-128 characters"],
    [{ id: "ok-id", name: "CEO <ceo@bank.example>" }, "name must not contain <, > or @"],
    [{ id: "ok-id", name: "ceo@bank.example" }, "name must not contain <, > or @"],
    [{ id: "ok-id", name: "a > b" }, "name must not contain <, > or @"],
    [{ id: "ok-id", name: "n", metadata: [1, 2] }, "Invalid metadata"],
    [{ id: "ok-id", name: "n", metadata: "text" }, "Invalid metadata"],
    [{ id: "ok-id", name: "n", metadata: { big: "x".repeat(16 * 1024) } }, "metadata must be at most 16384 bytes"],
  ])("refuses %j with 400", async (body, message) => {
    const reply = await api.post("/agents", { body });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe("Bad Request");
    expect(reply.body.message).toContain(message);
    expect(Object.keys(reply.body)).toEqual(["error", "message", "statusCode"]);
  });

  test("accepts the longest id and name", async () => {
    const id = `${uniqueId()}-${"a".repeat(64)}`.slice(0, 64);
    const reply = await api.post("/agents", { body: { id, name: "n".repeat(128) } });
    expect(reply.status).toBe(201);
  });

  test("ids are unique without regard to case", async () => {
    const id = uniqueId("Case");
    expect((await api.post("/agents", { body: { id, name: "a" } })).status).toBe(201);
    const again = await api.post("/agents", { body: { id: id.toLowerCase(), name: "b" } });
    expect(again.status).toBe(409);
    expect(again.body).toEqual({
      error: "Conflict",
      statusCode: 409,
      message: expect.stringContaining("already taken"),
    });
  });

  test("of 20 parallel registrations of one id exactly one wins", async () => {
    const id = uniqueId("race");
    const replies = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        api.post("/agents", { body: { id: i % 2 ? id : id.toUpperCase(), name: `n${i}` } }),
      ),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 409)).toHaveLength(19);
  });
});

describe("GET /agents/{agentId}", () => {
  test("401 without a key and with a wrong one", async () => {
    const agent = await createAgent(api);
    const missing = await api.get(`/agents/${agent.id}`);
    expect(missing.status).toBe(401);
    expect(missing.body).toEqual({ error: "Unauthorized", statusCode: 401, message: "API key is required" });
    const wrong = await api.get(`/agents/${agent.id}`, { key: "ph_not-a-real-key" });
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ error: "Unauthorized", statusCode: 401, message: "API key is invalid" });
  });

  test("403 NOT_VERIFIED for an unverified agent", async () => {
    const agent = await createAgent(api);
    const reply = await api.get(`/agents/${agent.id}`, { key: agent.apiKey });
    expect(reply.status).toBe(403);
    expect(reply.body).toEqual({
      error: "Forbidden",
      statusCode: 403,
      message: expect.any(String),
      code: "NOT_VERIFIED",
    });
  });

  test("returns the whole agent once verified, the path read without case", async () => {
    const agent = await createAgent(api, uniqueId("Full"));
    await verifyAgent(api, x, agent);
    const reply = await api.get(`/agents/${agent.id.toLowerCase()}`, { key: agent.apiKey });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({
      id: agent.id,
      email: `${agent.id}@mail.example`,
      name: `Agent ${agent.id}`,
      createdAt: expect.any(Number),
      verified: true,
      verifiedAt: expect.any(Number),
      storageUsed: 0,
      storageLimit: 1000000,
    });
  });

  test("a key acts only on its own agent: 403 for another agent, 404 for none", async () => {
    const mine = await createVerifiedAgent(api, x);
    const unverified = await createAgent(api);
    const other = await createVerifiedAgent(api, x);
    for (const key of [mine.apiKey, unverified.apiKey]) {
      const reply = await api.get(`/agents/${other.id}`, { key });
      expect(reply.status).toBe(403);
      expect(reply.body.error).toBe("Forbidden");
      expect(reply.body).not.toHaveProperty("code");
      expect(reply.text).not.toContain(`Agent ${other.id}`);
      expect(reply.text).not.toContain("@mail.example");
    }
    const none = await api.get("/agents/nobody-here", { key: mine.apiKey });
    expect(none.status).toBe(404);
    expect(none.body.error).toBe("Not Found");
  });
});

describe("POST /agents/{agentId}/rotate-key", () => {
  test("issues a new key and the old one stops working at once, on every instance", async () => {
    const agent = await createVerifiedAgent(api, x);
    const other = new Api((await svc.startAnother()).url);
    const rotated = await api.post(`/agents/${agent.id}/rotate-key`, { key: agent.apiKey });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toEqual({ apiKey: expect.stringMatching(/^ph_/), message: expect.any(String) });
    expect(rotated.body.apiKey).not.toBe(agent.apiKey);
    for (const client of [api, other]) {
      expect((await client.get(`/agents/${agent.id}`, { key: agent.apiKey })).status).toBe(401);
      expect((await client.get(`/agents/${agent.id}`, { key: rotated.body.apiKey })).status).toBe(200);
    }
  });

  test("works for an unverified agent and refuses another agent's path", async () => {
    const agent = await createAgent(api);
    const other = await createAgent(api);
    expect((await api.post(`/agents/${other.id}/rotate-key`, { key: agent.apiKey })).status).toBe(403);
    expect((await api.post(`/agents/nobody-here/rotate-key`, { key: agent.apiKey })).status).toBe(404);
    expect((await api.post(`/agents/${agent.id}/rotate-key`)).status).toBe(401);
    const reply = await api.post(`/agents/${agent.id}/rotate-key`, { key: agent.apiKey });
    expect(reply.status).toBe(200);
    expect((await api.post("/verify/start", { key: reply.body.apiKey })).status).toBe(200);
  });

  test("of parallel rotations with one key exactly one succeeds", async () => {
    const agent = await createAgent(api);
    const replies = await Promise.all(
      Array.from({ length: 8 }, () => api.post(`/agents/${agent.id}/rotate-key`, { key: agent.apiKey })),
    );
    const winners = replies.filter((r) => r.status === 200);
    expect(winners).toHaveLength(1);
    expect(replies.filter((r) => r.status === 401)).toHaveLength(7);
    expect((await api.post("/verify/start", { key: winners[0]?.body.apiKey })).status).toBe(200);
  });
});

describe("DELETE /agents/{agentId}", () => {
  test("removes the agent: its key stops working, its id and X account are free again", async () => {
    const agent = await createAgent(api, uniqueId("Gone"));
    const { author } = await verifyAgent(api, x, agent);
    const reply = await api.delete(`/agents/${agent.id}`, { key: agent.apiKey });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ success: true, message: expect.stringContaining("deleted permanently") });
    expect((await api.get(`/verify/status`, { key: agent.apiKey })).status).toBe(401);
    const again = await createAgent(api, agent.id);
    await verifyAgent(api, x, again, author);
    expect((await api.get(`/agents/${agent.id}`, { key: again.apiKey })).body.verified).toBe(true);
  });

  test("works unverified, refuses other agents and unknown ids", async () => {
    const agent = await createAgent(api);
    const other = await createAgent(api);
    expect((await api.delete(`/agents/${other.id}`, { key: agent.apiKey })).status).toBe(403);
    expect((await api.delete(`/agents/nobody-here`, { key: agent.apiKey })).status).toBe(404);
    expect((await api.delete(`/agents/${agent.id}`)).status).toBe(401);
    expect((await api.delete(`/agents/${agent.id}`, { key: agent.apiKey })).status).toBe(200);
    expect((await api.get("/verify/status", { key: other.apiKey })).status).toBe(200);
  });
});

describe("over GraphQL", () => {
  test("rotateApiKey and deleteAgent, with FORBIDDEN and NOT_FOUND in extensions", async () => {
    const agent = await createAgent(api);
    const other = await createAgent(api);
    const rotate = `mutation($id: ID!) { rotateApiKey(agentId: $id) { apiKey message } }`;
    const forbidden = await api.graphql(rotate, { id: other.id }, agent.apiKey);
    expect(forbidden.body.errors[0].extensions).toEqual({ code: "FORBIDDEN", status: 403 });
    const missing = await api.graphql(rotate, { id: "nobody-here" }, agent.apiKey);
    expect(missing.body.errors[0].extensions).toEqual({ code: "NOT_FOUND", status: 404 });
    const rotated = await api.graphql(rotate, { id: agent.id }, agent.apiKey);
    const newKey = rotated.body.data.rotateApiKey.apiKey;
    expect((await api.get("/verify/status", { key: agent.apiKey })).status).toBe(401);
    const del = `mutation($id: ID!) { deleteAgent(agentId: $id) { success message } }`;
    const deleted = await api.graphql(del, { id: agent.id }, newKey);
    expect(deleted.body.data.deleteAgent).toEqual({ success: true, message: expect.stringContaining("deleted") });
    expect((await api.get("/verify/status", { key: newKey })).status).toBe(401);
  });
});
