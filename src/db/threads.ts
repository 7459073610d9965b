import type { Prisma, Thread } from "../generated/prisma/sqlite/client.ts";
import type { Store } from "./client.ts";
import { outsideFolder } from "./emails.ts";
import { type LabelSelector, threadLabelWhere } from "./labels.ts";
import { keysetArgs, pageOf, rangeOf, type SliceRequest, type Window } from "./pages.ts";
import { insertRows, rowOf, statementChunks, written } from "./rows.ts";
import { inList, type Tx } from "./statements.ts";

// Reading an agent's threads, with whatever the caller selects beneath them
// (their emails, sent mail, attachments) loaded by the same query.

/** What a read of threads loads with each: the GraphQL selection, as Prisma takes it. */
export type ThreadQuery = { include?: Prisma.ThreadInclude } | { select?: Prisma.ThreadSelect };

/** Which threads: the agent's that hold a message; with a folder, those with received mail in it; with labels, those the labels select. */
export interface ThreadScope {
  agentId: string;
  folder: string | null;
  labels?: LabelSelector | null;
  /** A folder whose mail is left out: a thread holding no other message is none. */
  hidden?: string | null;
}

function threadsWhere({ agentId, folder, labels, hidden }: ThreadScope): Prisma.ThreadWhereInput {
  const labelled = labels ? { AND: threadLabelWhere(labels) } : {};
  const shown = outsideFolder(hidden);
  if (folder !== null) return { agentId, emails: { some: { AND: [{ folder }, shown] } }, ...labelled };
  return { agentId, OR: [{ emails: { some: shown } }, { sent: { some: {} } }], ...labelled };
}

const NEWEST_FIRST = [{ lastMessageAt: "desc" }, { id: "desc" }] satisfies Prisma.ThreadOrderByWithRelationInput[];

/** One page of threads, newest activity first, and how many there are in all. */
export function threadPage({ prisma: db }: Store, scope: ThreadScope, window: Window, query: ThreadQuery) {
  const where = threadsWhere(scope);
  return pageOf(window, () => [
    db.thread.findMany({ ...query, where, orderBy: NEWEST_FIRST, ...rangeOf(window) }) as PromiseLike<Thread[]>,
    db.thread.count({ where }),
  ]);
}

/** Threads after or before a position in newest-first order (oldest first when inverted), for cursor paging. */
export async function threadSlice({ prisma: db }: Store, scope: ThreadScope, slice: SliceRequest, query: ThreadQuery) {
  const rows = await db.thread.findMany({ ...query, ...keysetArgs("lastMessageAt", threadsWhere(scope), slice) });
  return rows as Thread[];
}

/** One of the agent's threads that holds a message (not counting those in the folder left out), or null. */
export async function threadById(
  { prisma: db }: Store,
  agentId: string,
  threadId: string,
  query: ThreadQuery = {},
  hidden: string | null = null,
) {
  const row = await db.thread.findFirst({
    ...query,
    where: { id: threadId, ...threadsWhere({ agentId, folder: null, hidden }) },
  });
  return row as Thread | null;
}

/**
 * The message's references, when the agent holds a message of this Message-ID: received first (outside the folder
 * the reader is barred from), else sent.
 */
export async function referencesOf(
  { prisma }: Store,
  agentId: string,
  messageId: string,
  hidden: string | null,
): Promise<string | null> {
  const where = { agentId, messageId };
  const received = await prisma.email.findFirst({
    where: { ...where, ...outsideFolder(hidden) },
    select: { references: true },
  });
  if (received) return received.references;
  const sent = await prisma.sentEmail.findFirst({ where, select: { references: true } });
  return sent?.references ?? null;
}

// Threading runs inside the transaction that stores a message, which is our
// own (filing's with its cursor, sending's with its quota): raw SQL.

/**
 * Whether the agent sent a message of this Message-ID: an id a message already has, not one only named. (A
 * received message of the id is one filed already: a second is a duplicate, never threaded.)
 */
export async function sentMessageOf(tx: Tx, agentId: string, messageId: string): Promise<boolean> {
  const row = await tx.one(`SELECT 1 AS "sent" FROM "SentEmail" WHERE "messageId" = ? AND "agentId" = ?`, [
    messageId,
    agentId,
  ]);
  return row !== undefined;
}

/** The threads these Message-IDs of the agent belong to, by id. */
export async function threadsOfIds(tx: Tx, agentId: string, messageIds: string[]): Promise<Map<string, string>> {
  if (messageIds.length === 0) return new Map();
  const ids = inList(messageIds);
  const rows = await tx.all(
    `SELECT "messageId", "threadId" FROM "ThreadMessageId" WHERE "agentId" = ? AND "messageId" IN (${ids.list})`,
    [agentId, ...ids.params],
  );
  return new Map(rows.map((row) => [row.messageId as string, row.threadId as string]));
}

export async function insertThread(tx: Tx, thread: { id: string; agentId: string; subject: string; at: Date }) {
  await tx.run(
    `INSERT INTO "Thread" ("id", "agentId", "subject", "startedAt", "lastMessageAt") VALUES (?, ?, ?, ?, ?)`,
    [thread.id, thread.agentId, thread.subject, tx.at(thread.at), tx.at(thread.at)],
  );
}

