import { describe, expect, test } from "vitest";
import { Api, createAgent, type TestAgent, uniqueId } from "./support/api.ts";
import { inboxOf } from "./support/inbox.ts";
import { rawMessage } from "./support/mail.ts";
import { adminOf } from "./support/pods.ts";
import { served } from "./support/served.ts";
import { startTestService } from "./support/service.ts";
import { waitFor } from "./support/wait.ts";

// The operator's side over HTTP: ADMIN_TOKEN, the admin routes and GraphQL's
// admin fields, and VERIFICATION_MODE=admin and none. Mail filed from
// Dovecot, sends through a real SMTP server.

const TOKEN = "admin-token-for-tests-0123456789";

const { svc, api, dovecot } = served({
  imap: true,
  smtp: true,
  env: { ADMIN_TOKEN: TOKEN, VERIFICATION_MODE: "admin", DAILY_SEND_LIMIT: "5" },
});

const admin = adminOf(api, TOKEN);

async function verifiedAgent(prefix = "agent"): Promise<TestAgent> {
  const agent = await createAgent(api, uniqueId(prefix));
  expect((await admin("POST", `/agents/${agent.id}/verify`)).status).toBe(200);
  return agent;
}

const send = (agent: TestAgent) =>
  api.post(`/agents/${agent.id}/send`, {
    key: agent.apiKey,
    body: { to: "pat@elsewhere.example", subject: "Hi", text: "Hello" },
  });

describe("the door", () => {
  test("only ADMIN_TOKEN opens it: none 401, an agent's key 403, another token 401; the token is no agent key", async () => {
    const agent = await createAgent(api);
    expect((await api.get("/admin/stats")).body).toMatchObject({
      statusCode: 401,
      message: "The admin token is required",
    });
    const withKey = await api.get("/admin/stats", { key: agent.apiKey });
    expect(withKey.body).toMatchObject({ statusCode: 403, message: "An agent's API key cannot use the admin API" });
    expect((await api.get("/admin/stats", { key: `${TOKEN}x` })).status).toBe(401);
    expect((await api.get("/verify/status", { key: TOKEN })).status).toBe(401);
    const viaGraphql = await api.graphql("{ admin { stats { agents } } }", {}, agent.apiKey);
    expect(viaGraphql.body.errors[0].extensions).toMatchObject({ code: "FORBIDDEN", status: 403 });
    expect(viaGraphql.body.data).toBeNull();
  });

  test("introspection shows an agent, or no one, no operator's field or type; the operator's token sees them", async () => {
    const agent = await createAgent(api);
    const query = "{ __schema { queryType { fields { name } } types { name } } }";
    const seen = async (key?: string) => {
      const reply = await api.graphql(query, {}, key);
      const schema = reply.body.data.__schema;
      return {
        admin: schema.queryType.fields.some((field: { name: string }) => field.name === "admin"),
        types: schema.types
          .map((type: { name: string }) => type.name)
          .filter((name: string) => name.startsWith("Admin")),
        agent: schema.queryType.fields.some((field: { name: string }) => field.name === "agent"),
      };
    };
    for (const key of [agent.apiKey, undefined])
      expect(await seen(key)).toEqual({ admin: false, types: [], agent: true });
    const operator = await seen(TOKEN);
    expect(operator.admin).toBe(true);
    expect(operator.types.length).toBeGreaterThan(2);
  });

  test("without ADMIN_TOKEN the admin API is off: 404 on every route", async () => {
    const plain = await startTestService();
    try {
      const off = new Api(plain.url);
      for (const path of ["/admin/stats", "/admin/agents", "/admin/agents/x"]) {
        const reply = await off.get(path, { key: TOKEN });
        expect([reply.status, reply.body.error]).toEqual([404, "Not Found"]);
      }
    } finally {
      await plain.stop();
    }
  });
});

