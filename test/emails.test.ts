import { describe, expect, test } from "vitest";
import { Api, createAgent, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { inboxOf } from "./support/inbox.ts";
import { rawMessage } from "./support/mail.ts";
import { served } from "./support/served.ts";
import { startTestService } from "./support/service.ts";
import { waitFor } from "./support/wait.ts";

const { api, x, dovecot } = served({ imap: true });

interface Email {
  id: string;
  subject: string;
  folder: string;
  isRead: boolean;
  receivedAt: number;
}

/** A verified agent with n messages in its inbox, subjects m0 … m(n-1). */
async function agentWithMail(n: number): Promise<{ agent: TestAgent; emails: Email[] }> {
  const agent = await createVerifiedAgent(api, x);
  await dovecot.append(
    Array.from({ length: n }, (_, i) => rawMessage({ to: `${agent.id}@mail.example`, subject: `m${i}` })),
  );
  const emails: Email[] = [...(await inboxOf(api, agent, n)).body.data];
  if (n > 100) {
    const rest = await api.get(`/agents/${agent.id}/emails?limit=100&offset=100`, { key: agent.apiKey });
    emails.push(...rest.body.data);
  }
  return { agent, emails };
}

const path = (agent: TestAgent, rest = "") => `/agents/${agent.id}/emails${rest}`;

describe("GET /agents/{agentId}/emails", () => {
  test("pages newest first with stable order, total and limit as used", async () => {
    const { agent } = await agentWithMail(23);
    const all = await api.get(path(agent), { key: agent.apiKey });
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual(["data", "total", "limit", "offset"]);
    expect(all.body).toMatchObject({ total: 23, limit: 50, offset: 0 });
    const order = all.body.data.map((e: Email) => e.id);
    for (let i = 1; i < all.body.data.length; i++) {
      expect(all.body.data[i - 1].receivedAt).toBeGreaterThanOrEqual(all.body.data[i].receivedAt);
    }
    const paged: string[] = [];
    for (let offset = 0; ; offset += 7) {
      const page = await api.get(path(agent, `?limit=7&offset=${offset}`), { key: agent.apiKey });
      expect(page.body).toMatchObject({ total: 23, limit: 7, offset });
      paged.push(...page.body.data.map((e: Email) => e.id));
      if (page.body.data.length < 7) break;
    }
    expect(paged).toEqual(order);
    const beyond = await api.get(path(agent, "?offset=500"), { key: agent.apiKey });
    expect(beyond.body).toMatchObject({ data: [], total: 23, offset: 500 });
  });

  test("a limit above 100 is clamped to 100", async () => {
    const { agent } = await agentWithMail(101);
    const reply = await api.get(path(agent, "?limit=1000"), { key: agent.apiKey });
    expect(reply.body.limit).toBe(100);
    expect(reply.body.data).toHaveLength(100);
    expect(reply.body.total).toBe(101);
  });

  test.each([
    ["limit=0", "limit"],
    ["limit=-3", "limit"],
    ["limit=abc", "limit"],
    ["limit=1.5", "limit"],
    ["offset=-1", "offset"],
    ["offset=ten", "offset"],
    ["folder=a%2Fb", "folder"],
    ["folder=", "folder"],
  ])("400 for %s", async (query, field) => {
    const agent = await createVerifiedAgent(api, x);
    const reply = await api.get(path(agent, `?${query}`), { key: agent.apiKey });
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: "Bad Request", statusCode: 400, message: expect.stringContaining(field) });
  });

  test("401 without a key, 403 NOT_VERIFIED unverified, 403 for another agent, 404 for none", async () => {
    const unverified = await createAgent(api);
    const other = await createVerifiedAgent(api, x);
    expect((await api.get(path(other))).status).toBe(401);
    const notVerified = await api.get(path(unverified), { key: unverified.apiKey });
    expect(notVerified.status).toBe(403);
    expect(notVerified.body.code).toBe("NOT_VERIFIED");
    const mine = await createVerifiedAgent(api, x);
    const foreign = await api.get(path(other), { key: mine.apiKey });
    expect(foreign.status).toBe(403);
    expect(foreign.body).not.toHaveProperty("data");
    expect((await api.get("/agents/nobody-here/emails", { key: mine.apiKey })).status).toBe(404);
  });
});