/** Inserts new threads, each started by one message at its time, a statement for many. */
export async function insertThreads(tx: Tx, threads: { id: string; agentId: string; subject: string; at: Date }[]) {
  const rows = threads.map(({ id, agentId, subject, at }) => ({
    id,
    agentId,
    subject,
    startedAt: at,
    lastMessageAt: at,
  }));
  await insertRows(tx, "Thread", rows);
}

/** A Message-ID an agent's thread holds. */
export interface MessageIdClaim {
  agentId: string;
  messageId: string;
  threadId: string;
}

/** The claim's text in the set claimAll answers. */
export const claimKey = ({ agentId, messageId }: { agentId: string; messageId: string }) => `${agentId}\n${messageId}`;

/**
 * Records the Message-IDs as their threads', as claimMessageIds does for one
 * thread, for several agents' threads at once: a statement for many. The
 * claims this call made, by claimKey. Each agent's id given once.
 */
export async function claimAll(tx: Tx, claims: MessageIdClaim[]): Promise<Set<string>> {
  const claimed = new Set<string>();
  for (const chunk of statementChunks(claims)) {
    const rows = await tx.all(
      `INSERT INTO "ThreadMessageId" ("agentId", "messageId", "threadId") VALUES ${chunk.map(() => "(?, ?, ?)").join(", ")}
       ON CONFLICT DO NOTHING RETURNING "agentId", "messageId"`,
      chunk.flatMap(({ agentId, messageId, threadId }) => [agentId, messageId, threadId]),
    );
    for (const row of rows) claimed.add(claimKey(row as { agentId: string; messageId: string }));
  }
  return claimed;
}

/**
 * A thread took in messages from `startedAt` to `lastAt`: it starts and ends no
 * later and no earlier than they do. False when there is no such thread (any more).
 */
export async function widenThread(tx: Tx, threadId: string, subject: string, startedAt: Date, lastAt: Date) {
  const widened = await tx.run(
    `UPDATE "Thread" SET
       "subject" = CASE WHEN "startedAt" > ? THEN ? ELSE "subject" END,
       "startedAt" = CASE WHEN "startedAt" > ? THEN ? ELSE "startedAt" END,
       "lastMessageAt" = CASE WHEN "lastMessageAt" < ? THEN ? ELSE "lastMessageAt" END
     WHERE "id" = ?`,
    [tx.at(startedAt), subject, tx.at(startedAt), tx.at(startedAt), tx.at(lastAt), tx.at(lastAt), threadId],
  );
  return widened > 0;
}

/**
 * Records the Message-IDs as the thread's, in one statement; one another
 * thread claimed first stays that thread's. The ids this call claimed.
 */
export async function claimMessageIds(
  tx: Tx,
  agentId: string,
  messageIds: string[],
  threadId: string,
): Promise<Set<string>> {
  if (messageIds.length === 0) return new Set();
  const rows = await tx.all(
    `INSERT INTO "ThreadMessageId" ("agentId", "messageId", "threadId") VALUES ${messageIds.map(() => "(?, ?, ?)").join(", ")}
     ON CONFLICT DO NOTHING RETURNING "messageId"`,
    messageIds.flatMap((messageId) => [agentId, messageId, threadId]),
  );
  return new Set(rows.map((row) => row.messageId as string));
}

/** Moves everything of one thread into another; the first message's subject wins, and it keeps the labels of both. */
export async function mergeThread(tx: Tx, from: string, into: string): Promise<void> {
  const row = await tx.one(`SELECT "subject", "startedAt", "lastMessageAt", "labels" FROM "Thread" WHERE "id" = ?`, [
    from,
  ]);
  if (!row) return;
  const source = rowOf(tx, "Thread", row);
  for (const table of ["Email", "SentEmail", "ThreadMessageId"]) {
    await tx.run(`UPDATE "${table}" SET "threadId" = ? WHERE "threadId" = ?`, [into, from]);
  }
  await mergeLabels(tx, from, into, source.labels as string[]);
  await tx.run(`DELETE FROM "Thread" WHERE "id" = ?`, [from]);
  await widenThread(tx, into, source.subject, source.startedAt, source.lastMessageAt);
}

/** The labels of a thread merged away join those of the thread it merges into. */
async function mergeLabels(tx: Tx, from: string, into: string, labels: string[]): Promise<void> {
  if (labels.length === 0) return;
  const row = await tx.one(`SELECT "labels" FROM "Thread" WHERE "id" = ?`, [into]);
  if (!row) return;
  const kept = rowOf(tx, "Thread", row).labels as string[];
  const merged = [...kept, ...labels.filter((name) => !kept.includes(name))];
  await tx.run(`UPDATE "Thread" SET "labels" = ? WHERE "id" = ?`, [written(tx, "Thread", "labels", merged), into]);
  await tx.run(
    `INSERT INTO "ThreadLabel" ("threadId", "name") SELECT ?, "name" FROM "ThreadLabel" WHERE "threadId" = ? ON CONFLICT DO NOTHING`,
    [into, from],
  );
}