describe("VERIFICATION_MODE=admin", () => {
  test("the social flow is off and says so; the operator verifies, and the agent may then use its mail", async () => {
    const created = await api.post("/agents", { body: { id: uniqueId(), name: "Waiting" } });
    const agent = { id: created.body.agent.id, apiKey: created.body.apiKey };
    expect(created.body.instruction).toContain("the operator of this instance must verify it");
    const start = await api.post("/verify/start", { key: agent.apiKey });
    expect([start.status, start.body.message]).toEqual([
      400,
      "On this instance the operator verifies agents (VERIFICATION_MODE=admin): ask them to verify this one",
    ]);
    expect((await api.get("/verify/status", { key: agent.apiKey })).body).toEqual({
      mode: "admin",
      verified: false,
      hasActiveCode: false,
    });
    const page = await api.get(new URL(created.body.verifyUrl).pathname);
    expect(page.text).toContain("The operator verifies agents here");
    expect((await api.get(`/agents/${agent.id}`, { key: agent.apiKey })).body.code).toBe("NOT_VERIFIED");

    const verified = await admin("POST", `/agents/${agent.id}/verify`);
    expect(verified.body).toMatchObject({ id: agent.id, verified: true, verifiedBy: "admin", socialUsername: null });
    expect((await api.get(`/agents/${agent.id}`, { key: agent.apiKey })).status).toBe(200);
    const events = await api.get(`/agents/${agent.id}/events`, { key: agent.apiKey });
    expect(events.body.data.map((event: { type: string; data: unknown }) => [event.type, event.data])).toEqual([
      ["agent.verified", { verifiedAt: verified.body.verifiedAt, socialUsername: null }],
    ]);
    expect((await admin("POST", `/agents/${agent.id}/verify`)).body.message).toBe("Agent is already verified");
  });
});

