// The floor: what this machine does for each scenario with nothing but
// node:http and the database driver, over the same database, answering the
// same bytes as the service. Run as its own process:
//   node --import tsx scripts/bench/floor.ts <database url> <mail domain> <storage limit> [smtp url]
import { createHash, generateKeyPairSync, randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { Statement } from "better-sqlite3";
import nodemailer from "nodemailer";
import { searchTag } from "../../src/db/search.ts";
import { numberedParams } from "../../src/db/sql.ts";
import { floorPool } from "./floor-pool.ts";

const [url = "", domain = "", storageLimitText = "0", smtpUrl] = process.argv.slice(2);
const storageLimit = Number(storageLimitText);

interface AgentRow {
  id: string;
  name: string;
  createdAt: number;
  verifiedAt: number | null;
  storageUsed: number;
}

interface EmailRow {
  id: string;
  agentId: string;
  messageId: string | null;
  fromAddress: string;
  fromName: string | null;
  to: string;
  subject: string | null;
  bodyText: string | null;
  bodyHtml: string | null;
  receivedAt: number;
  isRead: boolean;
  folder: string;
  threadId: string;
  text: string | null;
  preview: string;
  replyText: string | null;
  links: unknown;
  codes: unknown;
  authSpf: string | null;
  authDkim: string | null;
  authDmarc: string | null;
  authArc: string | null;
  authVerdict: string;
  autoSubmitted: string | null;
  reportIgnored: string | null;
  labels: unknown;
  spamStatus: string | null;
  spamAction: string | null;
  spamScore: number | null;
  spamRequired: number | null;
  spamSymbols: unknown;
  spam: boolean;
  malwareStatus: string | null;
  screening: string;
  screeningSignals: unknown;
}

interface AttachmentRow {
  id: string;
  emailId: string;
  filename: string;
  contentType: string;
  size: number;
  inline: boolean;
  contentId: string | null;
}

interface Store {
  agentByKeyHash(hash: string): Promise<AgentRow | undefined>;
  /** Plain words, each a prefix, and -excluded ones; best match first, then newest. */
  search(agentId: string, words: string[], excluded: string[]): Promise<{ rows: EmailRow[]; total: number }>;
  emailPage(agentId: string, limit: number, offset: number): Promise<{ rows: EmailRow[]; total: number }>;
  email(agentId: string, id: string): Promise<EmailRow | undefined>;
  markRead(agentId: string, id: string): Promise<EmailRow | undefined>;
  attachments(emailIds: string[]): Promise<AttachmentRow[]>;
}

const AGENT = `SELECT "id","name","createdAt","verifiedAt","storageUsed" FROM "Agent" WHERE "apiKeyHash" = ?`;
const EMAIL_COLUMNS = `"id","agentId","messageId","fromAddress","fromName","to","subject","bodyText","bodyHtml","receivedAt","isRead","folder","threadId","text","preview","replyText","links","codes","authSpf","authDkim","authDmarc","authArc","authVerdict","autoSubmitted","reportIgnored","labels","spamStatus","spamAction","spamScore","spamRequired","spamSymbols","spam","malwareStatus","screening","screeningSignals"`;
const PAGE = `SELECT ${EMAIL_COLUMNS} FROM "Email" WHERE "agentId" = ? ORDER BY "receivedAt" DESC, "id" DESC LIMIT ? OFFSET ?`;
const COUNT = `SELECT COUNT(*) AS "n" FROM "Email" WHERE "agentId" = ?`;
const ONE = `SELECT ${EMAIL_COLUMNS} FROM "Email" WHERE "id" = ? AND "agentId" = ?`;
const ATTACHMENTS = (where: string) =>
  `SELECT "id","emailId","filename","contentType","size","inline","contentId" FROM "Attachment" WHERE "emailId" ${where} ORDER BY "position"`;
const QUALIFIED = EMAIL_COLUMNS.split(",")
  .map((column) => `"Email".${column}`)
  .join(",");
const SQLITE_FOUND = `SELECT "rowid" AS "hit", bm25("EmailSearch", 10.0, 5.0, 1.0) AS "score"
  FROM "EmailSearch" WHERE "EmailSearch" MATCH ?`;
const SQLITE_HITS = `SELECT ${QUALIFIED} FROM (${SQLITE_FOUND} ORDER BY "score", "rowid" DESC LIMIT 50) AS "found"
  JOIN "Email" ON "Email"."rowid" = "found"."hit" AND "Email"."agentId" = ? ORDER BY "found"."score", "found"."hit" DESC`;
const SQLITE_COUNT = `SELECT COUNT(*) AS "n" FROM "EmailSearch" WHERE "EmailSearch" MATCH ?`;
const POSTGRES_FOUND = `SELECT "emailId", "emailReceivedAt", ts_rank("search", CAST(? AS tsquery)) AS "score"
  FROM "EmailSearch" WHERE "search" @@ CAST(? AS tsquery)`;
const POSTGRES_ORDER = `"score" DESC, "emailReceivedAt" DESC, "emailId" DESC`;
const POSTGRES_HITS = `SELECT ${QUALIFIED} FROM (${POSTGRES_FOUND} ORDER BY ${POSTGRES_ORDER} LIMIT 50) AS "found"
  JOIN "Email" ON "Email"."id" = "found"."emailId" AND "Email"."agentId" = ? ORDER BY ${POSTGRES_ORDER}`;
const POSTGRES_COUNT = `SELECT COUNT(*) AS "n" FROM "EmailSearch" WHERE "search" @@ CAST(? AS tsquery)`;
const READ = `UPDATE "Email" SET "isRead" = true WHERE "id" = ? AND "agentId" = ?`;

type Raw = Record<string, unknown>;

/** A row as each driver hands it back; time as ms whatever the column type. */
function agentOf(row: Raw, time: (value: unknown) => number): AgentRow {
  return {
    id: row.id as string,
    name: row.name as string,
    createdAt: time(row.createdAt),
    verifiedAt: row.verifiedAt === null ? null : time(row.verifiedAt),
    storageUsed: row.storageUsed as number,
  };
}

function emailOf(row: Raw, time: (value: unknown) => number): EmailRow {
  return {
    id: row.id as string,
    agentId: row.agentId as string,
    messageId: row.messageId as string | null,
    fromAddress: row.fromAddress as string,
    fromName: row.fromName as string | null,
    to: row.to as string,
    subject: row.subject as string | null,
    bodyText: row.bodyText as string | null,
    bodyHtml: row.bodyHtml as string | null,
    receivedAt: time(row.receivedAt),
    isRead: Boolean(row.isRead),
    folder: row.folder as string,
    threadId: row.threadId as string,
    text: row.text as string | null,
    preview: row.preview as string,
    replyText: row.replyText as string | null,
    links: row.links,
    codes: row.codes,
    authSpf: row.authSpf as string | null,
    authDkim: row.authDkim as string | null,
    authDmarc: row.authDmarc as string | null,
    authArc: row.authArc as string | null,
    authVerdict: row.authVerdict as string,
    autoSubmitted: row.autoSubmitted as string | null,
    reportIgnored: row.reportIgnored as string | null,
    labels: row.labels,
    spamStatus: row.spamStatus as string | null,
    spamAction: row.spamAction as string | null,
    spamScore: row.spamScore as number | null,
    spamRequired: row.spamRequired as number | null,
    spamSymbols: row.spamSymbols,
    spam: Boolean(row.spam),
    malwareStatus: row.malwareStatus as string | null,
    screening: row.screening as string,
    screeningSignals: row.screeningSignals,
  };
}

function attachmentOf(row: Raw): AttachmentRow {
  return { ...(row as unknown as AttachmentRow), inline: Boolean(row.inline) };
}

async function sqliteStore(file: string): Promise<Store> {
  const { default: Sqlite } = await import("better-sqlite3");
  const db = new Sqlite(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  const [agent, page, count, one, read] = [AGENT, PAGE, COUNT, ONE, READ].map((sql) => db.prepare(sql)) as [
    Statement,
    Statement,
    Statement,
    Statement,
    Statement,
  ];
  const time = (value: unknown) => Date.parse(value as string);
  const email = (row: unknown) => (row ? emailOf(row as Raw, time) : undefined);
  const byCount = new Map<number, Statement>();
  const attachments = (count: number) => {
    let statement = byCount.get(count);
    if (!statement) {
      statement = db.prepare(ATTACHMENTS(`IN (${Array.from({ length: count }, () => "?").join(",")})`));
      byCount.set(count, statement);
    }
    return statement;
  };
  const [hits, hitCount] = [SQLITE_HITS, SQLITE_COUNT].map((sql) => db.prepare(sql)) as [Statement, Statement];
  return {
    search: async (agentId, words, excluded) => {
      // Each word of the index has the agent's tag in front.
      const tag = searchTag(agentId);
      const wanted = words.map((w) => `"${tag}${w}"*`).join(" AND ");
      const match = excluded.length ? `(${wanted}) NOT (${excluded.map((w) => `"${tag}${w}"`).join(" OR ")})` : wanted;
      return {
        rows: (hits.all(match, agentId) as Raw[]).map((row) => emailOf(row, time)),
        total: (hitCount.get(match) as { n: number }).n,
      };
    },
    attachments: async (ids) => (ids.length ? (attachments(ids.length).all(...ids) as Raw[]).map(attachmentOf) : []),
    agentByKeyHash: async (hash) => {
      const row = agent.get(hash) as Raw | undefined;
      return row && agentOf(row, time);
    },
    emailPage: async (agentId, limit, offset) => ({
      rows: (page.all(agentId, limit, offset) as Raw[]).map((row) => emailOf(row, time)),
      total: (count.get(agentId) as { n: number }).n,
    }),
    email: async (agentId, id) => email(one.get(id, agentId)),
    markRead: async (agentId, id) => {
      read.run(id, agentId);
      return email(one.get(id, agentId));
    },
  };
}

async function postgresStore(connection: string): Promise<Store> {
  const pool = await floorPool(connection);
  const query = async (name: string, sql: string, values: unknown[]) =>
    (await pool.query<Raw>({ name, text: numberedParams(sql), values })).rows;
  const time = (value: unknown) => (value as Date).getTime();
  const email = (rows: Raw[]) => (rows[0] ? emailOf(rows[0], time) : undefined);
  return {
    search: async (agentId, words, excluded) => {
      // Each word of the index has the agent's tag in front.
      const tag = searchTag(agentId);
      const wanted = words.map((w) => `'${tag}${w}':*`).join(" & ");
      const tsquery = [wanted, ...excluded.map((w) => `!'${tag}${w}'`)].join(" & ");
      const [rows, [count]] = await Promise.all([
        query("hits", POSTGRES_HITS, [wanted, tsquery, agentId]),
        query("hitCount", POSTGRES_COUNT, [tsquery]),
      ]);
      return { rows: rows.map((row) => emailOf(row, time)), total: Number(count?.n) };
    },
    attachments: async (ids) => (await query("attachments", ATTACHMENTS("= ANY(?)"), [ids])).map(attachmentOf),
    agentByKeyHash: async (hash) => {
      const [row] = await query("agent", AGENT, [hash]);
      return row && agentOf(row, time);
    },
    emailPage: async (agentId, limit, offset) => {
      const [rows, [count]] = await Promise.all([
        query("page", PAGE, [agentId, limit, offset]),
        query("count", COUNT, [agentId]),
      ]);
      return { rows: rows.map((row) => emailOf(row, time)), total: Number(count?.n) };
    },
    email: async (agentId, id) => email(await query("one", ONE, [id, agentId])),
    markRead: async (agentId, id) => {
      await query("read", READ, [id, agentId]);
      return email(await query("one", ONE, [id, agentId]));
    },
  };
}

const agentJson = (agent: AgentRow, withNulls: boolean) => ({
  id: agent.id,
  email: `${agent.id}@${domain}`,
  name: agent.name,
  createdAt: agent.createdAt,
  verified: agent.verifiedAt !== null,
  ...(withNulls || agent.verifiedAt !== null ? { verifiedAt: agent.verifiedAt } : {}),
  storageUsed: agent.storageUsed,
  storageLimit,
});

/** A JSON column: text on SQLite, parsed already on PostgreSQL. */
const json = (value: unknown) => (typeof value === "string" ? JSON.parse(value) : value);

/** The spam verdict as the service shows it: null when no scanner ran. */
const spamJson = (email: EmailRow) =>
  email.spamStatus === null
    ? null
    : {
        status: email.spamStatus,
        action: email.spamAction,
        score: email.spamScore,
        requiredScore: email.spamRequired,
        symbols: json(email.spamSymbols),
        isSpam: email.spam,
      };

// In the service's order: the bodies first (its fragment selects them ahead of the rest).
const emailJson = (email: EmailRow, attachments: AttachmentRow[]) => ({
  bodyText: email.bodyText,
  bodyHtml: email.bodyHtml,
  text: email.text,
  replyText: email.replyText,
  id: email.id,
  agentId: email.agentId,
  messageId: email.messageId,
  from: { address: email.fromAddress, name: email.fromName },
  to: email.to,
  subject: email.subject,
  receivedAt: email.receivedAt,
  isRead: email.isRead,
  folder: email.folder,
  labels: json(email.labels),
  threadId: email.threadId,
  attachments: attachments
    .filter((a) => a.emailId === email.id)
    .map(({ id, filename, contentType, size, inline, contentId }) => ({
      id,
      filename,
      contentType,
      size,
      inline,
      contentId,
    })),
  preview: email.preview,
  links: json(email.links),
  codes: json(email.codes),
  authentication: {
    spf: email.authSpf,
    dkim: email.authDkim,
    dmarc: email.authDmarc,
    arc: email.authArc,
    verdict: email.authVerdict,
  },
  autoSubmitted: email.autoSubmitted,
  reportIgnored: email.reportIgnored,
  spam: spamJson(email),
  malware: email.malwareStatus === null ? null : { status: email.malwareStatus },
  screening: { verdict: email.screening, signals: json(email.screeningSignals) },
});

/** Emails as JSON, with their attachments read in one query. */
async function emailsJson(rows: EmailRow[]) {
  const attachments = await store.attachments(rows.map((row) => row.id));
  return rows.map((row) => emailJson(row, attachments));
}

function send(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(text) });
  res.end(text);
}

