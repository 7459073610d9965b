import { beforeAll, expect, test } from "vitest";
import { createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { inboxOf } from "./support/inbox.ts";
import { rawMessage } from "./support/mail.ts";
import { served } from "./support/served.ts";

// Search over received mail, in the database (FTS5 on SQLite, tsvector on
// PostgreSQL), for mail filed by the poller from Dovecot.

let agent: TestAgent;
let other: TestAgent;
const subjects: Record<string, string> = {};

const MAIL = [
  {
    key: "invoice",
    from: "Billing <billing@acme.example>",
    subject: "Invoice 4471 for November",
    body: "Please find the amount due below.",
  },
  {
    key: "mention",
    from: "Pat <pat@friends.example>",
    subject: "Lunch",
    body: "Did you get the invoice from Acme? It looked wrong.",
  },
  {
    key: "resume",
    from: "Renée Dupont <renee@jobs.example>",
    subject: "Résumé attached",
    body: "Voilà mon résumé pour le poste.",
  },
  {
    key: "phrase",
    from: "Ops <ops@acme.example>",
    subject: "Server report",
    body: "The backup job finished. Disk space is low on the primary server.",
  },
  {
    key: "reversed",
    from: "Ops <ops@acme.example>",
    subject: "Other report",
    body: "Primary disk ok. The server space on backup is low.",
  },
  {
    key: "spam",
    from: "Deals <deals@spam.example>",
    subject: "Cheap invoice software",
    body: "Buy now, limited offer, spam spam.",
  },
];

const { svc, api, x, dovecot } = served({ imap: true });

beforeAll(async () => {
  agent = await createVerifiedAgent(api, x);
  other = await createVerifiedAgent(api, x);
  for (const mail of MAIL) {
    subjects[mail.key] = mail.subject;
    await dovecot.append(
      `X-Original-To: ${agent.id}@mail.example\r\n${rawMessage({ to: `${agent.id}@mail.example`, ...mail })}`,
    );
  }
  // Another agent's mail says the same words: it must never show.
  await dovecot.append(
    `X-Original-To: ${other.id}@mail.example\r\n${rawMessage({ to: `${other.id}@mail.example`, subject: "Invoice for the other agent", body: "invoice invoice résumé" })}`,
  );
  await inboxOf(api, agent, MAIL.length);
  await inboxOf(api, other, 1);
});

async function search(query: string, owner = agent) {
  const reply = await api.get(`/agents/${owner.id}/emails?${query}`, { key: owner.apiKey });
  expect(reply.status, query).toBe(200);
  return reply.body;
}
const found = async (query: string) => (await search(query)).data.map((e: { subject: string }) => e.subject);

test("words match by prefix, without case or accents, in subject, sender and text; best match first", async () => {
  // In the subject first, then in the text. The two subjects rank alike on PostgreSQL (SQLite's bm25 puts the
  // shorter first), and two emails filed in the same millisecond are equally new: their order is not asserted.
  const hits = await found("q=invoice");
  expect(hits.slice(0, 2).sort()).toEqual([subjects.invoice, subjects.spam].sort());
  expect(hits[2]).toBe(subjects.mention);
  expect(await found("q=INVO")).toEqual(await found("q=invoice"));
  expect(await found("q=resume")).toEqual([subjects.resume]);
  expect(await found(`q=${encodeURIComponent("RÉSUMÉ")}`)).toEqual([subjects.resume]);
  expect(await found("q=renee")).toEqual([subjects.resume]);
  expect(await found("q=acme")).toEqual(expect.arrayContaining([subjects.invoice, subjects.mention, subjects.phrase]));
  expect((await search("q=invoice")).total).toBe(3);
});

test("all words must match; a phrase in its order; -word excludes", async () => {
  expect(await found("q=disk+server+backup")).toEqual(expect.arrayContaining([subjects.phrase, subjects.reversed]));
  expect(await found(`q=${encodeURIComponent('"backup job"')}`)).toEqual([subjects.phrase]);
  expect(await found(`q=${encodeURIComponent('"server space"')}`)).toEqual([subjects.reversed]);
  expect(await found(`q=${encodeURIComponent("invoice -spam")}`)).toEqual([subjects.invoice, subjects.mention]);
  expect(await found(`q=${encodeURIComponent("-spam -report -invoice")}`)).toEqual([subjects.resume]);
});

test("a search alone (read from the index) and a search with a filter order and count alike", async () => {
  const alone = await search("q=invoice");
  const filtered = await search("q=invoice&isRead=false");
  expect(filtered.data.map((e: { id: string }) => e.id)).toEqual(alone.data.map((e: { id: string }) => e.id));
  expect(filtered.total).toBe(alone.total);
  const second = await search("q=invoice&limit=1&offset=1");
  expect(second).toMatchObject({ total: 3, limit: 1, offset: 1, data: [{ id: alone.data[1].id }] });
  expect((await search("q=invoice&limit=5&offset=3")).data).toEqual([]);
});

test("another agent's mail never matches", async () => {
  const theirs = await search("q=invoice", other);
  expect(theirs.data.map((e: { agentId: string }) => e.agentId)).toEqual([other.id]);
  expect(await found("q=other+agent")).toEqual([]);
});

test("filters: sender, recipient, time, read flag and attachments, with and without a search", async () => {
  expect(await found("from=%40acme.example&q=report")).toEqual(
    expect.arrayContaining([subjects.phrase, subjects.reversed]),
  );
  expect(await found("from=billing%40ACME.example")).toEqual([subjects.invoice]);
  expect((await found(`to=${agent.id}%40mail.example`)).length).toBe(MAIL.length);
  expect(await found("to=nobody%40mail.example")).toEqual([]);
  const all = (await search("limit=100")).data;
  const times = all.map((e: { receivedAt: number }) => e.receivedAt);
  expect((await search(`after=${Math.max(...times)}`)).total).toBe(0);
  expect((await search(`before=${Math.max(...times) + 1}&q=invoice`)).total).toBe(3);
  const invoice = all.find((e: { subject: string }) => e.subject === subjects.invoice);
  await api.call("PATCH", `/agents/${agent.id}/emails/${invoice.id}`, { key: agent.apiKey, body: { isRead: true } });
  expect(await found("isRead=true")).toEqual([subjects.invoice]);
  expect(await found("isRead=false&q=invoice")).toEqual([subjects.spam, subjects.mention]);
  expect(await found("hasAttachments=true")).toEqual([]);
  expect((await search("hasAttachments=false")).total).toBe(MAIL.length);
  for (const bad of ["after=soon", "isRead=maybe", "hasAttachments=1"]) {
    const reply = await api.get(`/agents/${agent.id}/emails?${bad}`, { key: agent.apiKey });
    expect(reply.status, bad).toBe(400);
  }
});

test("moves and deletes are reflected at once", async () => {
  const [spam] = (await search("q=spam")).data;
  await api.call("PATCH", `/agents/${agent.id}/emails/${spam.id}`, { key: agent.apiKey, body: { folder: "archive" } });
  expect(await found("q=spam&folder=archive")).toEqual([subjects.spam]);
  expect(await found("q=spam&folder=inbox")).toEqual([]);
  await api.delete(`/agents/${agent.id}/emails/${spam.id}?permanent=true`, { key: agent.apiKey });
  expect(await found("q=spam")).toEqual([]);
  expect(await found("q=cheap")).toEqual([]);
});

test("GraphQL emails(search:) and emailConnection(search:) answer as REST does", async () => {
  const rest = await found("q=report");
  const reply = await api.graphql(
    `query($a: ID!) { agent(id: $a) {
      emails(search: "report") { data { subject } total }
      emailConnection(search: "report", first: 10) { edges { node { subject } } }
    } }`,
    { a: agent.id },
    agent.apiKey,
  );
  expect(reply.body.data.agent.emails.data.map((e: { subject: string }) => e.subject)).toEqual(rest);
  const connection = reply.body.data.agent.emailConnection.edges.map(
    (e: { node: { subject: string } }) => e.node.subject,
  );
  expect(connection.sort()).toEqual([...rest].sort());
  // Walked one at a time by cursor, with a time filter beside the search.
  const walked: string[] = [];
  let after: string | null = null;
  do {
    const page: {
      body: {
        data: {
          agent: {
            emailConnection: {
              edges: { node: { subject: string } }[];
              pageInfo: { hasNextPage: boolean; endCursor: string };
            };
          };
        };
      };
    } = await api.graphql(
      `query($a: ID!, $after: String) { agent(id: $a) { emailConnection(search: "report", receivedAfter: 0, first: 1, after: $after) {
        edges { node { subject } } pageInfo { hasNextPage endCursor } } } }`,
      { a: agent.id, after },
      agent.apiKey,
    );
    const { edges, pageInfo } = page.body.data.agent.emailConnection;
    walked.push(...edges.map((edge) => edge.node.subject));
    after = pageInfo.hasNextPage ? pageInfo.endCursor : null;
  } while (after);
  expect(walked.sort()).toEqual([...rest].sort());
});

test("no query can cause a server error: syntax of either database is plain text here", async () => {
  const queries = [
    '"',
    '"unbalanced',
    "-",
    "--",
    "*",
    "invoice*",
    "NEAR(invoice report)",
    "subject:invoice",
    "a OR b",
    "a AND NOT b",
    "^invoice",
    "invoice)",
    "(",
    '\'; DROP TABLE "Email"; --',
    "!invoice",
    "invoice & report",
    "invoice | report",
    "<->",
    "a:*",
    "\\",
    "%",
    "_",
    "💌 invoice",
    "\u0000",
    "a".repeat(500),
    "é".repeat(200),
    '-""',
    '""',
    "- -",
  ];
  const random = Array.from({ length: 200 }, (_, n) =>
    Array.from({ length: 1 + (n % 12) }, (_, i) => String.fromCharCode(32 + ((n * 31 + i * 17) % 95))).join(""),
  );
  for (const query of [...queries, ...random]) {
    const reply = await api.get(`/agents/${agent.id}/emails?q=${encodeURIComponent(query)}`, { key: agent.apiKey });
    expect(reply.status, JSON.stringify(query)).toBe(query === "\u0000" ? 400 : 200);
  }
  const tooLong = await api.get(`/agents/${agent.id}/emails?q=${"a".repeat(501)}`, { key: agent.apiKey });
  expect(tooLong.status).toBe(400);
  expect(svc.logs.filter((line) => line.level === "error")).toEqual([]);
});

test("a filter longer than any address or subject is a 400, over REST and GraphQL", async () => {
  const long = "x".repeat(60_000);
  const rest = await Promise.all(
    ["to", "from"].map((name) =>
      api.get(`/agents/${agent.id}/emails?${name}=${long.slice(0, 10_000)}`, { key: agent.apiKey }),
    ),
  );
  for (const reply of rest) {
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      error: "Bad Request",
      message: expect.stringMatching(/at most 320 characters/),
    });
  }
  const graphql = await api.graphql(
    "query($id: ID!, $to: String) { emails(agentId: $id, to: $to) { total } }",
    { id: agent.id, to: long },
    agent.apiKey,
  );
  expect(graphql.body.errors[0].extensions).toMatchObject({ code: "BAD_REQUEST", status: 400 });
  const waited = await api.graphql(
    "query($id: ID!, $s: String) { waitForEmail(agentId: $id, filter: { subject: $s }, timeoutSeconds: 1) { id } }",
    { id: agent.id, s: long },
    agent.apiKey,
  );
  expect(waited.body.errors[0].extensions).toMatchObject({ code: "BAD_REQUEST", status: 400 });
  const exact = await api.get(`/agents/${agent.id}/emails?to=${"x".repeat(320)}`, { key: agent.apiKey });
  expect([exact.status, exact.body.total]).toEqual([200, 0]);
  expect(svc.logs.filter((line) => line.level === "error")).toEqual([]);
});