describe("agents", () => {
  test("list with filters and pages; one agent with where it stands today", async () => {
    const prefix = uniqueId("fleet");
    const waiting = await createAgent(api, `${prefix}-a`);
    const ready = await verifiedAgent(`${prefix}-b`);
    expect((await send(ready)).status).toBe(201);
    await dovecot.append(rawMessage({ to: `${ready.id}@mail.example`, subject: "For the fleet" }));
    await inboxOf(api, ready, 1);

    const all = await admin("GET", `/agents?prefix=${prefix.toUpperCase()}`);
    expect(all.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    expect(all.body.data.map((agent: { id: string }) => agent.id)).toEqual([ready.id, waiting.id]);
    const one = await admin("GET", `/agents/${ready.id}`);
    expect(one.body).toEqual({
      id: ready.id,
      email: `${ready.id}@mail.example`,
      name: `Agent ${ready.id}`,
      metadata: null,
      createdAt: expect.any(Number),
      verified: true,
      verifiedAt: expect.any(Number),
      verifiedBy: "admin",
      createdBy: "self",
      socialUsername: null,
      storageUsed: expect.any(Number),
      storageLimit: 52_428_800,
      sendPolicy: "open",
      sendPolicyOverride: null,
      storageLimitOverride: null,
      sendsToday: 1,
      dailySendLimit: 5,
      dailySendLimitOverride: null,
      reviewerEmail: null,
      reviewerEmailOverride: null,
      reviewerWebhookUrl: null,
      reviewerWebhookUrlOverride: null,
      screeningPolicy: "screen",
      lastReceivedAt: expect.any(Number),
      podId: null,
    });
    expect(one.body.storageUsed).toBeGreaterThan(0);
    const unverified = await admin("GET", `/agents?prefix=${prefix}&verified=false&limit=1`);
    expect(unverified.body).toMatchObject({ total: 1, limit: 1, data: [{ id: waiting.id, lastReceivedAt: null }] });
    expect((await admin("GET", "/agents?limit=0")).status).toBe(400);
    expect((await admin("GET", "/agents/nobody-here")).status).toBe(404);
  });

  test("limits of one agent: its own, refused beyond, and back to the instance's with null", async () => {
    const agent = await verifiedAgent();
    const set = await admin("PUT", `/agents/${agent.id}/limits`, { dailySendLimit: 1 });
    expect(set.body).toMatchObject({ dailySendLimit: 1, dailySendLimitOverride: 1, storageLimitOverride: null });
    expect((await send(agent)).status).toBe(201);
    const refused = await send(agent);
    expect(refused.body).toMatchObject({ statusCode: 429, code: "DAILY_SEND_LIMIT_EXCEEDED", limit: 1 });
    const quota = await api.graphql(
      `query ($id: ID!) { agent(id: $id) { sendQuota { limit } storageLimit } }`,
      { id: agent.id },
      agent.apiKey,
    );
    expect(quota.body.data.agent).toEqual({ sendQuota: { limit: 1 }, storageLimit: 52_428_800 });

    // Too small for any message: mail for it is dropped as over quota, as at the instance's limit.
    await admin("PUT", `/agents/${agent.id}/limits`, { storageLimit: 10 });
    await dovecot.append(rawMessage({ to: `${agent.id}@mail.example`, subject: "Too big" }));
    await waitFor(() =>
      svc.logs.find(
        (line) =>
          line.fields.reason === "over_quota" && line.fields.recipient === `${agent.id.toLowerCase()}@mail.example`,
      ),
    );
    expect((await api.get(`/agents/${agent.id}`, { key: agent.apiKey })).body.storageLimit).toBe(10);

    const reset = await admin("PUT", `/agents/${agent.id}/limits`, { dailySendLimit: null });
    expect(reset.body).toMatchObject({ dailySendLimit: 5, dailySendLimitOverride: null, storageLimitOverride: 10 });
    expect((await send(agent)).body).toMatchObject({ code: "STORAGE_LIMIT_EXCEEDED", limit: 10 });
    await admin("PUT", `/agents/${agent.id}/limits`, { storageLimit: null });
    expect((await send(agent)).status).toBe(201);
    for (const bad of [{ dailySendLimit: 0 }, { storageLimit: "big" }, { storageLimit: 1.5 }]) {
      expect((await admin("PUT", `/agents/${agent.id}/limits`, bad)).status).toBe(400);
    }
  });

  test("rotate an agent's key, and delete an agent", async () => {
    const agent = await verifiedAgent();
    const rotated = await admin("POST", `/agents/${agent.id}/rotate-key`);
    expect(Object.keys(rotated.body)).toEqual(["apiKey"]);
    expect((await api.get(`/agents/${agent.id}`, { key: agent.apiKey })).status).toBe(401);
    expect((await api.get(`/agents/${agent.id}`, { key: rotated.body.apiKey })).status).toBe(200);
    expect((await admin("DELETE", `/agents/${agent.id}`)).body.success).toBe(true);
    expect((await api.get(`/agents/${agent.id}`, { key: rotated.body.apiKey })).status).toBe(401);
    expect((await admin("DELETE", `/agents/${agent.id}`)).status).toBe(404);
  });
});

test("stats: the instance at a glance, the poller's state with it; the same over GraphQL", async () => {
  const stats = await admin("GET", "/stats");
  expect(stats.body).toEqual({
    agents: expect.any(Number),
    verified: expect.any(Number),
    emails: expect.any(Number),
    bytes: expect.any(Number),
    sendsToday: expect.any(Number),
    poller: { polling: true, connected: true, lastPollAt: expect.any(Number), lag: 0, lastError: null },
  });
  expect(stats.body.agents).toBeGreaterThanOrEqual(stats.body.verified);
  expect(stats.body.emails).toBeGreaterThan(0);
  const viaGraphql = await api.graphql("{ admin { stats { agents emails sendsToday } } }", {}, TOKEN);
  expect(viaGraphql.body.data.admin.stats).toEqual({
    agents: stats.body.agents,
    emails: stats.body.emails,
    sendsToday: stats.body.sendsToday,
  });
});

test("VERIFICATION_MODE=none: every agent is verified as it registers", async () => {
  const open = await startTestService({ VERIFICATION_MODE: "none", ADMIN_TOKEN: TOKEN });
  try {
    const client = new Api(open.url);
    const created = await client.post("/agents", { body: { id: uniqueId(), name: "Open" } });
    expect(created.body.agent.verified).toBe(true);
    expect(created.body.instruction).toContain("it can receive and send mail now");
    const key = created.body.apiKey;
    expect((await client.get(`/agents/${created.body.agent.id}`, { key })).status).toBe(200);
    expect((await client.get("/verify/status", { key })).body).toMatchObject({ mode: "none", verified: true });
    const seen = await client.get(`/admin/agents/${created.body.agent.id}`, { key: TOKEN });
    expect(seen.body.verifiedBy).toBe("none");
  } finally {
    await open.stop();
  }
});