async function readBody(req: IncomingMessage): Promise<string> {
  const chunks: Buffer[] = [];
  for await (const chunk of req) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

const store = url.startsWith("file:") ? await sqliteStore(url.slice(5)) : await postgresStore(url);
// Mail goes out DKIM-signed, as the service signs it: a 2048-bit key, nodemailer's signer.
const dkimKey = generateKeyPairSync("rsa", { modulusLength: 2048 }).privateKey.export({ type: "pkcs8", format: "pem" });
const dkim = { domainName: domain, keySelector: "floor", privateKey: dkimKey.toString() };
const mailer = smtpUrl ? nodemailer.createTransport(`${smtpUrl}?pool=true`, { dkim }) : null;

async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
  const key = /^Bearer (\S+)$/.exec(req.headers.authorization ?? "")?.[1];
  const agent = key ? await store.agentByKeyHash(createHash("sha256").update(key).digest("hex")) : undefined;
  if (!agent || agent.verifiedAt === null) return send(res, 401, { error: "Unauthorized" });
  const requested = new URL(req.url ?? "/", "http://floor");
  const path = requested.pathname.split("/");
  if (req.method === "POST" && req.url === "/graphql") {
    const { query } = JSON.parse(await readBody(req)) as { query: string };
    if (!query.includes("emails(")) return send(res, 200, { data: { agent: agentJson(agent, true) } });
    const { rows, total } = await store.emailPage(agent.id, 50, 0);
    const data = await emailsJson(rows);
    return send(res, 200, { data: { agent: { emails: { data, total, limit: 50, offset: 0 } } } });
  }
  if (path[2] !== agent.id) return send(res, 403, { error: "Forbidden" });
  if (req.method === "GET" && path.length === 3) return send(res, 200, agentJson(agent, false));
  const q = requested.searchParams.get("q");
  if (req.method === "GET" && path.length === 4 && q) {
    const terms = q.toLowerCase().split(/\s+/);
    const words = terms.filter((t) => !t.startsWith("-"));
    const { rows, total } = await store.search(
      agent.id,
      words,
      terms.filter((t) => t.startsWith("-")).map((t) => t.slice(1)),
    );
    return send(res, 200, { data: await emailsJson(rows), total, limit: 50, offset: 0 });
  }
  if (req.method === "GET" && path.length === 4) {
    const { rows, total } = await store.emailPage(agent.id, 50, 0);
    return send(res, 200, { data: await emailsJson(rows), total, limit: 50, offset: 0 });
  }
  const emailId = path[4] ?? "";
  if (req.method === "GET") {
    const email = await store.email(agent.id, emailId);
    return email ? send(res, 200, (await emailsJson([email]))[0]) : send(res, 404, { error: "Not Found" });
  }
  if (req.method === "PATCH") {
    await readBody(req);
    const email = await store.markRead(agent.id, emailId);
    return email ? send(res, 200, (await emailsJson([email]))[0]) : send(res, 404, { error: "Not Found" });
  }
  if (req.method === "POST" && mailer) {
    const { to, subject, text } = JSON.parse(await readBody(req)) as { to: string; subject: string; text: string };
    await mailer.sendMail({ from: `${agent.id}@${domain}`, to, subject, text });
    return send(res, 201, { id: randomUUID(), to, subject, sentAt: Date.now(), threadId: randomUUID() });
  }
  send(res, 404, { error: "Not Found" });
}

const server = createServer((req, res) => {
  handle(req, res).catch((error: unknown) => send(res, 500, { error: String(error) }));
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
