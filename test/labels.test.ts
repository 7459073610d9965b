import { beforeAll, describe, expect, test } from "vitest";
import { createAgent, type TestAgent } from "./support/api.ts";
import { callTool, connectMcp } from "./support/mcp.ts";
import { served } from "./support/served.ts";

// Labels on emails and threads through every door: REST's PATCH and the
// labels on every read, GraphQL's typed fields, MCP's tools; label and
// -label on lists, searches, thread lists and waits; email.updated saying
// which labels came and went; the 400 a bad label gets.

const { svc, api } = served({ env: { MAIL_DOMAIN: "localhost", VERIFICATION_MODE: "none" } });

let agent: TestAgent;
/** The received emails' ids by subject. */
const ids: Record<string, string> = {};

const key = () => ({ key: agent.apiKey });
const emails = (query = "") => api.get(`/agents/${agent.id}/emails${query}`, key());
const subjects = async (query: string) =>
  ((await emails(query)).body.data as { subject: string }[]).map((email) => email.subject);
const patchEmail = (subject: string, body: unknown) =>
  api.call("PATCH", `/agents/${agent.id}/emails/${ids[subject]}`, { ...key(), body });

beforeAll(async () => {
  agent = await createAgent(api);
  const sender = await createAgent(api);
  for (const subject of ["Invoice one", "Invoice two", "Hello"]) {
    const sent = await api.post(`/agents/${sender.id}/send`, {
      key: sender.apiKey,
      body: { to: `${agent.id}@localhost`, subject, text: `About ${subject}.` },
    });
    expect(sent.status).toBe(201);
  }
  for (const email of (await emails()).body.data) ids[email.subject] = email.id;
});

