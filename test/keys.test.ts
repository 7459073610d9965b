import { beforeAll, describe, expect, test } from "vitest";
import { Api, createAgent, type TestAgent } from "./support/api.ts";
import { callTool, connectMcp } from "./support/mcp.ts";
import { served } from "./support/served.ts";
import { sseSubscription, wsSubscription } from "./support/streams.ts";

// An agent's keys: made with a whitelist of permissions (read, send, manage,
// events) and an expiry; listed without secrets; revoked at once
// on every instance. A key lacking a permission is refused 403 naming it, on
// REST, GraphQL and MCP alike, and sees no MCP tool it may not call. A key
// makes keys only within its own grant. The primary key does everything.

const ADMIN_TOKEN = "admin-token-keys-0123456789abcdef";
const { svc, api } = served({ env: { MAIL_DOMAIN: "localhost", VERIFICATION_MODE: "none", ADMIN_TOKEN } });

let agent: TestAgent;
let emailId: string;

const keysPath = () => `/agents/${agent.id}/keys`;

/** A new key of the agent, made by `by` (the primary key unless given). */
async function makeKey(body: Record<string, unknown>, by = agent.apiKey) {
  return api.post(keysPath(), { key: by, body: { name: "a key", ...body } });
}

async function keyWith(permissions: string[], extra: Record<string, unknown> = {}): Promise<string> {
  const made = await makeKey({ permissions, ...extra });
  expect(made.status).toBe(201);
  return made.body.key;
}

const lacks = (permission: string) => ({ error: "Forbidden", message: expect.any(String), permission });

