import type { Store } from "./client.ts";
import { deleteInBatches } from "./sql.ts";
import type { Tx } from "./statements.ts";

// The event log, read in id order: one agent's, or a pod's agents' together. Appending is raw SQL: it happens in the
// transaction of the change it reports, which is ours (see sql.ts' takeTurns).

/** An event as read: its id in decimal digits, its data parsed. */
export interface StoredEvent {
  id: string;
  type: string;
  agentId: string;
  createdAt: Date;
  data: Record<string, unknown>;
}

/** Inside the transaction that makes the change: appends the event; its id. */
export async function appendEvent(
  tx: Tx,
  event: { agentId: string; type: string; data: unknown; createdAt: Date },
): Promise<string> {
  const row = await tx.one(
    `INSERT INTO "Event" ("agentId", "type", "data", "createdAt") VALUES (?, ?, ?, ?) RETURNING "id"`,
    // JSON text: PostgreSQL casts it to jsonb.
    [event.agentId, event.type, JSON.stringify(event.data), tx.at(event.createdAt)],
  );
  return String(row?.id);
}

/** Whose events: one agent's, or those of a pod's agents (those with these ids in lower case, or all: null). */
export type EventScope = { agentId: string } | { podId: string; idKeys: readonly string[] | null };

const whereOf = (scope: EventScope) =>
  "agentId" in scope
    ? { agentId: scope.agentId }
    : { agent: { podId: scope.podId, ...(scope.idKeys ? { idKey: { in: [...scope.idKeys] } } : {}) } };

/** The scope's events after an id, oldest first; only of the given types, when there are any. */
export async function eventsAfter(
  { prisma }: Store,
  scope: EventScope,
  after: string,
  limit: number,
  types: readonly string[] | null,
): Promise<StoredEvent[]> {
  const rows = await prisma.event.findMany({
    where: { ...whereOf(scope), id: { gt: BigInt(after) }, ...(types ? { type: { in: [...types] } } : {}) },
    orderBy: { id: "asc" },
    take: limit,
  });
  return rows.map((row) => ({ ...row, id: String(row.id), data: row.data as StoredEvent["data"] }));
}

/** The scope's newest event id; "0" when it has none. */
export async function newestEventId({ prisma }: Store, scope: EventScope): Promise<string> {
  const { _max } = await prisma.event.aggregate({ where: whereOf(scope), _max: { id: true } });
  return String(_max.id ?? 0);
}

/** Deletes events made before the time, a thousand at a time; how many. */
export function trimEvents({ sql }: Store, before: Date): Promise<number> {
  return deleteInBatches(sql, "Event", `"createdAt" < ?`, [sql.at(before)]);
}
