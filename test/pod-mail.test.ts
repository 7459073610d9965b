import { beforeAll, describe, expect, test } from "vitest";
import { createAgent, type TestAgent, uniqueId } from "./support/api.ts";
import { adminOf, makePodAgent, makePodKey } from "./support/pods.ts";
import { served } from "./support/served.ts";
import { waitFor } from "./support/wait.ts";

// A pod's mail over HTTP: a key of the pod with read lists and searches the
// mail of the pod's agents it reaches (GET /pods/{id}/emails and /search,
// GraphQL podEmails and podSearch), each email naming its agent; and a key
// barred from junk reads no mail in junk, by list, search or id.

const TOKEN = "admin-token-pod-mail-0123456789abcdef";

const { api } = served({ env: { ADMIN_TOKEN: TOKEN, MAIL_DOMAINS: "localhost", VERIFICATION_MODE: "none" } });

const admin = adminOf(api, TOKEN);

/** A pod of two agents (on localhost, where mail between agents is filed at once); an agent outside it. */
const pod = { id: "", agents: [] as TestAgent[], outsider: undefined as unknown as TestAgent };

/** A key of the pod the operator makes. */
const podKey = async (body: Record<string, unknown>) => (await makePodKey(admin, pod.id, body)).key;

/** Sends from one agent to another: the subject, filed at once. */
async function mail(from: TestAgent, to: TestAgent, subject: string) {
  const sent = await api.post(`/agents/${from.id}/send`, {
    key: from.apiKey,
    body: { to: `${to.id}@localhost`, subject, text: "Quarterly numbers." },
  });
  expect(sent.status).toBe(201);
}

type Listed = { agentId: string; subject: string; id: string };

const pairs = (data: Listed[]) => data.map((email) => [email.agentId, email.subject]).sort();

beforeAll(async () => {
  pod.id = uniqueId("pod");
  expect((await admin("POST", "/pods", { id: pod.id, name: "Mail team" })).status).toBe(201);
  for (const name of ["one", "two"]) pod.agents.push(await makePodAgent(admin, pod.id, name));
  pod.outsider = await createAgent(api);
  const [one, two] = pod.agents as [TestAgent, TestAgent];
  await mail(pod.outsider, one, "Budget for one");
  await mail(pod.outsider, two, "Budget for two");
  await mail(one, pod.outsider, "Budget for the outsider");
  await waitFor(async () => {
    const inbox = await api.get(`/agents/${pod.outsider.id}/emails`, { key: pod.outsider.apiKey });
    return inbox.body.total === 1;
  });
});

describe("happy", () => {
  test("a pod's key lists the mail of both agents, each naming its agent, and not the outsider's", async () => {
    const key = await podKey({ permissions: ["read"] });
    const listed = await waitFor(async () => {
      const reply = await api.get(`/pods/${pod.id}/emails`, { key });
      return reply.body.total >= 2 && reply.body.data.length >= 2 ? reply : null;
    });
    expect(listed.status).toBe(200);
    const [one, two] = pod.agents as [TestAgent, TestAgent];
    expect(pairs(listed.body.data)).toEqual([
      [one.id, "Budget for one"],
      [two.id, "Budget for two"],
    ]);
    expect(listed.body).toMatchObject({ total: 2, limit: 50, offset: 0 });
    const viaGraphql = await api.graphql(
      "query($p: ID!) { podEmails(podId: $p, limit: 1) { data { agentId subject } total limit } }",
      { p: pod.id },
      key,
    );
    expect(viaGraphql.body.data.podEmails).toMatchObject({
      total: 2,
      limit: 1,
      data: [{ subject: expect.any(String) }],
    });
  });

  test("a pod's key searches the mail of both agents; the outsider's is not found", async () => {
    const key = await podKey({ permissions: ["read"] });
    const found = await api.get(`/pods/${pod.id}/search?q=budget`, { key });
    expect(found.status).toBe(200);
    expect(pairs(found.body.data).map(([, subject]) => subject)).toEqual(["Budget for one", "Budget for two"]);
    const narrowed = await api.get(`/pods/${pod.id}/search?q=budget+-two`, { key });
    expect(pairs(narrowed.body.data).map(([, subject]) => subject)).toEqual(["Budget for one"]);
    expect((await api.get(`/pods/${pod.id}/search`, { key })).status).toBe(400);
    const viaGraphql = await api.graphql(
      'query($p: ID!) { podSearch(podId: $p, search: "outsider") { total } }',
      { p: pod.id },
      key,
    );
    expect(viaGraphql.body.data.podSearch.total).toBe(0);
  });

  test("a key limited to one agent lists and searches that agent's mail only", async () => {
    const [one] = pod.agents as [TestAgent];
    const key = await podKey({ permissions: ["read"], agents: [one.id] });
    const listed = await api.get(`/pods/${pod.id}/emails`, { key });
    expect(pairs(listed.body.data)).toEqual([[one.id, "Budget for one"]]);
    const found = await api.get(`/pods/${pod.id}/search?q=budget`, { key });
    expect(pairs(found.body.data)).toEqual([[one.id, "Budget for one"]]);
  });
});

