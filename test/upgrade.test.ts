import { createHash } from "node:crypto";
import { afterAll, expect, test } from "vitest";
import { openDatabase } from "../src/db/client.ts";
import { migrationsOf } from "../src/db/migrate.ts";
import { Api } from "./support/api.ts";
import { freshDatabase, startTestService } from "./support/service.ts";

// Databases of earlier releases, with data in them, upgraded by the service at
// start-up: mail from before threads and attachments keeps every message and
// gets threads; review links once handed to agents stop deciding anything.

const database = freshDatabase();
afterAll(() => database.drop());

/** A database as a release before the migration of that name left it, open, for the test to fill in SQL. */
async function migratedBefore(url: string, name: string) {
  const old = await openDatabase(url);
  if (old.provider === "postgresql") await old.prisma.$executeRawUnsafe(`CREATE SCHEMA IF NOT EXISTS "${old.schema}"`);
  await old.prisma.$executeRawUnsafe(
    `CREATE TABLE "_pigeonhole_migrations" ("name" TEXT PRIMARY KEY, "appliedAt" TEXT NOT NULL)`,
  );
  for (const migration of migrationsOf(old.provider).filter((m) => m.name < name)) {
    for (const statement of migration.statements) await old.prisma.$executeRawUnsafe(statement);
    await old.prisma.$executeRawUnsafe(
      `INSERT INTO "_pigeonhole_migrations" ("name", "appliedAt") VALUES ('${migration.name}', '2026-11-01')`,
    );
  }
  return old;
}

/** Writes a row into an old database by SQL, dates as its provider keeps them. */
function rowWriter(old: Awaited<ReturnType<typeof openDatabase>>) {
  const postgres = old.provider === "postgresql";
  const at = (date: Date) => (postgres ? date : date.toISOString().replace("Z", "+00:00"));
  return async (table: string, values: Record<string, unknown>) => {
    const names = Object.keys(values);
    const params = Object.values(values).map((value) => (value instanceof Date ? at(value) : value));
    const marks = names.map((_, i) => (postgres ? `$${i + 1}` : "?"));
    await old.prisma.$executeRawUnsafe(
      `INSERT INTO "${table}" (${names.map((name) => `"${name}"`).join(", ")}) VALUES (${marks.join(", ")})`,
      ...params,
    );
  };
}