describe("one email", () => {
  test("GET returns it; another agent's email id and an unknown id are 404", async () => {
    const { agent, emails } = await agentWithMail(1);
    const [email] = emails as [Email];
    const reply = await api.get(path(agent, `/${email.id}`), { key: agent.apiKey });
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual(emails[0]);
    const other = await createVerifiedAgent(api, x);
    const foreign = await api.get(path(other, `/${email.id}`), { key: other.apiKey });
    expect(foreign.status).toBe(404);
    expect(foreign.body).toEqual({ error: "Not Found", statusCode: 404, message: "Email not found" });
    expect((await api.get(path(agent, "/no-such-email"), { key: agent.apiKey })).status).toBe(404);
    const patch = await api.call("PATCH", path(other, `/${email.id}`), { key: other.apiKey, body: { isRead: true } });
    expect(patch.status).toBe(404);
    expect((await api.delete(path(other, `/${email.id}`), { key: other.apiKey })).status).toBe(404);
    expect((await api.get(path(agent, `/${email.id}`), { key: agent.apiKey })).body.isRead).toBe(false);
  });

  test("PATCH moves between any folders, sets the read flag, and trash goes back to inbox", async () => {
    const { agent, emails } = await agentWithMail(1);
    const url = path(agent, `/${emails[0]?.id}`);
    const patch = (body: unknown) => api.call("PATCH", url, { key: agent.apiKey, body });
    const steps: [unknown, Partial<Email>][] = [
      [{ folder: "archive" }, { folder: "archive", isRead: false }],
      [{ isRead: true }, { folder: "archive", isRead: true }],
      [{ folder: "Projects 2026 ✈" }, { folder: "Projects 2026 ✈" }],
      [
        { folder: "TRASH", isRead: false },
        { folder: "trash", isRead: false },
      ],
      [{ folder: "Inbox" }, { folder: "inbox" }],
    ];
    for (const [body, expected] of steps) {
      const reply = await patch(body);
      expect(reply.status).toBe(200);
      expect(reply.body).toMatchObject({ id: emails[0]?.id, ...expected });
    }
    const inbox = await api.get(path(agent, "?folder=INBOX"), { key: agent.apiKey });
    expect(inbox.body.total).toBe(1);
  });

  test.each([
    [{}, "folder, isRead"],
    [{ folder: null, isRead: null }, "folder, isRead"],
    [{ folder: "a/b" }, "folder"],
    [{ folder: "" }, "folder"],
    [{ folder: "   " }, "folder"],
    [{ folder: "x".repeat(65) }, "folder"],
    [{ folder: "tab\there" }, "folder"],
    [{ folder: "line\u2028separator" }, "folder"],
    [{ folder: "zero\u200bwidth" }, "folder"],
    [{ folder: 5 }, "folder"],
    [{ isRead: "yes" }, "isRead"],
    [{ folder: "\u0456nbox" }, "passes for inbox"],
    [{ folder: "ARCH\u0406VE" }, "passes for archive"],
    [{ folder: "tr\u0430sh" }, "passes for trash"],
    [{ folder: "\u0442rash" }, "passes for trash"],
    [{ folder: "inb0x" }, "passes for inbox"],
    [{ folder: "lnbox" }, "passes for inbox"],
    [{ folder: "Inbóx" }, "passes for inbox"],
    [{ folder: "in box" }, "passes for inbox"],
  ])("PATCH %j is a bad request", async (body, field) => {
    const { agent, emails } = await agentWithMail(1);
    const reply = await api.call("PATCH", path(agent, `/${emails[0]?.id}`), { key: agent.apiKey, body });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain(field);
  });

  test("custom folder names compare without case, spelled as first given; an unknown folder is a 404 naming those there are", async () => {
    const { agent, emails } = await agentWithMail(4);
    const move = (email: Email | undefined, folder: string) =>
      api.call("PATCH", path(agent, `/${email?.id}`), { key: agent.apiKey, body: { folder } });
    expect((await move(emails[0], "Projects")).body.folder).toBe("Projects");
    expect((await move(emails[1], "projects")).body.folder).toBe("Projects");
    // Two moves at once to a new folder, spelled two ways: one spelling wins for both.
    const [a, b] = await Promise.all([move(emails[2], "Travel"), move(emails[3], "TRAVEL")]);
    expect(a.body.folder).toBe(b.body.folder);
    for (const spelling of ["projects", "PROJECTS", "Projects"]) {
      const listed = await api.get(path(agent, `?folder=${spelling}`), { key: agent.apiKey });
      expect([listed.status, listed.body.total], spelling).toEqual([200, 2]);
    }
    const searched = await api.get(path(agent, `?folder=projects&q=${emails[0]?.subject}`), { key: agent.apiKey });
    expect(searched.body.total).toBe(1);
    const folders = await api.graphql(
      `query($id: ID!) { agent(id: $id) { folders { name total } } }`,
      { id: agent.id },
      agent.apiKey,
    );
    expect(
      folders.body.data.agent.folders.filter(
        (f: { name: string }) => !["inbox", "archive", "trash", "junk"].includes(f.name),
      ),
    ).toEqual([
      { name: "Projects", total: 2 },
      { name: a.body.folder, total: 2 },
    ]);
    const unknown = await api.get(path(agent, "?folder=nosuchfolder"), { key: agent.apiKey });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe(
      `Folder nosuchfolder not found: the folders are inbox, archive, trash, junk, Projects, ${a.body.folder}`,
    );
    // The three system folders are there when empty.
    expect((await api.get(path(agent, "?folder=archive"), { key: agent.apiKey })).body.total).toBe(0);
  });

  test("a REST error names the REST parameter, and a limit is refused in one wording", async () => {
    const agent = await createVerifiedAgent(api, x);
    const after = await api.get(path(agent, "?after=yesterday"), { key: agent.apiKey });
    expect(after.body.message).toBe("Invalid after: expected a time in milliseconds");
    const wait = await api.get(path(agent, "/wait?timeout=soon"), { key: agent.apiKey });
    expect(wait.body.message).toBe("Invalid timeout: expected an integer from 0 to 25");
    const search = await api.get(path(agent, `?q=${"x".repeat(600)}`), { key: agent.apiKey });
    expect(search.body.message).toMatch(/^q must be at most/);
    for (const limit of ["0", "abc", "1.5"]) {
      expect((await api.get(path(agent, `?limit=${limit}`), { key: agent.apiKey })).body.message).toBe(
        "Invalid limit: expected an integer of at least 1",
      );
    }
  });

  test("custom folder names are kept in NFKC; full-width system names are the system folders", async () => {
    const { agent, emails } = await agentWithMail(1);
    const url = path(agent, `/${emails[0]?.id}`);
    const patch = (folder: string) => api.call("PATCH", url, { key: agent.apiKey, body: { folder } });
    expect((await patch("\uff49\uff4e\uff42\uff4f\uff58")).body.folder).toBe("inbox");
    expect((await patch("Cafe\u0301 \ufb01les")).body.folder).toBe("Caf\u00e9 files");
    const listed = await api.get(path(agent, `?folder=${encodeURIComponent("Café files")}`), { key: agent.apiKey });
    expect(listed.body.total).toBe(1);
    expect((await patch("Инбокс")).body.folder).toBe("Инбокс");
  });

  test("DELETE moves to trash, deletes from trash for good, and frees storage only then", async () => {
    const { agent, emails } = await agentWithMail(2);
    const [first, second] = emails as [Email, Email];
    const storage = async () => (await api.get(`/agents/${agent.id}`, { key: agent.apiKey })).body.storageUsed;
    const full = await storage();
    expect(full).toBeGreaterThan(0);
    const trashed = await api.delete(path(agent, `/${first.id}`), { key: agent.apiKey });
    expect(trashed.body).toEqual({ success: true, message: "Email moved to trash" });
    expect((await api.get(path(agent, `/${first.id}`), { key: agent.apiKey })).body.folder).toBe("trash");
    expect(await storage()).toBe(full);
    const permanent = await api.delete(path(agent, `/${first.id}?permanent=false`), { key: agent.apiKey });
    expect(permanent.body).toEqual({ success: true, message: "Email permanently deleted" });
    expect((await api.get(path(agent, `/${first.id}`), { key: agent.apiKey })).status).toBe(404);
    const afterFirst = await storage();
    expect(afterFirst).toBeLessThan(full);
    const direct = await api.delete(path(agent, `/${second.id}?permanent=true`), { key: agent.apiKey });
    expect(direct.body.message).toBe("Email permanently deleted");
    expect(await storage()).toBe(0);
    expect((await api.delete(path(agent, `/${second.id}`), { key: agent.apiKey })).status).toBe(404);
  });

  test("DELETE with permanent other than true or false is a bad request", async () => {
    const { agent, emails } = await agentWithMail(1);
    const reply = await api.delete(path(agent, `/${emails[0]?.id}?permanent=yes`), { key: agent.apiKey });
    expect(reply.status).toBe(400);
    expect(reply.body.message).toContain("permanent");
    expect((await api.get(path(agent, `/${emails[0]?.id}`), { key: agent.apiKey })).body.folder).toBe("inbox");
  });

  test("parallel permanent deletes of one email free its bytes once", async () => {
    const { agent, emails } = await agentWithMail(2);
    const before = (await api.get(`/agents/${agent.id}`, { key: agent.apiKey })).body.storageUsed;
    const replies = await Promise.all(
      Array.from({ length: 6 }, () =>
        api.delete(path(agent, `/${emails[0]?.id}?permanent=true`), { key: agent.apiKey }),
      ),
    );
    expect(replies.filter((r) => r.status === 200)).toHaveLength(1);
    expect(replies.filter((r) => r.status === 404)).toHaveLength(5);
    const after = (await api.get(`/agents/${agent.id}`, { key: agent.apiKey })).body.storageUsed;
    expect(before - after).toBe(before / 2);
  });
});

