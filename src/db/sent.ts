import type { Prisma, SentEmail } from "../generated/prisma/sqlite/client.ts";
import type { Store } from "./client.ts";
import { keysetArgs, pageOf, rangeOf, type SliceRequest, type Window } from "./pages.ts";
import { insertRow } from "./rows.ts";
import type { Tx } from "./statements.ts";

// Reading what an agent sent, with whatever the caller selects beneath it
// (its thread and that thread's messages) loaded by the same query.

/** What a read of sent mail loads with each: the GraphQL selection, as Prisma takes it. */
export type SentQuery = { include?: Prisma.SentEmailInclude } | { select?: Prisma.SentEmailSelect };

/** One page of the agent's sent mail, newest first, and how much there is in all. */
export function sentPage({ prisma: db }: Store, agentId: string, window: Window, query: SentQuery) {
  const where = { agentId };
  const orderBy = [{ sentAt: "desc" }, { id: "desc" }] satisfies Prisma.SentEmailOrderByWithRelationInput[];
  return pageOf(window, () => [
    db.sentEmail.findMany({ ...query, where, orderBy, ...rangeOf(window) }) as PromiseLike<SentEmail[]>,
    db.sentEmail.count({ where }),
  ]);
}

/** Sent mail after or before a position in newest-first order (oldest first when inverted), for cursor paging. */
export async function sentSlice({ prisma: db }: Store, agentId: string, slice: SliceRequest, query: SentQuery) {
  return (await db.sentEmail.findMany({ ...query, ...keysetArgs("sentAt", { agentId }, slice) })) as SentEmail[];
}

/** One of the agent's sent emails, or null. */
export async function sentById({ prisma: db }: Store, agentId: string, id: string, query: SentQuery = {}) {
  return (await db.sentEmail.findFirst({ ...query, where: { id, agentId } })) as SentEmail | null;
}

/** A sent email's row as written: its addresses joined with ", ", its references with spaces. */
export type NewSent = Omit<SentEmail, "providerId" | "deliveryStatus">;

// Sending writes in the transaction that takes its quota, or in the one that
// writes its event; both are our own: raw SQL.

export function insertSent(tx: Tx, sent: NewSent): Promise<void> {
  return insertRow(tx, "SentEmail", sent);
}

/**
 * How many sends went into the thread since a time, and the oldest of them.
 * The thread's row is locked first, so that sends into it in other
 * transactions (on any instance) wait and count this one.
 */
export async function sendsIntoThread(
  tx: Tx,
  threadId: string,
  since: Date,
): Promise<{ count: number; oldest: Date | null }> {
  await tx.one(`SELECT "id" FROM "Thread" WHERE "id" = ?${tx.forUpdate}`, [threadId]);
  const row = await tx.one(
    `SELECT COUNT(*) AS "count", MIN("sentAt") AS "oldest" FROM "SentEmail" WHERE "threadId" = ? AND "sentAt" > ?`,
    [threadId, tx.at(since)],
  );
  return { count: Number(row?.count ?? 0), oldest: row?.oldest == null ? null : tx.date(row.oldest) };
}

/** Whose sent email this is: its agent's id, or null when there is no such email. */
export async function agentOfSent(tx: Tx, id: string): Promise<string | null> {
  const row = await tx.one(`SELECT "agentId" FROM "SentEmail" WHERE "id" = ?`, [id]);
  return row ? String(row.agentId) : null;
}

/** Gives the sent email the provider's id for it; false when it was deleted meanwhile. */
export async function setProviderId(tx: Tx, id: string, providerId: string): Promise<boolean> {
  return (await tx.run(`UPDATE "SentEmail" SET "providerId" = ? WHERE "id" = ?`, [providerId, id])) > 0;
}

/** Deletes a sent email; its size, or null when it was not there (or not the agent's, when one is named). */
export async function deleteSentRow(tx: Tx, id: string, agentId?: string): Promise<number | null> {
  const mine = agentId === undefined ? "" : ` AND "agentId" = ?`;
  const params = agentId === undefined ? [id] : [id, agentId];
  const row = await tx.one(`SELECT "size" FROM "SentEmail" WHERE "id" = ?${mine}${tx.forUpdate}`, params);
  if (!row || (await tx.run(`DELETE FROM "SentEmail" WHERE "id" = ?${mine}`, params)) === 0) return null;
  return Number(row.size);
}
