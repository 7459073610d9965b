import { randomUUID } from "node:crypto";
import { lockThreadLabels, writeLabels } from "../db/labels.ts";
import type { Tx } from "../db/statements.ts";
import {
  claimMessageIds,
  insertThread,
  mergeThread,
  referencesOf,
  sentMessageOf,
  threadSlice as sliceOfThreads,
  type ThreadQuery,
  threadById,
  threadPage,
  threadsOfIds,
  widenThread,
} from "../db/threads.ts";
import { ServiceError } from "../errors.ts";
import type { Email, Prisma, SentEmail, Thread } from "../generated/prisma/sqlite/client.ts";
import { addressOf } from "./agents.ts";
import type { Reader } from "./emails.ts";
import { folderToRead } from "./folders.ts";
import { checkedLabels, type LabelChange, labelSelector, relabelled } from "./labels.ts";
import { type Page, type PageRequest, readPage, type SliceRequest } from "./pages.ts";
import { addressesOf } from "./records.ts";
import type { Services } from "./services.ts";
import { baseSubject } from "./subjects.ts";

// Threads: messages linked by Message-ID, never by subject. A thread keeps
// every Message-ID its messages have or name (ThreadMessageId), so a message
// joins the thread of the ids it names: its parent's, or, when the parent has
// not arrived yet, the thread of a sibling that named the same parent. A
// parent that arrives after its children finds them through its own id, and
// their thread joins its own. A message never moves messages of a thread it
// merely names. A thread carries labels of its own (labels.ts), which a
// thread merged into another brings along.

/** References past this many (the oldest) are not looked up. */
const MAX_NAMED = 100;
/** A header line's length, less room for "References: ". */
const MAX_REFERENCES_LENGTH = 998 - "References: ".length;

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

/** The Message-IDs a message names, its parents first (In-Reply-To, then References newest first), with its own. */
export function threadIdsOf(message: Pick<Threading, "messageId" | "inReplyTo" | "references">) {
  const own = message.messageId;
  const parents = [message.inReplyTo, ...[...message.references].reverse()]
    .filter((id): id is string => id !== null)
    .slice(0, MAX_NAMED);
  const ids = [...new Set([...parents, ...(own ? [own] : [])])];
  return { own, parents, ids };
}

const parentThread = (parents: string[], known: Map<string, string>) =>
  parents.map((id) => known.get(id)).find((id) => id !== undefined);

/**
 * The thread, other than `joined`, waiting for the message as the missing parent its children named, or
 * undefined. Not one that holds the message the agent sent under that id: a stranger who writes it as his own
 * (he was a recipient) and answers his own would pull the agent's conversation into his. (A message that only
 * has that id joins that thread, as a copy of the agent's coming back does, and as a reply to it would.)
 */
async function waitingThread(tx: Tx, agentId: string, own: string | null, known: Map<string, string>, joined: string) {
  if (own === null) return undefined;
  const waiting = known.get(own);
  if (waiting === undefined || waiting === joined) return undefined;
  return (await sentMessageOf(tx, agentId, own)) ? undefined : waiting;
}

/**
 * The thread a new message joins, inside the transaction that stores it:
 * its parent's, found through In-Reply-To, then References newest first;
 * else the thread of children that came before it, waiting for it as their
 * missing parent; else a new one. Only that waiting thread is merged in.
 */
export async function joinThread(tx: Tx, message: Threading): Promise<string> {
  const { agentId, at } = message;
  const { own, parents, ids } = threadIdsOf(message);
  const subject = baseSubject(message.subject);
  const known = await threadsOfIds(tx, agentId, ids);
  const named = message.threadId ?? parentThread(parents, known) ?? (own ? known.get(own) : undefined);
  // A thread named when the message was written (a draft's) may have been deleted since: it starts anew.
  const started = named === undefined || !(await widenThread(tx, named, subject, at, at));
  const threadId = started ? randomUUID() : named;
  if (started) await insertThread(tx, { id: threadId, agentId, subject, at });
  const claimed = await claimMessageIds(tx, agentId, ids, threadId);
  return settleThread(tx, message, { threadId, started, known, claimed });
}

