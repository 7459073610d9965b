import { randomUUID } from "node:crypto";
import { beforeAll, describe, expect, test } from "vitest";
import { createVerifiedAgent, type Reply, type TestAgent } from "./support/api.ts";
import { inboxOf } from "./support/inbox.ts";
import { messageId, rawMessage } from "./support/mail.ts";
import { served } from "./support/served.ts";
import { waitFor } from "./support/wait.ts";

// How many statements a read sends to the database, counted where they leave
// (Prisma's driver adapter and our own statements, for the request's log
// line): a nested selection is loaded with its parent, so the count does not
// grow with the page.

let agent: TestAgent;
let emailId: string;
let threadId: string;

const DOMAIN = "mail.example";

/** A message from outside with a small attachment; every other one answers the one before. */
function withAttachment(n: number, id: string, parent: string | null): string {
  return rawMessage({
    to: `${agent.id}@${DOMAIN}`,
    id,
    subject: `Thread ${Math.floor(n / 2)}`,
    headers: parent ? [`In-Reply-To: ${parent}`, `References: ${parent}`] : [],
    contentType: 'multipart/mixed; boundary="b"',
    body: [
      "--b",
      "Content-Type: text/plain",
      "",
      `Message ${n}`,
      "--b",
      'Content-Type: text/plain; name="n.txt"',
      'Content-Disposition: attachment; filename="n.txt"',
      "",
      `part ${n}`,
      "--b--",
    ].join("\r\n"),
  });
}

const ADMIN_TOKEN = "admin-token-statements-0123456789";
const { svc, api, x, dovecot } = served({
  imap: true,
  smtp: true,
  env: { DAILY_SEND_LIMIT: "100", ADMIN_TOKEN },
});

beforeAll(async () => {
  agent = await createVerifiedAgent(api, x);
  const ids = Array.from({ length: 60 }, messageId);
  await dovecot.append(ids.map((id, n) => withAttachment(n, id, n % 2 ? (ids[n - 1] as string) : null)));
  const inbox = (await inboxOf(api, agent, 60, 30_000)).body.data;
  emailId = inbox[0].id;
  threadId = inbox[0].threadId;
  for (const email of inbox.slice(0, 55)) {
    const reply = await api.post(`/agents/${agent.id}/emails/${email.id}/reply`, {
      key: agent.apiKey,
      body: { text: "Noted." },
    });
    expect(reply.status).toBe(201);
  }
}, 120_000);

/** The statements one request sent, from its log line; it must have answered in full. */
async function statementsOf(send: (headers: Record<string, string>) => Promise<Reply>) {
  const requestId = randomUUID();
  const reply = await send({ "x-request-id": requestId });
  expect(reply.status).toBe(200);
  expect(reply.body.errors).toBeUndefined();
  const line = await waitFor(() =>
    svc.logs.find((entry) => entry.event === "request" && entry.fields.requestId === requestId),
  );
  return line?.fields.statements as number;
}

const graphql = (query: string, size: number) =>
  statementsOf((headers) =>
    api.post("/graphql", {
      key: agent.apiKey,
      headers,
      body: { query, variables: { id: agent.id, n: size } },
    }),
  );
const rest = (path: (size: number) => string, size: number) =>
  statementsOf((headers) => api.get(path(size), { key: agent.apiKey, headers }));

const QUERIES: Record<string, string> = {
  emails: `query($id: ID!, $n: Int) { agent(id: $id) { emails(limit: $n) { data { id attachments { id }
    thread { messages { email { id attachments { id } } } } } } } }`,
  emailConnection: `query($id: ID!, $n: Int) { agent(id: $id) { emailConnection(first: $n) { edges { node { id
    attachments { id } thread { messages { email { id } sent { id } } } } } } } }`,
  threads: `query($id: ID!, $n: Int) { agent(id: $id) { threads(limit: $n) { data { id participants
    messages { email { id } sent { id } } } } } }`,
  threadConnection: `query($id: ID!, $n: Int) { agent(id: $id) { threadConnection(first: $n) { edges { node { id
    messages { email { id } sent { id } } } } } } }`,
  sent: `query($id: ID!, $n: Int) { agent(id: $id) { sent(limit: $n) { data { id to thread { id subject } } } } }`,
  sentConnection: `query($id: ID!, $n: Int) { agent(id: $id) { sentConnection(first: $n) { edges { node { id
    thread { id } } } } } }`,
};

const ROUTES: Record<string, (size: number) => string> = {
  "GET …/emails": (n) => `/agents/${agent.id}/emails?limit=${n}`,
  "GET …/emails/{id}": () => `/agents/${agent.id}/emails/${emailId}`,
  "GET …/sent": (n) => `/agents/${agent.id}/sent?limit=${n}`,
  "GET …/threads": (n) => `/agents/${agent.id}/threads?limit=${n}`,
  "GET …/threads/{id}": () => `/agents/${agent.id}/threads/${threadId}`,
};

describe("statements per request", () => {
  test.each(Object.keys(QUERIES))("GraphQL %s: the same at 5 as at 50, at most 10", async (name) => {
    const [few, many] = [await graphql(QUERIES[name] as string, 5), await graphql(QUERIES[name] as string, 50)];
    expect(many).toBe(few);
    expect(many).toBeLessThanOrEqual(10);
  });

  test.each(Object.keys(ROUTES))("REST %s: the same at 5 as at 50, at most 10", async (name) => {
    const route = ROUTES[name] as (size: number) => string;
    const [few, many] = [await rest(route, 5), await rest(route, 50)];
    expect(many).toBe(few);
    expect(many).toBeLessThanOrEqual(10);
  });
});

