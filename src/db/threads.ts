import type { Prisma, Thread } from "../generated/prisma/sqlite/client.ts";
import type { Db } from "./client.ts";
import { keysetWhere, type SliceRequest, type Window } from "./pages.ts";

// Reading an agent's threads, with whatever the caller selects beneath them
// (their emails, sent mail, attachments) loaded by the same query.

/** What a read of threads loads with each: the GraphQL selection, as Prisma takes it. */
export type ThreadQuery = { include?: Prisma.ThreadInclude } | { select?: Prisma.ThreadSelect };

/** Which threads: the agent's that hold a message; with a folder, those with received mail in it. */
export interface ThreadScope {
  agentId: string;
  folder: string | null;
}

function threadsWhere({ agentId, folder }: ThreadScope): Prisma.ThreadWhereInput {
  if (folder !== null) return { agentId, emails: { some: { folder } } };
  return { agentId, OR: [{ emails: { some: {} } }, { sent: { some: {} } }] };
}

const NEWEST_FIRST = [{ lastMessageAt: "desc" }, { id: "desc" }] satisfies Prisma.ThreadOrderByWithRelationInput[];

/** One page of threads, newest activity first, and how many there are in all. */
export async function threadPage(db: Db, scope: ThreadScope, window: Window, query: ThreadQuery) {
  const where = threadsWhere(scope);
  const [data, total] = await Promise.all([
    db.thread.findMany({ ...query, where, orderBy: NEWEST_FIRST, take: window.limit, skip: window.offset }),
    db.thread.count({ where }),
  ]);
  return { data: data as Thread[], total };
}

/** Threads after or before a position in newest-first order (oldest first when inverted), for cursor paging. */
export async function threadSlice(db: Db, scope: ThreadScope, slice: SliceRequest, query: ThreadQuery) {
  const order = slice.inverted ? "asc" : "desc";
  const rows = await db.thread.findMany({
    ...query,
    where: { AND: [threadsWhere(scope), ...(keysetWhere("lastMessageAt", slice) as Prisma.ThreadWhereInput[])] },
    orderBy: [{ lastMessageAt: order }, { id: order }],
    take: slice.limit,
  });
  return rows as Thread[];
}

/** One of the agent's threads that holds a message, or null. */
export async function threadById(db: Db, agentId: string, threadId: string, query: ThreadQuery) {
  const row = await db.thread.findFirst({
    ...query,
    where: { id: threadId, ...threadsWhere({ agentId, folder: null }) },
  });
  return row as Thread | null;
}