test("mail kept before threads: each message becomes a thread of its own, known by its Message-ID", async () => {
  const old = await migratedBefore(database.url, "20261123084809");
  const provider = old.provider;
  const p = (n: number) => (provider === "postgresql" ? `$${n}` : "?");
  const at = (date: Date) => (provider === "postgresql" ? date : date.toISOString().replace("Z", "+00:00"));
  const now = new Date();
  const key = "ph_upgrade-test-key";
  // In SQL: the client knows today's columns, the old database does not.
  await old.prisma.$executeRawUnsafe(
    `INSERT INTO "Agent" ("id", "idKey", "name", "apiKeyHash", "createdAt", "verifiedAt", "socialUsername", "storageUsed")
     VALUES ('old-timer', 'old-timer', 'Old Timer', ${p(1)}, ${p(2)}, ${p(3)}, 'oldtimer', 20)`,
    createHash("sha256").update(key).digest("hex"),
    at(now),
    at(now),
  );
  await old.prisma.$executeRawUnsafe(
    `INSERT INTO "Email" ("id", "agentId", "messageId", "fromAddress", "to", "subject", "bodyText", "raw", "size", "receivedAt", "isRead", "folder")
     VALUES ('e-old', 'old-timer', '<old@sender.example>', 'jordan@sender.example', 'old-timer@localhost', 'Before', 'kept', ${p(1)}, 10, ${p(2)}, ${provider === "sqlite" ? 0 : "false"}, 'inbox')`,
    Buffer.from("raw bytes!"),
    at(now),
  );
  // Another agent's mail in folders once told apart by case.
  const folderKey = "ph_upgrade-test-folders";
  await old.prisma.$executeRawUnsafe(
    `INSERT INTO "Agent" ("id", "idKey", "name", "apiKeyHash", "createdAt", "verifiedAt", "storageUsed")
     VALUES ('old-folders', 'old-folders', 'Old Folders', ${p(1)}, ${p(2)}, ${p(3)}, 10)`,
    createHash("sha256").update(folderKey).digest("hex"),
    at(now),
    at(now),
  );
  for (const [id, folder, age] of [
    ["e-first", "Projects", 2],
    ["e-second", "projects", 1],
  ] as const) {
    await old.prisma.$executeRawUnsafe(
      `INSERT INTO "Email" ("id", "agentId", "fromAddress", "to", "raw", "size", "receivedAt", "folder")
       VALUES ('${id}', 'old-folders', 'jordan@sender.example', 'old-folders@localhost', ${p(1)}, 5, ${p(2)}, '${folder}')`,
      Buffer.from("raw!!"),
      at(new Date(now.getTime() - age * 60_000)),
    );
  }
  await old.prisma.$executeRawUnsafe(
    `INSERT INTO "SentEmail" ("id", "agentId", "to", "subject", "bodyText", "messageId", "size", "sentAt")
     VALUES ('s-old', 'old-timer', 'pat@example.com, sam@example.com', 'Sent before', 'x', '<sent-old@localhost>', 10, ${p(1)})`,
    at(now),
  );
  await old.prisma.$disconnect();

  const svc = await startTestService({}, { url: database.url, drop: async () => {} });
  try {
    const api = new Api(svc.url);
    const emails = (await api.get("/agents/old-timer/emails", { key })).body;
    expect(emails.data).toEqual([
      expect.objectContaining({ id: "e-old", subject: "Before", bodyText: "kept", threadId: "e-old", attachments: [] }),
    ]);
    // The search index was rebuilt with the mail it held.
    const found = (await api.get("/agents/old-timer/emails?q=befo", { key })).body;
    expect(found).toMatchObject({ total: 1, data: [{ id: "e-old" }] });
    const threads = (await api.get("/agents/old-timer/threads", { key })).body;
    expect(threads.total).toBe(2);
    expect(threads.data.map((t: { id: string; messageCount: number }) => [t.id, t.messageCount]).sort()).toEqual([
      ["e-old", 1],
      ["s-old", 1],
    ]);
    const sent = (await api.get("/agents/old-timer/sent", { key })).body.data;
    expect(sent).toEqual([expect.objectContaining({ id: "s-old", threadId: "s-old" })]);
    // Its recipients, once joined, are a list.
    const recipients = await api.graphql(`query { agent(id: "old-timer") { sent { data { to cc } } } }`, {}, key);
    expect(recipients.body.data.agent.sent.data).toEqual([{ to: ["pat@example.com", "sam@example.com"], cc: [] }]);
    expect(sent[0].to).toBe("pat@example.com, sam@example.com");
    // Folders once told apart by case are one, spelled as its oldest mail had it.
    const projects = (await api.get("/agents/old-folders/emails?folder=PROJECTS", { key: folderKey })).body.data;
    expect(projects.map((e: { id: string; folder: string }) => [e.id, e.folder]).sort()).toEqual([
      ["e-first", "Projects"],
      ["e-second", "Projects"],
    ]);
    // So that a reply to either, arriving later, joins its thread.
    const known = await svc.service.services.sql.all(
      `SELECT "messageId", "threadId" FROM "ThreadMessageId" WHERE "agentId" = ? ORDER BY "threadId"`,
      ["old-timer"],
    );
    expect(known).toEqual([
      { messageId: "<old@sender.example>", threadId: "e-old" },
      { messageId: "<sent-old@localhost>", threadId: "s-old" },
    ]);
    // The raw message moved beside its email.
    const source = await svc.service.services.sql.one(`SELECT "raw" FROM "EmailSource" WHERE "emailId" = ?`, ["e-old"]);
    expect(Buffer.from(source?.raw as Uint8Array).toString()).toBe("raw bytes!");
  } finally {
    await svc.stop();
  }
});