test("words of any script, and letters written in compatibility forms, match as they read", async () => {
  await dovecot.append(
    `X-Original-To: ${agent.id}@mail.example\r\n${rawMessage({
      to: `${agent.id}@mail.example`,
      from: "Иван Петров <ivan@ru.example>",
      subject: "Счёт за ноябрь",
      body: "Оплата по счёту, ﬁnal ＴＯＴＡＬ 42. 東京の会議",
    })}`,
  );
  await inboxOf(api, agent, MAIL.length);
  for (const q of ["счет", "СЧЁТ", "сч", "иван", "final", "total", "東京の会議", "ﬁnal"]) {
    expect(await found(`q=${encodeURIComponent(q)}`), q).toEqual(["Счёт за ноябрь"]);
  }
  expect(await found(`q=${encodeURIComponent('"оплата по"')}`)).toEqual(["Счёт за ноябрь"]);
  expect(await found(`q=${encodeURIComponent("счет -東京の会議")}`)).toEqual([]);
});

test("only excluded words: the agent's own mail without them, none of another's", async () => {
  const own = (await search("limit=100")).total;
  expect((await search("q=-nowhereword")).total).toBe(own);
  expect((await search("q=-nowhereword", other)).total).toBe(1);
});

test("the index holds an entry for every email and no other, after mail and an agent are deleted", async () => {
  const { sql } = svc.service.services;
  // SQLite's entries are by the email's rowid, PostgreSQL's by its id.
  const [entry, email] = process.env.TEST_DATABASE === "postgresql" ? ["emailId", "id"] : ["rowid", "rowid"];
  const entries = async () => {
    const indexed = await sql.all(`SELECT "${entry}" AS "n" FROM "EmailSearch" ORDER BY "n"`, []);
    const emails = await sql.all(`SELECT "${email}" AS "n" FROM "Email" ORDER BY "n"`, []);
    return { indexed, emails };
  };
  const before = await entries();
  expect(before.indexed).toEqual(before.emails);
  expect(before.emails.length).toBe(MAIL.length + 1);
  const deleted = await api.delete(`/agents/${other.id}`, { key: other.apiKey });
  expect(deleted.status).toBe(200);
  const after = await entries();
  expect(after.indexed).toEqual(after.emails);
  expect(after.emails.length).toBe(MAIL.length);
});