describe("REST", () => {
  test("PATCH adds and removes labels, without case and idempotently; every read shows them", async () => {
    const added = await patchEmail("Invoice one", { addLabels: ["Billing", "todo", "billing"] });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({ id: ids["Invoice one"], folder: "inbox", labels: ["billing", "todo"] });
    const changed = await patchEmail("Invoice one", { removeLabels: ["TODO", "absent"], addLabels: ["billing"] });
    expect(changed.body.labels).toEqual(["billing"]);
    const read = await api.get(`/agents/${agent.id}/emails/${ids["Invoice one"]}`, key());
    expect(read.body.labels).toEqual(["billing"]);
    const listed = (await emails()).body.data as { subject: string; labels: string[] }[];
    expect(listed.find((email) => email.subject === "Hello")?.labels).toEqual([]);
  });

  test("a PATCH may move, mark and label at once; the batch labels several", async () => {
    const both = await patchEmail("Invoice two", { addLabels: ["billing", "paid"], isRead: true });
    expect(both.body).toMatchObject({ isRead: true, labels: ["billing", "paid"] });
    const batch = await api.post(`/agents/${agent.id}/emails/batch`, {
      ...key(),
      body: { emailIds: [ids["Invoice two"], ids.Hello], addLabels: ["seen"] },
    });
    expect(batch.body).toEqual({ updated: 2 });
  });

  test("lists and searches take label, -label and several at once (comma-separated)", async () => {
    expect(await subjects("?label=Billing")).toEqual(["Invoice two", "Invoice one"]);
    expect(await subjects("?label=-billing")).toEqual(["Hello"]);
    expect(await subjects("?label=billing,-paid")).toEqual(["Invoice one"]);
    expect(await subjects("?q=invoice&label=paid")).toEqual(["Invoice two"]);
    expect((await emails("?label=nothing")).body).toMatchObject({ data: [], total: 0 });
  });

  test.each([
    [{ addLabels: ["-x"] }, 'Invalid label "-x": a label may not start with "-", which excludes it in a filter'],
    [{ addLabels: ["a,b"] }, 'Invalid label "a,b": a label may not hold commas or control characters'],
    [{ addLabels: [""] }, 'Invalid label "": a label is 1-64 characters'],
    [{ addLabels: ["x".repeat(65)] }, "a label is 1-64 characters"],
    [{ addLabels: ["a"], removeLabels: ["A"] }, 'Label "a" is both added and removed'],
    [{ addLabels: Array.from({ length: 21 }, (_, n) => `l${n}`) }, "An email carries at most 20 labels"],
    [{ addLabels: [7] }, "addLabels"],
    [{}, "Give folder, isRead, addLabels or removeLabels"],
  ])("400 for %j", async (body, message) => {
    const reply = await patchEmail("Hello", body);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: "Bad Request", statusCode: 400, message: expect.stringContaining(message) });
  });

  test("a filter with a bad label is refused with 400", async () => {
    const reply = await emails("?label=--x");
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain('may not start with "-"');
  });

  test("threads carry their own labels, and their lists take label and -label", async () => {
    const { threadId } = (await api.get(`/agents/${agent.id}/emails/${ids.Hello}`, key())).body;
    const path = `/agents/${agent.id}/threads/${threadId}`;
    const patched = await api.call("PATCH", path, { ...key(), body: { addLabels: ["Project"] } });
    expect(patched.status).toBe(200);
    expect(patched.body).toMatchObject({ id: threadId, subject: "Hello", labels: ["project"] });
    const read = await api.get(path, key());
    expect(read.body.labels).toEqual(["project"]);
    // The thread's message keeps its own labels: a thread's are not its messages'.
    expect(read.body.messages[0].labels).toEqual(["seen"]);
    const threads = (query: string) => api.get(`/agents/${agent.id}/threads${query}`, key());
    const labelled = await threads("?label=project");
    expect(labelled.body.data.map((thread: { id: string }) => thread.id)).toEqual([threadId]);
    expect((await threads("?label=billing")).body.total).toBe(0);
    expect((await threads("?label=-project")).body.total).toBe(2);
    expect((await threads("")).body.data.every((thread: { labels: unknown }) => Array.isArray(thread.labels))).toBe(
      true,
    );
    const unknown = await api.call("PATCH", `/agents/${agent.id}/threads/nope`, {
      ...key(),
      body: { addLabels: ["x"] },
    });
    expect(unknown.status).toBe(404);
    const empty = await api.call("PATCH", path, { ...key(), body: {} });
    expect(empty.status).toBe(400);
    expect(empty.body.message).toBe("Give addLabels or removeLabels");
  });

  test("a wait with label answers the mail labelled so", async () => {
    const after = 0;
    const wait = await api.get(`/agents/${agent.id}/emails/wait?after=${after}&label=paid&timeout=0`, key());
    expect(wait.status).toBe(200);
    expect(wait.body.subject).toBe("Invoice two");
    const none = await api.get(`/agents/${agent.id}/emails/wait?after=${after}&label=never&timeout=0`, key());
    expect(none.status).toBe(204);
  });

  test("email.updated says which labels came and went, beside the folder and read flag", async () => {
    const { nextAfter } = (await api.get(`/agents/${agent.id}/events?limit=100&types=email.received`, key())).body;
    expect(nextAfter).toBeDefined();
    const before = (await api.get(`/agents/${agent.id}/events?limit=100`, key())).body.nextAfter;
    await patchEmail("Hello", { addLabels: ["urgent"], removeLabels: ["seen"] });
    await patchEmail("Hello", { addLabels: ["urgent"] });
    const { data } = (await api.get(`/agents/${agent.id}/events?after=${before}&types=email.updated`, key())).body;
    expect(data.map((event: { data: unknown }) => event.data)).toEqual([
      {
        emailId: ids.Hello,
        folder: "inbox",
        isRead: false,
        labels: { added: ["urgent"], removed: ["seen"] },
      },
    ]);
  });

  test("a read of events takes label: events about mail that carries it", async () => {
    const read = async (query: string) => {
      const reply = await api.get(`/agents/${agent.id}/events?limit=100&${query}`, key());
      expect(reply.status).toBe(200);
      return reply.body.data.map((event: { type: string; data: { emailId?: string } }) => event.data.emailId);
    };
    const urgent = await read("label=urgent&types=email.received");
    expect(urgent).toEqual([ids.Hello]);
    expect(await read("label=-urgent,billing&types=email.received")).toEqual([ids["Invoice one"], ids["Invoice two"]]);
    const refused = await api.get(`/agents/${agent.id}/events?label=a,,b`, key());
    expect(refused.status).toBe(400);
    expect(refused.body.message).toContain("a label is 1-64 characters");
  });
});

