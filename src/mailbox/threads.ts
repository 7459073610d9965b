import { randomUUID } from "node:crypto";
import type { Param, Row, Sql, Statements } from "../db/sql.ts";
import { ServiceError } from "../errors.ts";
import { addressOf } from "./agents.ts";
import { folderName } from "./folders.ts";
import { keysetSlice, offsetPage, type Page, type PageRequest, type SliceRequest } from "./pages.ts";
import {
  EMAIL_COLUMNS,
  type EmailRecord,
  emailFromRow,
  SENT_COLUMNS,
  type SentRecord,
  sentFromRow,
} from "./records.ts";
import type { Services } from "./services.ts";

// Threads: messages linked by Message-ID, never by subject. A thread keeps
// every Message-ID its messages have or name (ThreadMessageId), so a message
// joins the thread of the ids it names: its parent's, or, when the parent has
// not arrived yet, the thread of a sibling that named the same parent. A
// parent that arrives after its children finds them through its own id, and
// two threads that turn out to be one conversation are merged.

/** Re:, Fwd: and their kin in other languages and clients, stacked or not. */
const PREFIXES = /^\s*(?:(?:re|fwd?|aw|sv|vs|wg|tr|rv|antw|odp)\s*(?:\[\d+\])?\s*:\s*)+/i;
/** References past this many (the oldest) are not looked up. */
const MAX_NAMED = 100;
/** A header line's length, less room for "References: ". */
const MAX_REFERENCES_LENGTH = 998 - "References: ".length;

export function baseSubject(subject: string | null): string {
  return (subject ?? "").replace(PREFIXES, "").trim();
}

export interface ThreadRecord {
  id: string;
  subject: string;
  participants: string[];
  messageCount: number;
  unreadCount: number;
  lastMessageAt: Date;
}

export type ThreadMessage = (EmailRecord & { direction: "received" }) | (SentRecord & { direction: "sent" });

/** What threading needs of a message being filed or sent. */
export interface Threading {
  agentId: string;
  messageId: string | null;
  inReplyTo: string | null;
  /** Oldest first, as the header has them. */
  references: string[];
  subject: string | null;
  at: Date;
  /** The thread it belongs in whatever its ids say (a reply's or a forward's original's), when there is one. */
  threadId?: string | null;
}

const placeholders = (count: number) => Array.from({ length: count }, () => "?").join(", ");

async function threadsOf(tx: Statements, agentId: string, messageIds: string[]): Promise<Map<string, string>> {
  if (messageIds.length === 0) return new Map();
  const rows = await tx.all(
    `SELECT "messageId", "threadId" FROM "ThreadMessageId" WHERE "agentId" = ? AND "messageId" IN (${placeholders(messageIds.length)})`,
    [agentId, ...messageIds],
  );
  return new Map(rows.map((row) => [row.messageId as string, row.threadId as string]));
}

/** Moves everything of one thread into another; the first message's subject wins. */
async function merge(tx: Statements, sql: Sql, from: string, into: string): Promise<void> {
  const source = await tx.one(`SELECT "subject", "startedAt", "lastMessageAt" FROM "Thread" WHERE "id" = ?`, [from]);
  if (!source) return;
  for (const table of ["Email", "SentEmail", "ThreadMessageId"]) {
    await tx.run(`UPDATE "${table}" SET "threadId" = ? WHERE "threadId" = ?`, [into, from]);
  }
  await tx.run(`DELETE FROM "Thread" WHERE "id" = ?`, [from]);
  await touch(tx, sql, into, source.subject as string, sql.date(source.startedAt), sql.date(source.lastMessageAt));
}

/** A thread took in messages from `startedAt` to `lastAt`: it starts and ends no later and no earlier than they do. */
async function touch(tx: Statements, sql: Sql, threadId: string, subject: string, startedAt: Date, lastAt: Date) {
  await tx.run(
    `UPDATE "Thread" SET
       "subject" = CASE WHEN "startedAt" > ? THEN ? ELSE "subject" END,
       "startedAt" = CASE WHEN "startedAt" > ? THEN ? ELSE "startedAt" END,
       "lastMessageAt" = CASE WHEN "lastMessageAt" < ? THEN ? ELSE "lastMessageAt" END
     WHERE "id" = ?`,
    [sql.at(startedAt), subject, sql.at(startedAt), sql.at(startedAt), sql.at(lastAt), sql.at(lastAt), threadId],
  );
}