const REVIEWED_KEY = "ph_upgrade-review-key";

test("review links once handed to agents: held ones die, decided ones say what became of them; none stays where agents read", async () => {
  const before = freshDatabase();
  const old = await migratedBefore(before.url, "20261128191008");
  const provider = old.provider;
  try {
    const p = (n: number) => (provider === "postgresql" ? `$${n}` : "?");
    const at = (date: Date) => (provider === "postgresql" ? date : date.toISOString().replace("Z", "+00:00"));
    const hash = (text: string) => createHash("sha256").update(text).digest("hex");
    const now = new Date();
    await old.prisma.$executeRawUnsafe(
      `INSERT INTO "Agent" ("id", "idKey", "name", "apiKeyHash", "createdAt", "verifiedAt")
       VALUES ('reviewed', 'reviewed', 'Reviewed', ${p(1)}, ${p(2)}, ${p(3)})`,
      hash(REVIEWED_KEY),
      at(now),
      at(now),
    );
    const held = `pr_${"H".repeat(43)}`;
    const rejected = `pr_${"R".repeat(43)}`;
    for (const [id, token, status, reason] of [
      ["d-held", held, "pending_approval", null],
      ["d-rejected", rejected, "rejected", "Not this one"],
    ] as const) {
      await old.prisma.$executeRawUnsafe(
        `INSERT INTO "Draft" ("id", "agentId", "sendStatus", "reviewTokenHash", "rejectReason", "size", "createdAt", "updatedAt")
         VALUES ('${id}', 'reviewed', '${status}', ${p(1)}, ${p(2)}, 10, ${p(3)}, ${p(4)})`,
        hash(token),
        reason,
        at(now),
        at(now),
      );
    }
    const link = `https://pigeonhole.example/review/${held}`;
    await old.prisma.$executeRawUnsafe(
      `INSERT INTO "Event" ("agentId", "type", "data", "createdAt") VALUES ('reviewed', 'email.held', ${p(1)}, ${p(2)})`,
      JSON.stringify({ draftId: "d-held", to: ["pat@example.com"], subject: "Held", reviewUrl: link }),
      at(now),
    );
    await old.prisma.$executeRawUnsafe(
      `INSERT INTO "Webhook" ("id", "agentId", "url", "events", "secret", "enabled", "createdAt")
       VALUES ('w-old', 'reviewed', 'https://hooks.example/', '[]', 'whsec_x', ${provider === "sqlite" ? 1 : "true"}, ${p(1)})`,
      at(now),
    );
    await old.prisma.$executeRawUnsafe(
      `INSERT INTO "WebhookDelivery" ("id", "webhookId", "eventId", "status", "payload", "createdAt")
       VALUES ('wd-old', 'w-old', 1, 'pending', ${p(1)}, ${p(2)})`,
      JSON.stringify({ type: "email.held", data: { draftId: "d-held", reviewUrl: link, agentId: "reviewed" } }),
      at(now),
    );
    await old.prisma.$executeRawUnsafe(
      `INSERT INTO "IdempotencyKey" ("agentId", "key", "fingerprint", "status", "answer", "createdAt")
       VALUES ('reviewed', 'k-old', 'f', 201, ${p(1)}, ${p(2)})`,
      JSON.stringify({ value: { pending: { id: "d-held", status: "pending_approval", reviewUrl: link } } }),
      at(now),
    );
  } finally {
    await old.prisma.$disconnect();
  }

  const svc = await startTestService({}, before);
  try {
    const api = new Api(svc.url);
    // The agent was handed this link: it decides nothing now, and the operator decides the message.
    expect((await api.post(`/review/pr_${"H".repeat(43)}/approve`)).status).toBe(404);
    const key = REVIEWED_KEY;
    const draft = await api.get("/agents/reviewed/drafts/d-held", { key });
    expect(draft.body.sendStatus).toBe("pending_approval");
    const decided = await api.get(`/review/pr_${"R".repeat(43)}/message`);
    expect([decided.status, decided.body.message]).toEqual([
      410,
      expect.stringMatching(/^This message was already rejected, on .+ \(Not this one\)$/),
    ]);
    const events = await api.get("/agents/reviewed/events", { key });
    expect(events.body.data[0].data).toEqual({ draftId: "d-held", to: ["pat@example.com"], subject: "Held" });
    const { sql } = svc.service.services;
    const kept = [
      ...(await sql.all(`SELECT CAST("data" AS TEXT) AS "text" FROM "Event"`, [])),
      ...(await sql.all(`SELECT "payload" AS "text" FROM "WebhookDelivery"`, [])),
      ...(await sql.all(`SELECT CAST("answer" AS TEXT) AS "text" FROM "IdempotencyKey"`, [])),
    ].map((row) => String(row.text));
    expect(kept).toHaveLength(3);
    for (const text of kept) expect(text).not.toMatch(/reviewUrl|pr_/);
    // The webhook and its delivery came through a webhook's owner becoming an agent or a pod whole.
    expect(await sql.all(`SELECT "agentId", "podId" FROM "Webhook"`, [])).toEqual([
      { agentId: "reviewed", podId: null },
    ]);
    expect(await sql.all(`SELECT "agentId" FROM "WebhookDelivery"`, [])).toEqual([{ agentId: "reviewed" }]);
  } finally {
    await svc.stop();
  }
});