/** A thread a message starts, its row and the ids it claims, before they are written. */
export interface Started {
  thread: { id: string; agentId: string; subject: string; at: Date };
  ids: string[];
}

/**
 * The thread a message starts when none of the ids it has or names is known
 * to the agent's threads (joinThread would start one and merge nothing),
 * else null: written later, with other messages' (settleThread after).
 */
export function startedThread(message: Threading, known: ReadonlyMap<string, string>): Started | null {
  const { ids } = threadIdsOf(message);
  if (message.threadId || ids.some((id) => known.has(id))) return null;
  const thread = { id: randomUUID(), agentId: message.agentId, subject: baseSubject(message.subject), at: message.at };
  return { thread, ids };
}

/**
 * Once the message's ids are claimed for its thread (joinThread, or a batch's
 * started threads): its thread, the claims of concurrent writers met. A
 * thread it started joins its parent's, found meanwhile; a thread waiting
 * for it as a missing parent joins its own.
 */
export async function settleThread(
  tx: Tx,
  message: Threading,
  claim: { threadId: string; started: boolean; known: Map<string, string>; claimed: Set<string> },
): Promise<string> {
  const { own, parents, ids } = threadIdsOf(message);
  const { started, claimed } = claim;
  let { threadId, known } = claim;
  // An id neither claimed now nor known before was claimed by a concurrent writer meanwhile: read them again.
  if (ids.some((id) => !claimed.has(id) && !known.has(id))) known = await threadsOfIds(tx, message.agentId, ids);
  else for (const id of claimed) known.set(id, threadId);
  const parent = parentThread(parents, known);
  if (started && parent !== undefined && parent !== threadId) {
    // A sibling filed meanwhile started the parent's thread: this new one, holding only this message, joins it.
    await mergeThread(tx, threadId, parent);
    threadId = parent;
  }
  const waiting = await waitingThread(tx, message.agentId, own, known, threadId);
  if (waiting !== undefined) await mergeThread(tx, waiting, threadId);
  return threadId;
}

/** References joined stay within a header line: the oldest but the first go, as RFC 5322 suggests. */
export function trimReferences(ids: string[]): string[] {
  const kept = [...ids];
  while (kept.length > 2 && kept.join(" ").length > MAX_REFERENCES_LENGTH) kept.splice(1, 1);
  return kept;
}

/** The References of a message answering `parent`: the parent's own, then the parent, when the reader sees it. */
export async function referencesFor(
  services: Services,
  reader: { id: string; hidden?: string | null },
  parent: string,
): Promise<string[]> {
  const references = await referencesOf(services, reader.id, parent, reader.hidden ?? null);
  const before = references ? references.split(" ") : [];
  return trimReferences([...before.filter((id) => id !== parent), parent]);
}

const lowerUnique = (addresses: string[]) => [...new Set(addresses.map((a) => a.toLowerCase()).filter(Boolean))];

/** What a thread's participants are read from: its received and its sent messages' addresses. */
export interface ThreadAddresses {
  agent: { id: string; domain: string | null };
  emails: { fromAddress: string; toList: Prisma.JsonValue; ccList: Prisma.JsonValue }[];
  sent: { toList: Prisma.JsonValue; ccList: Prisma.JsonValue; bccList: Prisma.JsonValue }[];
}

/** Every address involved in a thread, in lower case, each once: the agent's own for what it sent. */
export function participantsOf(services: Services, thread: ThreadAddresses): string[] {
  const own = addressOf(thread.agent, services.config);
  return lowerUnique([
    ...thread.emails.flatMap((e) => [e.fromAddress, ...addressesOf(e.toList), ...addressesOf(e.ccList)]),
    ...thread.sent.flatMap((s) => [own, ...addressesOf(s.toList), ...addressesOf(s.ccList), ...addressesOf(s.bccList)]),
  ]);
}