describe("security", () => {
  test("reading a pod's mail needs read: 403 naming it, on REST and GraphQL", async () => {
    const key = await podKey({ permissions: ["send", "manage"] });
    for (const path of ["emails", "search?q=budget"]) {
      const refused = await api.get(`/pods/${pod.id}/${path}`, { key });
      expect([refused.status, refused.body.permission]).toEqual([403, "read"]);
    }
    const viaGraphql = await api.graphql("query($p: ID!) { podEmails(podId: $p) { total } }", { p: pod.id }, key);
    expect(viaGraphql.body.errors[0].extensions).toMatchObject({ status: 403, permission: "read" });
  });

  test("an agent's key, or another pod's, reads no pod's mail", async () => {
    const [one] = pod.agents as [TestAgent];
    expect((await api.get(`/pods/${pod.id}/emails`, { key: one.apiKey })).status).toBe(403);
    const other = uniqueId("pod");
    expect((await admin("POST", "/pods", { id: other, name: "Other" })).status).toBe(201);
    const otherKey = (await admin("POST", `/pods/${other}/keys`, { name: "k", permissions: ["read"] })).body.key;
    expect((await api.get(`/pods/${pod.id}/emails`, { key: otherKey })).status).toBe(403);
  });

  test("a key barred from junk does not see a junk email by list, search or id; its children are barred too", async () => {
    const [one] = pod.agents as [TestAgent, TestAgent];
    await mail(pod.outsider, one, "Prize waiting for you");
    const junk = await waitFor(async () => {
      const reply = await api.get(`/agents/${one.id}/emails?q=prize`, { key: one.apiKey });
      return (reply.body.data as Listed[])[0] ?? null;
    });
    const moved = await api.call("PATCH", `/agents/${one.id}/emails/${junk.id}`, {
      key: one.apiKey,
      body: { folder: "junk" },
    });
    expect(moved.body.folder).toBe("junk");

    const made = await admin("POST", `/pods/${pod.id}/keys`, {
      name: "no junk",
      permissions: ["read", "manage", "events"],
      hideJunk: true,
    });
    expect(made.body).toMatchObject({ hideJunk: true });
    const barred = made.body.key as string;
    const listedKeys = await api.get(`/pods/${pod.id}/keys`, { key: barred });
    expect(listedKeys.body.data.find((key: { id: string }) => key.id === made.body.id)).toMatchObject({
      hideJunk: true,
    });

    const ids = async (path: string, key: string) =>
      ((await api.get(path, { key })).body.data as Listed[]).map((email) => email.id);
    expect(await ids(`/pods/${pod.id}/emails`, barred)).not.toContain(junk.id);
    expect(await ids(`/pods/${pod.id}/search?q=prize`, barred)).toEqual([]);
    expect(await ids(`/pods/${pod.id}/emails?folder=junk`, barred)).toEqual([]);
    expect(await ids(`/agents/${one.id}/emails`, barred)).not.toContain(junk.id);
    expect(await ids(`/agents/${one.id}/emails?q=prize`, barred)).toEqual([]);
    const byId = await api.get(`/agents/${one.id}/emails/${junk.id}`, { key: barred });
    expect([byId.status, byId.body.message]).toEqual([404, "Email not found"]);
    const { threadId } = (await api.get(`/agents/${one.id}/emails/${junk.id}`, { key: one.apiKey })).body;
    expect((await api.get(`/agents/${one.id}/threads/${threadId}`, { key: barred })).status).toBe(404);
    const threads = (await api.get(`/agents/${one.id}/threads`, { key: barred })).body.data as { id: string }[];
    expect(threads.map((thread) => thread.id)).not.toContain(threadId);
    const changed = await api.call("PATCH", `/agents/${one.id}/emails/${junk.id}`, {
      key: barred,
      body: { folder: "inbox" },
    });
    expect(changed.status).toBe(404);
    const relabelled = await api.call("PATCH", `/agents/${one.id}/threads/${threadId}`, {
      key: barred,
      body: { addLabels: ["seen"] },
    });
    expect([relabelled.status, relabelled.body.message]).toEqual([404, "Thread not found"]);
    // A webhook hears of junk too: a barred key makes none, nor points one elsewhere.
    const hooks: [string, string][] = [
      ["POST", `/pods/${pod.id}/webhooks`],
      ["POST", `/agents/${one.id}/webhooks`],
      ["PATCH", `/agents/${one.id}/webhooks/any`],
      ["POST", `/agents/${one.id}/webhooks/any/rotate-secret`],
      ["POST", `/pods/${pod.id}/webhooks/any/rotate-secret`],
    ];
    for (const [method, path] of hooks) {
      const hooked = await api.call(method, path, { key: barred, body: { url: "https://hooks.example/junk" } });
      expect([hooked.status, hooked.body.permission], path).toEqual([403, "manage"]);
    }
    // A key that is not barred sees it.
    const open = await podKey({ permissions: ["read"] });
    expect(await ids(`/pods/${pod.id}/search?q=prize`, open)).toEqual([junk.id]);

    // An agent's own key may be barred too; a barred key makes barred keys only.
    const agentBarred = await api.post(`/agents/${one.id}/keys`, {
      key: one.apiKey,
      body: { name: "no junk", permissions: ["read", "manage"], hideJunk: true },
    });
    expect(agentBarred.body).toMatchObject({ hideJunk: true });
    const byAgentKey = await api.get(`/agents/${one.id}/emails/${junk.id}`, { key: agentBarred.body.key });
    expect(byAgentKey.status).toBe(404);
    const child = await api.post(`/agents/${one.id}/keys`, {
      key: agentBarred.body.key,
      body: { name: "sees junk", permissions: ["read"] },
    });
    expect([child.status, child.body.permission]).toEqual([403, "manage"]);
    const barredChild = await api.post(`/pods/${pod.id}/keys`, {
      key: barred,
      body: { name: "barred child", permissions: ["read"], hideJunk: true },
    });
    expect(barredChild.status).toBe(201);
  });

  test("a thread shows a key barred from junk its other messages only", async () => {
    const [, two] = pod.agents as [TestAgent, TestAgent];
    const subject = `Question ${uniqueId("q")}`;
    await mail(two, pod.outsider, subject);
    const asked = await waitFor(async () => {
      const reply = await api.get(`/agents/${pod.outsider.id}/emails?q=${encodeURIComponent(subject)}`, {
        key: pod.outsider.apiKey,
      });
      return (reply.body.data as Listed[])[0] ?? null;
    });
    const answered = await api.post(`/agents/${pod.outsider.id}/emails/${asked.id}/reply`, {
      key: pod.outsider.apiKey,
      body: { text: "Buy now." },
    });
    expect(answered.status).toBe(201);
    const answer = await waitFor(async () => {
      const reply = await api.get(`/agents/${two.id}/emails?q=${encodeURIComponent(subject)}`, { key: two.apiKey });
      return (reply.body.data as (Listed & { threadId: string })[])[0] ?? null;
    });
    await api.call("PATCH", `/agents/${two.id}/emails/${answer.id}`, { key: two.apiKey, body: { folder: "junk" } });
    const barred = await podKey({ permissions: ["read"], hideJunk: true });
    const query = `query($a: ID!, $t: ID!) {
      thread(agentId: $a, threadId: $t) { messageCount unreadCount messages { direction email { id } } }
    }`;
    const seen = await api.graphql(query, { a: two.id, t: answer.threadId }, barred);
    expect(seen.body.data.thread).toEqual({
      messageCount: 1,
      unreadCount: 0,
      messages: [{ direction: "sent", email: null }],
    });
    const whole = await api.graphql(query, { a: two.id, t: answer.threadId }, two.apiKey);
    expect(whole.body.data.thread.messageCount).toBe(2);
  });
});