const LISTS_KEY = "ph_upgrade-lists-key";

test("lists kept as JSON text: read back as lists (sender lists as the agent's own, allow-only), a kept answer's recipients too", async () => {
  const before = freshDatabase();
  const old = await migratedBefore(before.url, "20261128222623");
  try {
    const now = new Date();
    const row = rowWriter(old);
    const apiKeyHash = createHash("sha256").update(LISTS_KEY).digest("hex");
    await row("Agent", {
      ...{ id: "lists", idKey: "lists", name: "Lists", apiKeyHash, createdAt: now, verifiedAt: now },
      ...{ senderAllow: '["@sender.example"]', senderBlock: '["spam@sender.example"]' },
    });
    await row("Thread", { id: "t-lists", agentId: "lists", subject: "Lists", startedAt: now, lastMessageAt: now });
    await row("Email", {
      ...{ id: "e-lists", agentId: "lists", fromAddress: "jordan@sender.example", to: "lists@localhost", size: 5 },
      ...{
        receivedAt: now,
        threadId: "t-lists",
        toList: '["lists@localhost","pat@example.com"]',
        ccList: '["sam@example.com"]',
      },
      ...{ links: '[{"url":"https://example.com/","text":"Example"}]', codes: '["123456"]' },
    });
    await row("Draft", {
      ...{ id: "d-lists", agentId: "lists", toList: '["pat@example.com"]', size: 10, createdAt: now, updatedAt: now },
      attachments: '[{"filename":"a.txt","contentType":"text/plain","content":"aGk="}]',
    });
    await row("Webhook", {
      ...{ id: "w-lists", agentId: "lists", url: "https://hooks.example/", events: '["email.received"]' },
      ...{ secret: "whsec_x", enabled: true, createdAt: now },
    });
    await row("Event", { agentId: "lists", type: "email.received", data: '{"emailId":"e-lists"}', createdAt: now });
    const sent = { id: "s-lists", toList: '["pat@example.com"]', ccList: "[]", bccList: '["sam@example.com"]' };
    await row("IdempotencyKey", {
      ...{ agentId: "lists", key: "k-lists", fingerprint: "f", status: 201, createdAt: now },
      answer: JSON.stringify({ value: { ...sent, sentAt: now.getTime() } }),
    });
  } finally {
    await old.prisma.$disconnect();
  }

  const svc = await startTestService({}, before);
  try {
    const api = new Api(svc.url);
    const read = await api.graphql(
      `query {
        agent(id: "lists") { senders { allow block allowOnly } drafts { data { to attachments { filename } } } webhooks { events } }
        email(agentId: "lists", emailId: "e-lists") { links { url text } codes thread { participants } }
      }`,
      {},
      LISTS_KEY,
    );
    expect(read.body.data).toEqual({
      agent: {
        senders: { allow: ["@sender.example"], block: ["spam@sender.example"], allowOnly: true },
        drafts: { data: [{ to: ["pat@example.com"], attachments: [{ filename: "a.txt" }] }] },
        webhooks: [{ events: ["email.received"] }],
      },
      email: {
        links: [{ url: "https://example.com/", text: "Example" }],
        codes: ["123456"],
        thread: { participants: ["jordan@sender.example", "lists@localhost", "pat@example.com", "sam@example.com"] },
      },
    });
    const events = await api.get("/agents/lists/events", { key: LISTS_KEY });
    expect(events.body.data[0].data).toEqual({ emailId: "e-lists" });
    const kept = await svc.service.services.sql.one(
      `SELECT CAST("answer" AS TEXT) AS "text" FROM "IdempotencyKey" WHERE "key" = 'k-lists'`,
      [],
    );
    expect(JSON.parse(String(kept?.text)).value).toMatchObject({
      toList: ["pat@example.com"],
      ccList: [],
      bccList: ["sam@example.com"],
    });
  } finally {
    await svc.stop();
  }
});