/** A thread's received messages not yet read: what its unread count counts. */
export const UNREAD_EMAILS = { isRead: false } as const;

/** A message of a thread: an email received, or one sent. */
export type ThreadMessage = { direction: "received"; email: Email } | { direction: "sent"; sent: SentEmail };

/** The columns a thread's messages are put in order by (threadMessages): time, then id. */
export const MESSAGE_ORDER = {
  emails: { id: true, receivedAt: true },
  sent: { id: true, sentAt: true },
} as const;

/** A thread's received and sent messages, oldest first; at one time, by id. */
export function threadMessages(thread: { emails: Email[]; sent: SentEmail[] }): ThreadMessage[] {
  const messages: (ThreadMessage & { at: number; id: string })[] = [
    ...thread.emails.map((email) => ({ direction: "received" as const, email, at: +email.receivedAt, id: email.id })),
    ...thread.sent.map((sent) => ({ direction: "sent" as const, sent, at: +sent.sentAt, id: sent.id })),
  ];
  return messages.sort((a, b) => a.at - b.at || a.id.localeCompare(b.id));
}

/** Which threads a list shows: with received mail in a folder, with labels (-label: without). */
export interface ThreadFilter {
  folder?: string | null;
  label?: readonly string[] | null;
}

/** The agent's threads that hold messages, newest activity first; narrowed by folder and labels. */
export async function listThreads(
  services: Services,
  agent: Reader & { id: string },
  request: PageRequest & ThreadFilter,
  query: ThreadQuery,
): Promise<Page<Thread>> {
  return readPage(request, async (window) =>
    threadPage(services, await scopeOf(services, agent, request), window, query),
  );
}

/** Threads after or before a position, for cursor paging. */
export async function threadSlice(
  services: Services,
  agent: Reader & { id: string },
  filter: ThreadFilter,
  request: SliceRequest,
  query: ThreadQuery,
): Promise<Thread[]> {
  return sliceOfThreads(services, await scopeOf(services, agent, filter), request, query);
}

/**
 * One of the agent's threads; 404 when it is another's, or holds no message any more (none but those in the folder
 * the reader is barred from).
 */
export async function getThread(
  services: Services,
  reader: Reader & { id: string },
  threadId: string,
  query: ThreadQuery = {},
): Promise<Thread> {
  const thread = await threadById(services, reader.id, threadId, query, reader.hidden ?? null);
  if (!thread) throw new ServiceError("NOT_FOUND", "Thread not found");
  return thread;
}

const scopeOf = async (services: Services, reader: Reader & { id: string }, filter: ThreadFilter) => ({
  agentId: reader.id,
  folder: filter.folder == null ? null : await folderToRead(services, reader.id, filter.folder),
  labels: labelSelector(filter.label),
  hidden: reader.hidden ?? null,
});

/** A thread's received messages a reader sees: all but those in the folder it is barred from (hiddenFolder). */
export const shownEmails = (hidden: string | null) => (hidden === null ? {} : { folder: { not: hidden } });

/**
 * Puts labels on a thread and takes them off: the thread's own, whatever its messages carry. A thread the reader does
 * not see (junk alone, to a key barred from junk) is not found, as getThread answers.
 */
export async function updateThread(
  services: Services,
  reader: Reader & { id: string },
  threadId: string,
  change: LabelChange,
  query: ThreadQuery = {},
): Promise<Thread> {
  const labels = checkedLabels(change);
  if (labels === null) throw new ServiceError("BAD_REQUEST", "Give addLabels or removeLabels");
  if (reader.hidden) await getThread(services, reader, threadId, { select: { id: true } });
  await services.sql.transaction(async (tx) => {
    const current = await lockThreadLabels(tx, reader.id, threadId);
    if (current === null) throw new ServiceError("NOT_FOUND", "Thread not found");
    const relabelling = relabelled(current, labels, "thread");
    if (relabelling.added.length + relabelling.removed.length > 0) {
      await writeLabels(tx, "Thread", threadId, relabelling);
    }
  });
  return getThread(services, reader, threadId, query);
}
