import type { Draft, Prisma } from "../generated/prisma/sqlite/client.ts";
import type { Store } from "./client.ts";
import { keysetWhere, type SliceRequest, type Window } from "./pages.ts";
import { columnsOf, insertRow, rowOf } from "./rows.ts";
import type { Tx } from "./statements.ts";

// An agent's drafts. Writing one takes or gives back storage in the same
// transaction (quota.ts), and sending one removes it in the transaction that
// takes the send: ours, so raw SQL. Reading them is Prisma's.

export type { Draft };

/** What a read of drafts loads with each: the GraphQL selection, as Prisma takes it. */
export type DraftQuery = { select?: Prisma.DraftSelect } | { include?: Prisma.DraftInclude };

export function insertDraft(tx: Tx, draft: Draft): Promise<void> {
  return insertRow(tx, "Draft", draft);
}

/** The agent's draft, locked until commit so that a change or a send of it waits for this one; or null. */
export async function lockDraft(tx: Tx, agentId: string, id: string): Promise<Draft | null> {
  const row = await tx.one(
    `SELECT ${columnsOf("Draft")} FROM "Draft" WHERE "id" = ? AND "agentId" = ?${tx.forUpdate}`,
    [id, agentId],
  );
  return row ? rowOf(tx, "Draft", row) : null;
}

/** Writes the draft's fields as given (its id and agent stay). */
export async function saveDraft(tx: Tx, draft: Draft): Promise<void> {
  const { id, agentId, ...fields } = draft;
  const names = Object.keys(fields);
  const values = Object.values(fields).map((value) => (value instanceof Date ? tx.at(value) : value));
  await tx.run(
    `UPDATE "Draft" SET ${names.map((name) => `"${name}" = ?`).join(", ")} WHERE "id" = ? AND "agentId" = ?`,
    [...(values as (string | number | null)[]), id, agentId],
  );
}

/** Removes the draft; false when it was gone already. */
export async function deleteDraftRow(tx: Tx, agentId: string, id: string): Promise<boolean> {
  return (await tx.run(`DELETE FROM "Draft" WHERE "id" = ? AND "agentId" = ?`, [id, agentId])) > 0;
}

export function draftById({ prisma }: Store, agentId: string, id: string, query: DraftQuery = {}) {
  return prisma.draft.findFirst({ ...query, where: { id, agentId } }) as Promise<Draft | null>;
}

/** One page of the agent's drafts, newest first, and how many in all. */
export async function draftPage({ prisma }: Store, agentId: string, window: Window, query: DraftQuery) {
  const where = { agentId };
  const [data, total] = await Promise.all([
    prisma.draft.findMany({
      ...query,
      where,
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      take: window.limit,
      skip: window.offset,
    }),
    prisma.draft.count({ where }),
  ]);
  return { data: data as Draft[], total };
}

/** Drafts after or before a position in newest-first order (oldest first when inverted), for cursor paging. */
export async function draftSlice({ prisma }: Store, agentId: string, slice: SliceRequest, query: DraftQuery) {
  const order = slice.inverted ? "asc" : "desc";
  const rows = await prisma.draft.findMany({
    ...query,
    where: { AND: [{ agentId }, ...(keysetWhere("createdAt", slice) as Prisma.DraftWhereInput[])] },
    orderBy: [{ createdAt: order }, { id: order }],
    take: slice.limit,
  });
  return rows as Draft[];
}
