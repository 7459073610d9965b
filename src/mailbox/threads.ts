import { randomUUID } from "node:crypto";
import type { Sql, Statements } from "../db/sql.ts";
import { threadSlice as sliceOfThreads, type ThreadQuery, threadById, threadPage } from "../db/threads.ts";
import { ServiceError } from "../errors.ts";
import type { Thread } from "../generated/prisma/sqlite/client.ts";
import { addressOf } from "./agents.ts";
import { folderName } from "./folders.ts";
import { type Page, type PageRequest, pageWindow, type SliceRequest } from "./pages.ts";
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

export type { ThreadQuery };

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
const listOf = (json: string) => JSON.parse(json) as string[];
const joined = (text: string | null) => (text ? text.split(", ") : []);

/** What a thread's participants are read from: its received and its sent messages' addresses. */
export interface ThreadAddresses {
  agentId: string;
  emails: { fromAddress: string; toList: string; ccList: string }[];
  sent: { to: string; cc: string | null; bcc: string | null }[];
}

/** Every address involved in a thread, in lower case, each once: the agent's own for what it sent. */
export function participantsOf(services: Services, thread: ThreadAddresses): string[] {
  const own = addressOf({ id: thread.agentId }, services.config);
  return lowerUnique([
    ...thread.emails.flatMap((e) => [e.fromAddress, ...listOf(e.toList), ...listOf(e.ccList)]),
    ...thread.sent.flatMap((s) => [own, ...joined(s.to), ...joined(s.cc), ...joined(s.bcc)]),
  ]);
}

/** The agent's threads that hold messages, newest activity first; with a folder, those with received mail in it. */
export async function listThreads(
  services: Services,
  agent: { id: string },
  request: PageRequest & { folder?: string | null },
  query: ThreadQuery,
): Promise<Page<Thread>> {
  const window = pageWindow(request);
  const page = await threadPage(services.prisma, scopeOf(agent, request.folder), window, query);
  return { ...page, ...window };
}

/** Threads after or before a position, for cursor paging. */
export function threadSlice(
  services: Services,
  agent: { id: string },
  folder: string | null | undefined,
  request: SliceRequest,
  query: ThreadQuery,
): Promise<Thread[]> {
  return sliceOfThreads(services.prisma, scopeOf(agent, folder), request, query);
}

/** One of the agent's threads; 404 when it is another's, or holds no message any more. */
export async function getThread(
  services: Services,
  agent: { id: string },
  threadId: string,
  query: ThreadQuery,
): Promise<Thread> {
  const thread = await threadById(services.prisma, agent.id, threadId, query);
  if (!thread) throw new ServiceError("NOT_FOUND", "Thread not found");
  return thread;
}

const scopeOf = (agent: { id: string }, folder: string | null | undefined) => ({
  agentId: agent.id,
  folder: folder == null ? null : folderName(folder),
});