describe("a relation beneath a thread's messages", () => {
  // The messages are the thread's rows handed on through a type of their own: the relation below them must
  // come with the page, as it does anywhere else, not be read again row by row (as graphql-jit would make
  // the Prisma plugin do).
  const SHAPES: Record<string, (beneath: string) => string> = {
    threads: (beneath) => `query($id: ID!, $n: Int) { agent(id: $id) { threads(limit: $n) {
      data { id messages { email { id ${beneath} } } } } } }`,
    "threads through a fragment": (beneath) => `query($id: ID!, $n: Int) { agent(id: $id) { threads(limit: $n) {
      data { ...Thread } } } } fragment Thread on Thread { id messages { email { id ${beneath} } } }`,
    "emails' threads": (beneath) => `query($id: ID!, $n: Int) { agent(id: $id) { emails(limit: $n) {
      data { id thread { messages { email { id ${beneath} } } } } } } }`,
  };
  const cases = Object.keys(SHAPES).flatMap((name) => [5, 50].map((size) => [name, size] as const));

  test.each(cases)("%s: one statement more, at %i as at any page size", async (name, size) => {
    const shape = SHAPES[name] as (beneath: string) => string;
    expect(await graphql(shape("attachments { id }"), size)).toBe((await graphql(shape(""), size)) + 1);
  });
});

describe("a key of the agent's own", () => {
  test("is found by the one statement the primary key is: a read sends as many with either", async () => {
    const made = await api.post(`/agents/${agent.id}/keys`, {
      key: agent.apiKey,
      body: { name: "reader", permissions: ["read"] },
    });
    expect(made.status).toBe(201);
    const read = (key: string) =>
      statementsOf((headers) => api.get(`/agents/${agent.id}/emails/${emailId}`, { key, headers }));
    const primary = await read(agent.apiKey);
    expect(await read(made.body.key)).toBe(primary);
  });
});

describe("a key of the agent's pod", () => {
  test("is found by the same one statement; the agent it names is one more read", async () => {
    const admin = { key: ADMIN_TOKEN };
    const podId = `pod-${randomUUID().slice(0, 8)}`;
    expect((await api.post("/admin/pods", { ...admin, body: { id: podId, name: "Pod" } })).status).toBe(201);
    const member = await api.post("/admin/agents", { ...admin, body: { id: `m-${podId}`, name: "M", podId } });
    const podKey = await api.post(`/admin/pods/${podId}/keys`, {
      ...admin,
      body: { name: "r", permissions: ["read"] },
    });
    const list = (key: string) =>
      statementsOf((headers) => api.get(`/agents/${member.body.agent.id}/emails`, { key, headers }));
    expect(await list(podKey.body.key)).toBe((await list(member.body.apiKey)) + 1);
  });
});

describe("an agent's webhooks", () => {
  const query = `query($id: ID!) { agent(id: $id) { id webhooks { id url events } } }`;
  const addWebhooks = async (count: number) => {
    for (let n = 0; n < count; n++) {
      const created = await api.post(`/agents/${agent.id}/webhooks`, {
        key: agent.apiKey,
        body: { url: `https://hooks.example/${randomUUID()}`, events: ["email.received"] },
      });
      expect(created.status).toBe(201);
    }
  };

  test("are loaded with the agent: the same for 2 as for 8", async () => {
    await addWebhooks(2);
    const few = await graphql(query, 0);
    await addWebhooks(6);
    const many = await graphql(query, 0);
    expect(many).toBe(few);
    // The key, then the agent with its webhooks: Prisma reads a relation in a query of its own.
    expect(many).toBe(3);
  });
});

describe("attachments' contents", () => {
  /** A message from outside with `count` small attachments. */
  const withAttachments = (to: TestAgent, count: number) =>
    rawMessage({
      to: `${to.id}@${DOMAIN}`,
      id: messageId(),
      subject: `${count} files`,
      contentType: 'multipart/mixed; boundary="b"',
      body: [
        ...["--b", "Content-Type: text/plain", "", "Files attached."],
        ...Array.from({ length: count }, (_, n) => [
          "--b",
          `Content-Type: text/plain; name="f${n}.txt"`,
          `Content-Disposition: attachment; filename="f${n}.txt"`,
          "",
          `file ${n}`,
        ]).flat(),
        "--b--",
      ].join("\r\n"),
    });

  test("an email's message is read once however many of its attachments' contents a query asks for", async () => {
    const holder = await createVerifiedAgent(api, x);
    await dovecot.append([withAttachments(holder, 1), withAttachments(holder, 4)]);
    const inbox = (await inboxOf(api, holder, 2, 30_000)).body.data;
    const emailWith = (count: number) => inbox.find((email: { subject: string }) => email.subject === `${count} files`);
    const contents = (email: { id: string }) =>
      statementsOf((headers) =>
        api.post("/graphql", {
          key: holder.apiKey,
          headers,
          body: {
            query: `query($a: ID!, $e: ID!) { email(agentId: $a, emailId: $e) { attachments { content } } }`,
            variables: { a: holder.id, e: email.id },
          },
        }),
      );
    expect(await contents(emailWith(4))).toBe(await contents(emailWith(1)));
  });
});