const FORWARDS_KEY = "ph_upgrade-forwards-key";
const SEND_ONLY_KEY = "ph_upgrade-forwards-send-only";

test("forwards kept as drafts before they were marked: marked, so a send-only key is shown none of them", async () => {
  const before = freshDatabase();
  const old = await migratedBefore(before.url, "20261130234500");
  try {
    const now = new Date();
    const row = rowWriter(old);
    const hash = (key: string) => createHash("sha256").update(key).digest("hex");
    await row("Agent", {
      ...{ id: "fwd", idKey: "fwd", name: "Forwards", apiKeyHash: hash(FORWARDS_KEY), createdAt: now },
      verifiedAt: now,
    });
    await row("Key", {
      ...{ id: "k-send", agentId: "fwd", hash: hash(SEND_ONLY_KEY), name: "send", permissions: '["send"]' },
      createdAt: now,
    });
    await row("Thread", { id: "t-fwd", agentId: "fwd", subject: "Figures", startedAt: now, lastMessageAt: now });
    await row("Email", {
      ...{ id: "e-fwd", agentId: "fwd", fromAddress: "jordan@sender.example", to: "fwd@localhost", size: 5 },
      ...{ receivedAt: now, threadId: "t-fwd" },
    });
    const draft = (id: string, fields: Record<string, unknown>) =>
      row("Draft", { id, agentId: "fwd", size: 10, createdAt: now, updatedAt: now, ...fields });
    await draft("d-forward", { subject: "Fwd: Figures", threadId: "t-fwd", sendStatus: "pending_approval" });
    await draft("d-reply", { subject: "Re: Figures", threadId: "t-fwd", inReplyTo: "e-fwd" });
    await draft("d-own", { subject: "Own words" });
  } finally {
    await old.prisma.$disconnect();
  }

  const svc = await startTestService({}, before);
  try {
    const api = new Api(svc.url);
    const drafts = async (key: string) =>
      (await api.get("/agents/fwd/drafts", { key })).body.data.map((d: { id: string }) => d.id).sort();
    expect(await drafts(FORWARDS_KEY)).toEqual(["d-forward", "d-own", "d-reply"]);
    expect(await drafts(SEND_ONLY_KEY)).toEqual(["d-own", "d-reply"]);
    expect((await api.get("/agents/fwd/drafts/d-forward", { key: SEND_ONLY_KEY })).status).toBe(404);
  } finally {
    await svc.stop();
  }
});