describe("GraphQL", () => {
  test("updateEmail and updateThread label; emails, threads and waits filter by label", async () => {
    const labelled = await api.graphql(
      `mutation($agentId: ID!, $emailId: ID!) {
        updateEmail(agentId: $agentId, emailId: $emailId, addLabels: ["GraphQL"]) { id labels }
      }`,
      { agentId: agent.id, emailId: ids["Invoice one"] },
      agent.apiKey,
    );
    expect(labelled.body.data.updateEmail.labels).toEqual(["billing", "graphql"]);
    const read = await api.graphql(
      `query($agentId: ID!) {
        agent(id: $agentId) {
          emails(label: ["graphql"]) { total data { subject labels thread { id labels } } }
          without: emails(label: ["-graphql", "-paid"]) { data { subject } }
          threads(label: ["project"]) { total data { subject labels } }
          emailConnection(first: 5, label: ["billing"]) { edges { node { subject } } }
        }
        waitForEmail(agentId: $agentId, filter: { label: ["graphql"], after: 0 }, timeoutSeconds: 0) { subject }
        agentEvents(agentId: $agentId, types: ["email.received"], label: ["graphql"]) { data { data } }
      }`,
      { agentId: agent.id },
      agent.apiKey,
    );
    expect(read.body.errors).toBeUndefined();
    const { agent: found, waitForEmail } = read.body.data;
    expect(found.emails).toMatchObject({
      total: 1,
      data: [{ subject: "Invoice one", labels: ["billing", "graphql"] }],
    });
    expect(found.emails.data[0].thread.labels).toEqual([]);
    expect(found.without.data.map((email: { subject: string }) => email.subject)).toEqual(["Hello"]);
    expect(found.threads).toEqual({ total: 1, data: [{ subject: "Hello", labels: ["project"] }] });
    expect(found.emailConnection.edges.map((edge: { node: { subject: string } }) => edge.node.subject)).toEqual([
      "Invoice two",
      "Invoice one",
    ]);
    expect(waitForEmail).toEqual({ subject: "Invoice one" });
    expect(read.body.data.agentEvents.data).toEqual([
      { data: expect.objectContaining({ emailId: ids["Invoice one"] }) },
    ]);
  });

  test("a bad label is a GraphQL error; another agent's key is refused", async () => {
    const bad = await api.graphql(
      `mutation($agentId: ID!, $emailId: ID!) {
        updateEmail(agentId: $agentId, emailId: $emailId, addLabels: ["a,b"]) { id }
      }`,
      { agentId: agent.id, emailId: ids.Hello },
      agent.apiKey,
    );
    expect(bad.body.errors[0].message).toContain("may not hold commas");
    const stranger = await createAgent(api);
    const refused = await api.graphql(
      `mutation($agentId: ID!, $threadId: ID!) {
        updateThread(agentId: $agentId, threadId: $threadId, addLabels: ["x"]) { id }
      }`,
      { agentId: agent.id, threadId: "anything" },
      stranger.apiKey,
    );
    expect(refused.body.errors[0].extensions.code).toBe("FORBIDDEN");
  });
});

describe("MCP", () => {
  test("label_email and label_thread label; list_emails and list_threads list by label", async () => {
    const client = await connectMcp(svc.url, agent.apiKey);
    try {
      const { tools } = await client.listTools();
      const names = tools.map((tool) => tool.name);
      expect(names).toEqual(expect.arrayContaining(["label_email", "label_thread", "list_emails", "list_threads"]));
      const labelled = await callTool(client, "label_email", { emailId: ids.Hello, addLabels: ["mcp"] });
      expect(labelled.isError).toBe(false);
      expect(labelled.body.labels).toEqual(expect.arrayContaining(["mcp"]));
      const listed = await callTool(client, "list_emails", { label: ["mcp"] });
      expect(listed.body.data.map((email: { subject: string }) => email.subject)).toEqual(["Hello"]);
      const thread = await callTool(client, "label_thread", {
        threadId: labelled.body.threadId,
        removeLabels: ["project"],
        addLabels: ["mcp-thread"],
      });
      expect(thread.body.labels).toEqual(["mcp-thread"]);
      const threads = await callTool(client, "list_threads", { label: ["mcp-thread"] });
      expect(threads.body.total).toBe(1);
      const refused = await callTool(client, "label_email", { emailId: ids.Hello, addLabels: ["-no"] });
      expect(refused.isError).toBe(true);
      expect(refused.body.message).toContain('may not start with "-"');
    } finally {
      await client.close();
    }
  });
});
