import { beforeAll, describe, expect, test } from "vitest";
import { Api, createAgent, type TestAgent } from "./support/api.ts";
import { inboxOf } from "./support/inbox.ts";
import { rawMessage } from "./support/mail.ts";
import { freePort, spawnService } from "./support/process.ts";
import { served } from "./support/served.ts";
import { freshDatabase } from "./support/service.ts";
import { waitFor } from "./support/wait.ts";

// Seeing the service work: a line per request with its id, /metrics in
// Prometheus' text format, and the real process's JSON lines at LOG_LEVEL
// with secrets kept out.

const METRICS_TOKEN = "metrics-token-for-tests-0123456789";
let agent: TestAgent;

const { svc, api, dovecot } = served({
  imap: true,
  smtp: true,
  env: { VERIFICATION_MODE: "none", DAILY_SEND_LIMIT: "1", METRICS_TOKEN },
});

beforeAll(async () => {
  agent = await createAgent(api);
});

describe("request lines", () => {
  test("X-Request-Id: honoured when sound, else made; one line per request by route template, with the agent and its statements", async () => {
    const chosen = await api.get(`/agents/${agent.id}`, {
      key: agent.apiKey,
      headers: { "x-request-id": "trace-42.a" },
    });
    expect(chosen.headers.get("x-request-id")).toBe("trace-42.a");
    const made = await api.get(`/agents/${agent.id}`, { key: agent.apiKey, headers: { "x-request-id": "a b\tc" } });
    const id = made.headers.get("x-request-id");
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    const lines = svc.logs.filter(
      (line) => line.event === "request" && [id, "trace-42.a"].includes(line.fields.requestId as string),
    );
    expect(lines.map((line) => line.fields)).toEqual([
      {
        requestId: "trace-42.a",
        method: "GET",
        route: "/agents/:agentId",
        status: 200,
        durationMs: expect.any(Number),
        agentId: agent.id,
        statements: 1,
      },
      {
        requestId: id,
        method: "GET",
        route: "/agents/:agentId",
        status: 200,
        durationMs: expect.any(Number),
        agentId: agent.id,
        statements: 1,
      },
    ]);
    const unmatched = await api.get("/no/such/path");
    const unmatchedId = unmatched.headers.get("x-request-id");
    // The poller logs too, so the line is found by its request's id, not by being last.
    expect(svc.logs.find((line) => line.fields.requestId === unmatchedId)?.fields).toMatchObject({
      route: "unmatched",
      status: 404,
      agentId: null,
    });
  });

  test("every kind of answer carries its X-Request-Id: errors, GraphQL, MCP, files, pages and streams", async () => {
    const auth = { authorization: `Bearer ${agent.apiKey}` };
    const mcpHeaders = { ...auth, "content-type": "application/json", accept: "application/json, text/event-stream" };
    const initialize = {
      jsonrpc: "2.0",
      id: 1,
      method: "initialize",
      params: { protocolVersion: "2025-06-18", capabilities: {}, clientInfo: { name: "t", version: "1" } },
    };
    const answers: [string, Promise<Response>][] = [
      ["REST error", fetch(`${svc.url}/agents/${agent.id}`)],
      ["GraphQL", fetch(`${svc.url}/graphql?query=%7B__typename%7D`, { headers: { accept: "application/json" } })],
      ["MCP", fetch(`${svc.url}/mcp`, { method: "POST", headers: mcpHeaders, body: JSON.stringify(initialize) })],
      ["file", fetch(`${svc.url}/openapi.json`)],
      ["page", fetch(`${svc.url}/docs`)],
      ["stream", fetch(`${svc.url}/agents/${agent.id}/events`, { headers: auth })],
    ];
    for (const [kind, answer] of answers) {
      const response = await answer;
      expect(response.ok || response.status === 401, kind).toBe(true);
      expect(response.headers.get("x-request-id"), kind).toMatch(/^[0-9a-f-]{36}$/);
      await response.body?.cancel();
    }
  });
});

/** The samples of a metric family, by their labels as written. */
async function scrape(): Promise<Map<string, number>> {
  const reply = await api.get("/metrics", { key: METRICS_TOKEN });
  expect(reply.headers.get("content-type")).toMatch(/^text\/plain; version=0\.0\.4/);
  const samples = new Map<string, number>();
  for (const line of reply.text.split("\n")) {
    if (line === "" || line.startsWith("#")) continue;
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*(?:\{[^}]*\})?) (\S+)$/.exec(line);
    expect(match, line).not.toBeNull();
    samples.set(match?.[1] as string, Number(match?.[2]));
  }
  return samples;
}