beforeAll(async () => {
  agent = await createAgent(api);
  const sender = await createAgent(api);
  const sent = await api.post(`/agents/${sender.id}/send`, {
    key: sender.apiKey,
    body: { to: `${agent.id}@localhost`, subject: "Hello", text: "Hi." },
  });
  expect(sent.status).toBe(201);
  emailId = (await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.data[0].id;
});

describe("making and listing keys", () => {
  test("a new key answers its secret once; the list shows every key, the primary first, never a secret", async () => {
    const made = await makeKey({ name: "dashboard", permissions: ["read", "events"] });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({
      id: expect.any(String),
      key: expect.stringMatching(/^ph_/),
      name: "dashboard",
      permissions: ["read", "events"],
      expiresAt: null,
      hideJunk: false,
      createdAt: expect.any(Number),
    });
    const listed = await api.get(keysPath(), { key: agent.apiKey });
    expect(listed.status).toBe(200);
    expect(listed.body.data[0]).toMatchObject({
      id: "primary",
      name: "primary",
      permissions: ["read", "send", "manage", "events"],
    });
    expect(listed.body.data).toContainEqual({ ...made.body, key: undefined });
    expect(listed.text).not.toContain(made.body.key);
  });

  test("a name and at least one known permission are required", async () => {
    expect((await makeKey({ permissions: [] })).status).toBe(400);
    expect((await makeKey({ permissions: ["everything"] })).status).toBe(400);
    expect((await makeKey({ name: "", permissions: ["read"] })).status).toBe(400);
    expect((await makeKey({ permissions: ["read"], expiresAt: svc.clock.now().getTime() - 1 })).status).toBe(400);
  });
});

describe("permissions", () => {
  test("a send-only key cannot read (403 naming read) and can send", async () => {
    const sendOnly = await keyWith(["send"]);
    const read = await api.get(`/agents/${agent.id}/emails`, { key: sendOnly });
    expect(read.status).toBe(403);
    expect(read.body).toEqual({ ...lacks("read"), statusCode: 403 });
    expect((await api.get(`/agents/${agent.id}/emails/${emailId}`, { key: sendOnly })).body.permission).toBe("read");
    const sent = await api.post(`/agents/${agent.id}/send`, {
      key: sendOnly,
      body: { to: `${agent.id}@localhost`, subject: "From the worker", text: "Done." },
    });
    expect(sent.status).toBe(201);
    expect((await api.get(`/agents/${agent.id}`, { key: sendOnly })).status).toBe(200);
  });

  test("a read-only key is refused every write on REST with 403 naming what it lacks", async () => {
    const readOnly = await keyWith(["read"]);
    expect((await api.get(`/agents/${agent.id}/emails`, { key: readOnly })).status).toBe(200);
    expect((await api.get(`/agents/${agent.id}/threads`, { key: readOnly })).status).toBe(200);
    const writes: [string, string, unknown, string][] = [
      ["POST", `/agents/${agent.id}/send`, { to: "a@localhost", subject: "x", text: "x" }, "send"],
      ["POST", `/agents/${agent.id}/drafts`, { to: ["a@localhost"], subject: "x", text: "x" }, "send"],
      ["PATCH", `/agents/${agent.id}/emails/${emailId}`, { isRead: true }, "manage"],
      ["DELETE", `/agents/${agent.id}/emails/${emailId}`, undefined, "manage"],
      ["POST", `/agents/${agent.id}/webhooks`, { url: "https://example.com/hook" }, "manage"],
      ["PUT", `/agents/${agent.id}/senders`, { allow: [], block: [] }, "manage"],
      ["POST", keysPath(), { name: "k", permissions: ["read"] }, "manage"],
      ["DELETE", `/agents/${agent.id}`, undefined, "manage"],
      ["POST", `/agents/${agent.id}/rotate-key`, undefined, "send"],
      ["GET", `/agents/${agent.id}/events`, undefined, "events"],
    ];
    for (const [method, path, body, permission] of writes) {
      const reply = await api.call(method, path, { key: readOnly, body });
      expect({ method, path, status: reply.status, body: reply.body }).toEqual({
        method,
        path,
        status: 403,
        body: { ...lacks(permission), statusCode: 403 },
      });
    }
    expect((await api.get(`/agents/${agent.id}`, { key: agent.apiKey })).status).toBe(200);
  });

  test("GraphQL refuses a read-only key's writes with 403 and the permission in the extensions", async () => {
    const readOnly = await keyWith(["read"]);
    const reply = await api.graphql(
      `mutation ($id: ID!) { sendEmail(agentId: $id, input: { to: ["a@localhost"], subject: "x", text: "x" }) { __typename } }`,
      { id: agent.id },
      readOnly,
    );
    expect(reply.body.errors[0].extensions).toMatchObject({ code: "FORBIDDEN", status: 403, permission: "send" });
    const deleted = await api.graphql(
      `mutation ($id: ID!, $e: ID!) { deleteEmail(agentId: $id, emailId: $e) { success } }`,
      { id: agent.id, e: emailId },
      readOnly,
    );
    expect(deleted.body.errors[0].extensions).toMatchObject({ status: 403, permission: "manage" });
    const read = await api.graphql(
      `query ($id: ID!) { agent(id: $id) { id emails { data { id } } } }`,
      { id: agent.id },
      readOnly,
    );
    expect(read.body.errors).toBeUndefined();
    const sendOnly = await keyWith(["send"]);
    const refused = await api.graphql(
      `query ($id: ID!) { agent(id: $id) { id emails { data { id } } } }`,
      { id: agent.id },
      sendOnly,
    );
    expect(refused.body.errors[0].extensions).toMatchObject({ status: 403, permission: "read" });
  });

  test("GraphQL makes, lists and revokes keys", async () => {
    const made = await api.graphql(
      `mutation ($id: ID!) { createKey(agentId: $id, input: { name: "gql", permissions: [read] }) { id key permissions } }`,
      { id: agent.id },
      agent.apiKey,
    );
    const { id, key, permissions } = made.body.data.createKey;
    expect(permissions).toEqual(["read"]);
    const listed = await api.graphql(`query ($id: ID!) { keys(agentId: $id) { id name } }`, { id: agent.id }, key);
    expect(listed.body.errors[0].extensions).toMatchObject({ permission: "manage" });
    const revoked = await api.graphql(
      `mutation ($id: ID!, $k: ID!) { revokeKey(agentId: $id, keyId: $k) { success } }`,
      { id: agent.id, k: id },
      agent.apiKey,
    );
    expect(revoked.body.data.revokeKey.success).toBe(true);
    expect((await api.get(`/agents/${agent.id}`, { key })).status).toBe(401);
  });

  test("MCP: a key without send sees no send tool, and a read-only key's writes are tool errors naming the permission", async () => {
    const readOnly = await keyWith(["read"]);
    const client = await connectMcp(svc.url, readOnly);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("list_emails");
    for (const name of ["send_email", "reply_to_email", "forward_email", "create_draft", "send_draft"]) {
      expect(names).not.toContain(name);
    }
    expect(names).not.toContain("delete_email");
    const sent = await callTool(client, "send_email", { to: "a@localhost", subject: "x", text: "x" });
    expect(sent).toMatchObject({ isError: true, body: { ...lacks("send"), statusCode: 403 } });
    const deleted = await callTool(client, "delete_email", { emailId });
    expect(deleted).toMatchObject({ isError: true, body: { permission: "manage" } });
    expect((await callTool(client, "list_emails")).isError).toBe(false);
    await client.close();
    const primary = await connectMcp(svc.url, agent.apiKey);
    expect((await primary.listTools()).tools.map((tool) => tool.name)).toContain("send_email");
    await primary.close();
  });
  test("a key without events is refused subscriptions, over server-sent events and WebSocket alike", async () => {
    const readOnly = await keyWith(["read"]);
    const query = "subscription ($id: ID!) { mailEvents(agentId: $id) { id } }";
    const sse = await sseSubscription(svc.url, query, { id: agent.id }, readOnly);
    expect(sse.status).toBe(403);
    expect((await sse.next()).errors?.[0]?.extensions).toMatchObject({ status: 403, permission: "events" });
    sse.close();
    const ws = wsSubscription(svc.url, query, { id: agent.id }, readOnly);
    expect((await ws.next()).errors?.[0]?.extensions).toMatchObject({ status: 403, permission: "events" });
    ws.close();
    const listening = await sseSubscription(svc.url, query, { id: agent.id }, await keyWith(["events"]));
    expect(listening.status).toBe(200);
    listening.close();
  });
});

describe("an answer that shows mail needs read, whatever else its act needs", () => {
  test("a manage-only key moves, labels and deletes, but no change that answers the email or thread (403 naming read)", async () => {
    const manageOnly = await keyWith(["manage"]);
    const { threadId } = (await api.get(`/agents/${agent.id}/emails/${emailId}`, { key: agent.apiKey })).body;
    const patched = await api.call("PATCH", `/agents/${agent.id}/emails/${emailId}`, {
      key: manageOnly,
      body: { isRead: false },
    });
    expect(patched.status).toBe(403);
    expect(patched.body).toEqual({ ...lacks("read"), statusCode: 403 });
    const labelled = await api.call("PATCH", `/agents/${agent.id}/threads/${threadId}`, {
      key: manageOnly,
      body: { addLabels: ["seen"] },
    });
    expect(labelled.body).toEqual({ ...lacks("read"), statusCode: 403 });
    const graphql = await api.graphql(
      `mutation ($id: ID!, $t: ID!) { updateThread(agentId: $id, threadId: $t, addLabels: ["x"]) { messages { direction } } }`,
      { id: agent.id, t: threadId },
      manageOnly,
    );
    expect(graphql.body.errors[0].extensions).toMatchObject({ status: 403, permission: "read" });
    const batch = await api.post(`/agents/${agent.id}/emails/batch`, {
      key: manageOnly,
      body: { emailIds: [emailId], isRead: true },
    });
    expect(batch.status).toBe(200);
    const client = await connectMcp(svc.url, manageOnly);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("delete_email");
    for (const name of ["read_email", "move_email", "label_email", "label_thread"]) expect(names).not.toContain(name);
    await client.close();
  });

  test("an events-only key hears of mail but waits for none (403 naming read), by REST, GraphQL and subscription", async () => {
    const eventsOnly = await keyWith(["events"]);
    expect((await api.get(`/agents/${agent.id}/events`, { key: eventsOnly })).status).toBe(200);
    const waited = await api.get(`/agents/${agent.id}/emails/wait?after=0&timeout=0`, { key: eventsOnly });
    expect(waited.status).toBe(403);
    expect(waited.body).toEqual({ ...lacks("read"), statusCode: 403 });
    const query = "subscription ($id: ID!) { emailReceived(agentId: $id) { id bodyText } }";
    const sse = await sseSubscription(svc.url, query, { id: agent.id }, eventsOnly);
    expect(sse.status).toBe(403);
    expect((await sse.next()).errors?.[0]?.extensions).toMatchObject({ status: 403, permission: "read" });
    sse.close();
    const client = await connectMcp(svc.url, eventsOnly);
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain("wait_for_email");
    await client.close();
    const both = await keyWith(["events", "read"]);
    const found = await api.get(`/agents/${agent.id}/emails/wait?after=0&timeout=0`, { key: both });
    expect(found.body).toMatchObject({ id: emailId });
  });

  test("a manage-only key points no webhook anywhere nor takes its secret (403 naming events)", async () => {
    const hooks = `/agents/${agent.id}/webhooks`;
    const made = await api.post(hooks, { key: agent.apiKey, body: { url: "https://hooks.example/owner" } });
    expect(made.status).toBe(201);
    const manageOnly = await keyWith(["manage"]);
    const refusals: [string, string, unknown][] = [
      ["POST", hooks, { url: "https://hooks.example/elsewhere" }],
      ["PATCH", `${hooks}/${made.body.id}`, { url: "https://hooks.example/elsewhere" }],
      // The secret signs what the owner's receiver believes: it would forge the service's events.
      ["POST", `${hooks}/${made.body.id}/rotate-secret`, undefined],
    ];
    for (const [method, path, body] of refusals) {
      const reply = await api.call(method, path, { key: manageOnly, body });
      expect([method, reply.status, reply.body]).toEqual([method, 403, { ...lacks("events"), statusCode: 403 }]);
    }
    expect((await api.get(hooks, { key: manageOnly })).body.data).toHaveLength(1);
    expect((await api.delete(`${hooks}/${made.body.id}`, { key: manageOnly })).status).toBe(200);
    const both = await keyWith(["manage", "events"]);
    const allowed = await api.post(hooks, { key: both, body: { url: "https://hooks.example/both" } });
    expect(allowed.status).toBe(201);
    expect((await api.delete(`${hooks}/${allowed.body.id}`, { key: both })).status).toBe(200);
  });

  test("a send-only key sends and replies, but forwards nothing (403 naming read) nor sees the thread it sent into", async () => {
    const sendOnly = await keyWith(["send"]);
    const forwarded = await api.post(`/agents/${agent.id}/emails/${emailId}/forward`, {
      key: sendOnly,
      body: { to: ["someone@localhost"], text: "FYI" },
    });
    expect(forwarded.status).toBe(403);
    expect(forwarded.body).toEqual({ ...lacks("read"), statusCode: 403 });
    const sent = await api.graphql(
      `mutation ($id: ID!) {
        sendEmail(agentId: $id, input: {to: ["${agent.id}@localhost"], subject: "Note", text: "x"}) {
          ... on SentEmail { id subject thread { messages { direction } } }
        }
      }`,
      { id: agent.id },
      sendOnly,
    );
    expect(sent.body.data.sendEmail).toMatchObject({ id: expect.any(String), subject: "Note", thread: null });
    expect(sent.body.errors[0]).toMatchObject({
      path: ["sendEmail", "thread"],
      extensions: { status: 403, permission: "read" },
    });
    const client = await connectMcp(svc.url, sendOnly);
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    expect(names).toContain("reply_to_email");
    expect(names).not.toContain("forward_email");
    await client.close();
  });

  test("a send-only key is shown no forward waiting as a draft (it quotes the email), by REST, GraphQL and MCP", async () => {
    const drafts = `/agents/${agent.id}/drafts`;
    const later = Date.now() + 3_600_000;
    const forward = await api.post(`/agents/${agent.id}/emails/${emailId}/forward`, {
      body: { to: ["someone@localhost"], text: "FYI", sendAt: later },
      key: agent.apiKey,
    });
    expect(forward.status).toBe(202);
    const own = await api.post(drafts, { key: agent.apiKey, body: { subject: "Own words" } });
    const sendOnly = await keyWith(["send"]);
    const listed = async (key: string) => (await api.get(drafts, { key })).body.data.map((d: { id: string }) => d.id);
    expect(await listed(agent.apiKey)).toEqual(expect.arrayContaining([forward.body.id, own.body.id]));
    expect(await listed(sendOnly)).toContain(own.body.id);
    expect(await listed(sendOnly)).not.toContain(forward.body.id);
    const one = `${drafts}/${forward.body.id}`;
    for (const answer of [
      await api.get(one, { key: sendOnly }),
      await api.call("PATCH", one, { key: sendOnly, body: { subject: "Mine now" } }),
      await api.post(`${one}/send`, { key: sendOnly }),
      await api.delete(one, { key: sendOnly }),
    ]) {
      expect(answer.status).toBe(404);
    }
    const read = await api.graphql(
      `query ($id: ID!, $draft: ID!) { agent(id: $id) { draft(id: $draft) { id } drafts { data { id } } } }`,
      { id: agent.id, draft: forward.body.id },
      sendOnly,
    );
    expect(read.body.errors[0]).toMatchObject({ extensions: { status: 404 } });
    const client = await connectMcp(svc.url, sendOnly);
    const tool = await callTool(client, "list_drafts", { agentId: agent.id });
    expect(tool.isError).toBe(false);
    expect(JSON.stringify(tool.body)).toContain(own.body.id);
    expect(JSON.stringify(tool.body)).not.toContain(forward.body.id);
    await client.close();
    // Untouched: the key that reads mail still has it, as it was.
    const kept = await api.get(one, { key: agent.apiKey });
    expect(kept.body).toMatchObject({ id: forward.body.id, sendStatus: "scheduled" });
    expect((await api.delete(one, { key: agent.apiKey })).status).toBe(200);
  });
});

describe("a child key never exceeds its parent", () => {
  test("no permission or later expiry beyond the key that makes it", async () => {
    const expiresAt = svc.clock.now().getTime() + 3_600_000;
    const parent = await keyWith(["read", "manage"], { expiresAt });
    const child = (body: Record<string, unknown>) => makeKey({ expiresAt, ...body }, parent);
    const more = await child({ permissions: ["read", "send"] });
    expect(more.status).toBe(403);
    expect(more.body.permission).toBe("send");
    expect((await child({ permissions: ["read"], expiresAt: expiresAt + 1 })).status).toBe(403);
    expect((await child({ permissions: ["read"], expiresAt: null })).status).toBe(403);
    const within = await child({ permissions: ["read"], expiresAt: expiresAt - 1 });
    expect(within.status).toBe(201);
    expect(within.body).toMatchObject({ permissions: ["read"], expiresAt: expiresAt - 1 });
    const noManage = await keyWith(["read"]);
    expect((await makeKey({ permissions: ["read"] }, noManage)).body.permission).toBe("manage");
  });

  test("only a key with every permission and no expiry rotates the primary key", async () => {
    const expiresAt = svc.clock.now().getTime() + 3_600_000;
    const limited = await keyWith(["read", "send", "manage", "events"], { expiresAt });
    const refused = await api.post(`/agents/${agent.id}/rotate-key`, { key: limited });
    expect(refused.status).toBe(403);
    expect(refused.body.permission).toBe("manage");
  });
});

describe("revocation and expiry", () => {
  test("a revoked key stops at once on every instance", async () => {
    const made = await makeKey({ permissions: ["read"] });
    const other = new Api((await svc.startAnother()).url);
    for (const client of [api, other]) {
      expect((await client.get(`/agents/${agent.id}/emails`, { key: made.body.key })).status).toBe(200);
    }
    const revoked = await api.delete(`${keysPath()}/${made.body.id}`, { key: agent.apiKey });
    expect(revoked.status).toBe(200);
    expect(revoked.body.success).toBe(true);
    for (const client of [api, other]) {
      const reply = await client.get(`/agents/${agent.id}/emails`, { key: made.body.key });
      expect(reply.status).toBe(401);
    }
    expect((await api.delete(`${keysPath()}/${made.body.id}`, { key: agent.apiKey })).status).toBe(404);
    expect((await api.delete(`${keysPath()}/primary`, { key: agent.apiKey })).status).toBe(400);
  });

  test("a revoked pod key stops at once on every instance", async () => {
    const podId = `pod-${agent.id}`.toLowerCase();
    const admin = { key: ADMIN_TOKEN };
    expect((await api.post("/admin/pods", { ...admin, body: { id: podId, name: "Pod" } })).status).toBe(201);
    const member = `member-${agent.id}`;
    expect((await api.post("/admin/agents", { ...admin, body: { id: member, name: "M", podId } })).status).toBe(201);
    const keys = `/admin/pods/${podId}/keys`;
    const manager = (await api.post(keys, { ...admin, body: { name: "m", permissions: ["manage"] } })).body;
    const made = (await api.post(keys, { ...admin, body: { name: "r", permissions: ["read"] } })).body;
    const other = new Api((await svc.startAnother()).url);
    for (const client of [api, other]) {
      expect((await client.get(`/agents/${member}/emails`, { key: made.key })).status).toBe(200);
    }
    const revoked = await api.delete(`/pods/${podId}/keys/${made.id}`, { key: manager.key });
    expect(revoked.status).toBe(200);
    for (const client of [api, other]) {
      expect((await client.get(`/agents/${member}/emails`, { key: made.key })).status).toBe(401);
    }
  });

  test("the operator lists an agent's and a pod's keys (never their secrets) and revokes them at once", async () => {
    const admin = { key: ADMIN_TOKEN };
    const made = (await makeKey({ permissions: ["read"] })).body;
    const listed = await api.get(`/admin/agents/${agent.id}/keys`, admin);
    expect(listed.body.data[0].id).toBe("primary");
    expect(listed.body.data).toContainEqual(
      expect.objectContaining({ id: made.id, name: made.name, permissions: ["read"] }),
    );
    expect(JSON.stringify(listed.body)).not.toContain(made.key);
    expect((await api.delete(`/admin/agents/${agent.id}/keys/${made.id}`, admin)).body).toMatchObject({
      success: true,
    });
    expect((await api.get(`/agents/${agent.id}/emails`, { key: made.key })).status).toBe(401);
    expect((await api.delete(`/admin/agents/${agent.id}/keys/${made.id}`, admin)).status).toBe(404);

    const podId = `opod-${agent.id}`.toLowerCase();
    await api.post("/admin/pods", { ...admin, body: { id: podId, name: "Pod" } });
    const podKey = (
      await api.post(`/admin/pods/${podId}/keys`, { ...admin, body: { name: "a", permissions: ["agents"] } })
    ).body;
    const podKeys = await api.get(`/admin/pods/${podId}/keys`, admin);
    expect(podKeys.body.data).toEqual([expect.objectContaining({ id: podKey.id, name: "a", permissions: ["agents"] })]);
    expect(JSON.stringify(podKeys.body)).not.toContain(podKey.key);
    expect((await api.get(`/pods/${podId}/agents`, { key: podKey.key })).status).toBe(200);
    expect((await api.delete(`/admin/pods/${podId}/keys/${podKey.id}`, admin)).status).toBe(200);
    expect((await api.get(`/pods/${podId}/agents`, { key: podKey.key })).status).toBe(401);
    expect((await api.get(`/admin/pods/nope-${podId}/keys`, admin)).status).toBe(404);
    expect((await api.get(`/admin/pods/${podId}/keys`, { key: agent.apiKey })).status).toBe(403);
  });

  test("an expired key is refused as an invalid one", async () => {
    const key = await keyWith(["read"], { expiresAt: svc.clock.now().getTime() + 60_000 });
    expect((await api.get(`/agents/${agent.id}/emails`, { key })).status).toBe(200);
    svc.clock.advance(60_000);
    const reply = await api.get(`/agents/${agent.id}/emails`, { key });
    expect(reply.status).toBe(401);
    expect(reply.body.message).toBe("API key is invalid");
  });

  test("another agent's key is no key of this agent's", async () => {
    const stranger = await createAgent(api);
    expect((await api.get(keysPath(), { key: stranger.apiKey })).status).toBe(403);
  });
});

describe("the primary key", () => {
  test("does everything, and makes a key with every permission", async () => {
    const all = await keyWith(["events", "manage", "send", "read"]);
    const listed = await api.get(keysPath(), { key: all });
    expect(listed.status).toBe(200);
    expect(listed.body.data.at(-1).permissions).toEqual(["read", "send", "manage", "events"]);
  });
});