test("a long email of many different words is filed and found; PostgreSQL keeps its limits on a tsvector", async () => {
  const reader = await createVerifiedAgent(api, x);
  const many = Array.from({ length: 60_000 }, (_, n) => `w${n.toString(36)}`).join(" ");
  await dovecot.append(
    `X-Original-To: ${reader.id}@mail.example\r\n${rawMessage({
      to: `${reader.id}@mail.example`,
      subject: "Everything",
      body: `openingword ${"x".repeat(300)} ${many} closingword`,
    })}`,
  );
  await inboxOf(api, reader, 1);
  const total = async (q: string) => (await search(`q=${q}`, reader)).total;
  expect(await total("openingword")).toBe(1);
  expect(await total("w10")).toBe(1);
  // A run of letters longer than a word (200) is data: not indexed on either database,
  // so asking for one finds nothing and excluding one excludes nothing. ㌖ unfolds into
  // six letters: 114 of them pass the query's 500 characters and no database's limit.
  expect(await total("x".repeat(300))).toBe(0);
  expect(await total(encodeURIComponent("㌖".repeat(114)))).toBe(0);
  expect(await total(encodeURIComponent(`openingword -${"㌖".repeat(114)}`))).toBe(1);
  expect(await total(encodeURIComponent(`-"${"x".repeat(300)} w10"`))).toBe(1);
  // The last word stands past the first 256 KiB of text, which is all that is searched (and PostgreSQL takes
  // new words only until they fill 512 KB: 60,000 are over 1 MB with their tags).
  expect(await total("closingword")).toBe(0);
  expect(svc.logs.filter((line) => line.level === "error")).toEqual([]);
});