test("/metrics: requests, operations, inbound, sends, quota refusals, the poller and the process; only with the token", async () => {
  expect((await api.get("/metrics")).status).toBe(401);
  expect((await api.get("/metrics", { key: agent.apiKey })).status).toBe(401);
  await dovecot.append(rawMessage({ to: `${agent.id}@mail.example`, subject: "Counted" }));
  await dovecot.append(rawMessage({ to: "nobody-here@mail.example", subject: "Lost" }));
  await inboxOf(api, agent, 1);
  const send = () =>
    api.post(`/agents/${agent.id}/send`, {
      key: agent.apiKey,
      body: { to: "pat@elsewhere.example", subject: "x", text: "y" },
    });
  expect((await send()).status).toBe(201);
  expect((await send()).status).toBe(429);

  const samples = await waitFor(async () => {
    const now = await scrape();
    return now.get('pigeonhole_inbound_messages_total{outcome="unknown_recipient"}') ? now : null;
  });
  expect(samples.get('pigeonhole_inbound_messages_total{outcome="stored"}')).toBeGreaterThanOrEqual(1);
  expect(
    samples.get(
      'pigeonhole_http_request_duration_seconds_count{method="POST",route="/agents/:agentId/send",status="201"}',
    ),
  ).toBe(1);
  expect(
    samples.get(
      'pigeonhole_http_request_duration_seconds_count{method="POST",route="/agents/:agentId/send",status="429"}',
    ),
  ).toBe(1);
  expect(samples.get('pigeonhole_graphql_operations_total{operation="SendEmail"}')).toBe(2);
  expect(samples.get('pigeonhole_smtp_send_duration_seconds_count{outcome="accepted"}')).toBe(1);
  expect(samples.get('pigeonhole_quota_refusals_total{code="DAILY_SEND_LIMIT_EXCEEDED"}')).toBe(1);
  expect(samples.get("pigeonhole_imap_connected")).toBe(1);
  expect(samples.get("pigeonhole_imap_lag_messages")).toBe(0);
  expect(samples.get("pigeonhole_imap_last_poll_timestamp_seconds")).toBeGreaterThan(1.7e9);
  expect(samples.get("process_cpu_seconds_total")).toBeGreaterThan(0);
  // The route template, never the path: one series however many agents there are.
  expect([...samples.keys()].some((name) => name.includes(agent.id))).toBe(false);
});

test("the process: JSON lines through pino at LOG_LEVEL, no key or password in any", async () => {
  const database = freshDatabase();
  const env = {
    DATABASE_URL: database.url,
    VERIFICATION_MODE: "none",
    IMAP_URL: dovecot.url().replace(":secret@", ":wrong-password@"),
  };
  const chatty = await spawnService(env);
  try {
    const client = new Api(chatty.url);
    const created = await client.post("/agents", { body: { id: "logged", name: "Logged" } });
    await client.get("/agents/logged", { key: created.body.apiKey });
    await client.get("/agents/logged", { key: "ph_not-a-real-key-but-shaped-like-one" });
    await waitFor(() => chatty.output().includes('"event":"imap_disconnected"'));
    const lines = chatty
      .output()
      .trim()
      .split("\n")
      .map((line) => JSON.parse(line));
    const request = lines.find((line) => line.event === "request" && line.route === "/agents/:agentId");
    expect(request).toEqual({
      level: "info",
      time: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      event: "request",
      requestId: expect.any(String),
      method: "GET",
      route: "/agents/:agentId",
      status: 200,
      durationMs: expect.any(Number),
      agentId: "logged",
      statements: 1,
    });
    for (const secret of [
      created.body.apiKey,
      "ph_not-a-real-key",
      "wrong-password",
      new URL(created.body.verifyUrl).pathname,
    ]) {
      expect(chatty.output()).not.toContain(secret);
    }
  } finally {
    await chatty.kill();
  }
  const quiet = await spawnService({ ...env, IMAP_URL: "", LOG_LEVEL: "warn", PORT: String(await freePort()) });
  try {
    await new Api(quiet.url).get("/healthz");
    await new Api(quiet.url).get("/agents/x");
    expect(quiet.output()).not.toContain('"event":"request"');
  } finally {
    await quiet.kill();
    await database.drop();
  }
});