describe("the storage limit", () => {
  test("mail that would pass STORAGE_LIMIT_BYTES is not stored; permanent deletes make room", async () => {
    const client = await dovecot.client();
    await client.mailboxCreate("Small");
    await client.logout();
    const small = await startTestService({
      SOCIAL_OEMBED_URL: x.url,
      MAIL_DOMAIN: "mail.example",
      IMAP_URL: dovecot.url("Small"),
      STORAGE_LIMIT_BYTES: "2000",
    });
    const smallApi = new Api(small.url);
    try {
      const agent = await createVerifiedAgent(smallApi, x);
      const message = (i: number) =>
        rawMessage({ to: `${agent.id}@mail.example`, subject: `q${i}`, body: "y".repeat(400) });
      const size = Buffer.byteLength(message(0));
      await dovecot.append([0, 1, 2, 3].map(message), "Small");
      const fits = Math.floor(2000 / size);
      const reply = await inboxOf(smallApi, agent, fits);
      await waitFor(() => small.logs.some((l) => l.fields.reason === "over_quota"));
      const me = await smallApi.get(`/agents/${agent.id}`, { key: agent.apiKey });
      expect(me.body.storageLimit).toBe(2000);
      expect(me.body.storageUsed).toBe(fits * size);
      expect(reply.body.total).toBe(fits);
      await smallApi.delete(`/agents/${agent.id}/emails/${reply.body.data[0].id}?permanent=true`, {
        key: agent.apiKey,
      });
      await dovecot.append(message(9), "Small");
      const after = await waitFor(async () => {
        const list = await smallApi.get(`/agents/${agent.id}/emails`, { key: agent.apiKey });
        return list.body.data.some((e: Email) => e.subject === "q9") ? list : null;
      });
      expect(after.body.total).toBe(fits);
    } finally {
      await small.stop();
    }
  }, 60_000);
});

