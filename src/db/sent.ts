import type { Prisma, SentEmail } from "../generated/prisma/sqlite/client.ts";
import type { Db } from "./client.ts";
import { keysetWhere, type SliceRequest, type Window } from "./pages.ts";

// Reading what an agent sent, with whatever the caller selects beneath it
// (its thread and that thread's messages) loaded by the same query.

/** What a read of sent mail loads with each: the GraphQL selection, as Prisma takes it. */
export type SentQuery = { include?: Prisma.SentEmailInclude } | { select?: Prisma.SentEmailSelect };

/** One page of the agent's sent mail, newest first, and how much there is in all. */
export async function sentPage(db: Db, agentId: string, window: Window, query: SentQuery) {
  const where = { agentId };
  const [data, total] = await Promise.all([
    db.sentEmail.findMany({
      ...query,
      where,
      orderBy: [{ sentAt: "desc" }, { id: "desc" }],
      take: window.limit,
      skip: window.offset,
    }),
    db.sentEmail.count({ where }),
  ]);
  return { data: data as SentEmail[], total };
}

/** Sent mail after or before a position in newest-first order (oldest first when inverted), for cursor paging. */
export async function sentSlice(db: Db, agentId: string, slice: SliceRequest, query: SentQuery) {
  const order = slice.inverted ? "asc" : "desc";
  const rows = await db.sentEmail.findMany({
    ...query,
    where: { AND: [{ agentId }, ...(keysetWhere("sentAt", slice) as Prisma.SentEmailWhereInput[])] },
    orderBy: [{ sentAt: order }, { id: order }],
    take: slice.limit,
  });
  return rows as SentEmail[];
}