/**
 * The thread a new message joins, inside the transaction that stores it:
 * the one of In-Reply-To, then of References newest first, then of its own
 * Message-ID (a child that came first); else a new one. Every other thread
 * those ids lead to is merged into it.
 */
export async function threadFor(tx: Statements, sql: Sql, message: Threading): Promise<string> {
  const named = [message.inReplyTo, ...[...message.references].reverse()].filter((id): id is string => id !== null);
  const ids = [...new Set([...named.slice(0, MAX_NAMED), ...(message.messageId ? [message.messageId] : [])])];
  const subject = baseSubject(message.subject);
  let known = await threadsOf(tx, message.agentId, ids);
  let threadId = message.threadId ?? ids.map((id) => known.get(id)).find((id) => id !== undefined);
  if (threadId === undefined) {
    threadId = randomUUID();
    await tx.run(
      `INSERT INTO "Thread" ("id", "agentId", "subject", "startedAt", "lastMessageAt") VALUES (?, ?, ?, ?, ?)`,
      [threadId, message.agentId, subject, sql.at(message.at), sql.at(message.at)],
    );
  } else {
    await touch(tx, sql, threadId, subject, message.at, message.at);
  }
  for (const id of ids) {
    await tx.run(
      `INSERT INTO "ThreadMessageId" ("agentId", "messageId", "threadId") VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
      [message.agentId, id, threadId],
    );
  }
  // Read again after the inserts: a concurrent writer may have claimed an id first.
  known = await threadsOf(tx, message.agentId, ids);
  for (const other of new Set(known.values())) {
    if (other !== threadId) await merge(tx, sql, other, threadId);
  }
  return threadId;
}

/** References joined stay within a header line: the oldest but the first go, as RFC 5322 suggests. */
export function trimReferences(ids: string[]): string[] {
  const kept = [...ids];
  while (kept.length > 2 && kept.join(" ").length > MAX_REFERENCES_LENGTH) kept.splice(1, 1);
  return kept;
}

/** The References of a message answering `parent`: the parent's own, then the parent, when the agent holds it. */
export async function referencesFor(services: Services, agentId: string, parent: string): Promise<string[]> {
  const { sql } = services;
  const row =
    (await sql.one(`SELECT "references" FROM "Email" WHERE "agentId" = ? AND "messageId" = ? LIMIT 1`, [
      agentId,
      parent,
    ])) ??
    (await sql.one(`SELECT "references" FROM "SentEmail" WHERE "agentId" = ? AND "messageId" = ? LIMIT 1`, [
      agentId,
      parent,
    ]));
  const before = typeof row?.references === "string" ? row.references.split(" ") : [];
  return trimReferences([...before.filter((id) => id !== parent), parent]);
}

const lowerUnique = (addresses: string[]) => [...new Set(addresses.map((a) => a.toLowerCase()).filter(Boolean))];
const listOf = (value: unknown) => (typeof value === "string" ? (JSON.parse(value) as string[]) : []);
const joined = (value: unknown) => (typeof value === "string" && value ? value.split(", ") : []);

/** Counts and participants of each thread, from its messages. */
async function summaries(services: Services, agentId: string, rows: Row[]): Promise<ThreadRecord[]> {
  const { sql, config } = services;
  if (rows.length === 0) return [];
  const ids = rows.map((row) => row.id as string);
  const inIds = `"threadId" IN (${placeholders(ids.length)})`;
  const [received, sent] = await Promise.all([
    sql.all(
      `SELECT "threadId", "fromAddress", "toList", "ccList", "isRead" FROM "Email" WHERE ${inIds} ORDER BY "receivedAt", "id"`,
      ids,
    ),
    sql.all(`SELECT "threadId", "to", "cc", "bcc" FROM "SentEmail" WHERE ${inIds} ORDER BY "sentAt", "id"`, ids),
  ]);
  const own = addressOf({ id: agentId }, config);
  return rows.map((row) => {
    const mine = received.filter((r) => r.threadId === row.id);
    const ours = sent.filter((s) => s.threadId === row.id);
    const addresses = [
      ...mine.flatMap((r) => [r.fromAddress as string, ...listOf(r.toList), ...listOf(r.ccList)]),
      ...ours.flatMap((s) => [own, ...joined(s.to), ...joined(s.cc), ...joined(s.bcc)]),
    ];
    return {
      id: row.id as string,
      subject: row.subject as string,
      participants: lowerUnique(addresses),
      messageCount: mine.length + ours.length,
      unreadCount: mine.filter((r) => !sql.flag(r.isRead)).length,
      lastMessageAt: sql.date(row.lastMessageAt),
    };
  });
}

/** The agent's threads that hold messages; with a folder, those with received mail in it. */
function threadsWhere(agentId: string, folder: string | null | undefined): { where: string; params: Param[] } {
  const hasEmail = `EXISTS (SELECT 1 FROM "Email" e WHERE e."threadId" = "Thread"."id"`;
  if (folder != null) {
    return { where: `"agentId" = ? AND ${hasEmail} AND e."folder" = ?)`, params: [agentId, folderName(folder)] };
  }
  const hasSent = `EXISTS (SELECT 1 FROM "SentEmail" s WHERE s."threadId" = "Thread"."id")`;
  return { where: `"agentId" = ? AND (${hasEmail}) OR ${hasSent})`, params: [agentId] };
}

const THREAD_COLUMNS = `"id", "subject", "lastMessageAt"`;

/** The agent's threads, newest activity first. */
export async function listThreads(
  services: Services,
  agent: { id: string },
  request: PageRequest & { folder?: string | null },
): Promise<Page<ThreadRecord>> {
  const order = `"lastMessageAt" DESC, "id" DESC`;
  const threads = { table: "Thread", columns: THREAD_COLUMNS, order, ...threadsWhere(agent.id, request.folder) };
  const page = await offsetPage(services.sql, threads, request);
  return { ...page, data: await summaries(services, agent.id, page.data) };
}

/** Threads after or before a position, for cursor paging. */
export async function threadSlice(
  services: Services,
  agent: { id: string },
  folder: string | null | undefined,
  request: SliceRequest,
): Promise<ThreadRecord[]> {
  const select = `SELECT ${THREAD_COLUMNS} FROM "Thread"`;
  const rows = await keysetSlice(
    services.sql,
    { select, time: "lastMessageAt", ...threadsWhere(agent.id, folder) },
    request,
  );
  return summaries(services, agent.id, rows);
}

/** One thread with its messages, received and sent, oldest first. */
export async function getThread(
  services: Services,
  agent: { id: string },
  threadId: string,
): Promise<ThreadRecord & { messages: ThreadMessage[] }> {
  const { sql } = services;
  const row = await sql.one(`SELECT ${THREAD_COLUMNS} FROM "Thread" WHERE "id" = ? AND "agentId" = ?`, [
    threadId,
    agent.id,
  ]);
  const [thread] = row ? await summaries(services, agent.id, [row]) : [];
  if (!thread || thread.messageCount === 0) throw new ServiceError("NOT_FOUND", "Thread not found");
  const [received, sent] = await Promise.all([
    sql.all(`SELECT ${EMAIL_COLUMNS} FROM "Email" WHERE "threadId" = ?`, [threadId]),
    sql.all(`SELECT ${SENT_COLUMNS} FROM "SentEmail" WHERE "threadId" = ?`, [threadId]),
  ]);
  const messages: ThreadMessage[] = [
    ...received.map((r) => ({ ...emailFromRow(sql, r), direction: "received" as const })),
    ...sent.map((s) => ({ ...sentFromRow(sql, s), direction: "sent" as const })),
  ];
  const at = (m: ThreadMessage) => (m.direction === "received" ? m.receivedAt : m.sentAt).getTime();
  messages.sort((a, b) => at(a) - at(b) || a.id.localeCompare(b.id));
  return { ...thread, messages };
}