describe("over GraphQL", () => {
  test("emails, emailConnection, folders, email, updateEmail and deleteEmail", async () => {
    const { agent, emails } = await agentWithMail(5);
    const [a, b, c] = emails as [Email, Email, Email];
    const update = `mutation($agent: ID!, $email: ID!, $folder: String, $isRead: Boolean) {
      updateEmail(agentId: $agent, emailId: $email, folder: $folder, isRead: $isRead) { id folder isRead }
    }`;
    await api.graphql(update, { agent: agent.id, email: a.id, folder: "Receipts" }, agent.apiKey);
    await api.graphql(update, { agent: agent.id, email: b.id, folder: "archive", isRead: true }, agent.apiKey);
    const deleted = await api.graphql(
      `mutation($agent: ID!, $email: ID!) { deleteEmail(agentId: $agent, emailId: $email) { success message } }`,
      { agent: agent.id, email: c.id },
      agent.apiKey,
    );
    expect(deleted.body.data.deleteEmail).toEqual({ success: true, message: "Email moved to trash" });
    const folders = await api.graphql(
      `query($id: ID!) { agent(id: $id) { folders { name total unread } } }`,
      { id: agent.id },
      agent.apiKey,
    );
    expect(folders.body.data.agent.folders).toEqual([
      { name: "inbox", total: 2, unread: 2 },
      { name: "archive", total: 1, unread: 0 },
      { name: "trash", total: 1, unread: 1 },
      { name: "junk", total: 0, unread: 0 },
      { name: "Receipts", total: 1, unread: 1 },
    ]);
    const page = await api.graphql(
      `query($id: ID!) { agent(id: $id) { emails(folder: "inbox", limit: 1) { data { subject } total limit offset } } }`,
      { id: agent.id },
      agent.apiKey,
    );
    expect(page.body.data.agent.emails).toMatchObject({ total: 2, limit: 1, offset: 0 });
    const rest = (await api.get(path(agent), { key: agent.apiKey })).body.data.map((e: Email) => e.id);
    const walked: string[] = [];
    let after: string | null = null;
    for (;;) {
      const conn: {
        body: {
          data: {
            agent: {
              emailConnection: {
                edges: { node: { id: string } }[];
                pageInfo: { hasNextPage: boolean; endCursor: string };
              };
            };
          };
        };
      } = await api.graphql(
        `query($id: ID!, $after: String) { agent(id: $id) { emailConnection(first: 2, after: $after) {
            edges { node { id } } pageInfo { hasNextPage endCursor } } } }`,
        { id: agent.id, after },
        agent.apiKey,
      );
      const { edges, pageInfo } = conn.body.data.agent.emailConnection;
      walked.push(...edges.map((edge) => edge.node.id));
      if (!pageInfo.hasNextPage) break;
      after = pageInfo.endCursor;
    }
    expect(walked).toEqual(rest);
    const archived = await api.graphql(
      `query($id: ID!) { agent(id: $id) { emailConnection(folder: "Archive", first: 10) { edges { node { id } } } } }`,
      { id: agent.id },
      agent.apiKey,
    );
    expect(archived.body.data.agent.emailConnection.edges).toEqual([{ node: { id: b.id } }]);
    const missing = await api.graphql(
      `query($a: ID!) { email(agentId: $a, emailId: "nope") { id } }`,
      { a: agent.id },
      agent.apiKey,
    );
    expect(missing.body.errors[0].extensions).toEqual({ code: "NOT_FOUND", status: 404 });
  });
});
