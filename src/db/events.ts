import type { Store } from "./client.ts";
import { statementChunks } from "./rows.ts";
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

/** An event as appended. */
export interface NewStoredEvent {
  agentId: string;
  type: string;
  data: unknown;
  createdAt: Date;
}

/**
 * Inside the transaction that makes the change, holding the event log's turn:
 * appends the events, a statement for many; their ids, in the events' order.
 * A statement hands out ids in the order of its rows; RETURNING promises no
 * order (SQLite says so), so they are put back in it.
 */
export async function appendEvents(tx: Tx, events: NewStoredEvent[]): Promise<string[]> {
  const ids: string[] = [];
  for (const chunk of statementChunks(events)) {
    const rows = await tx.all(
      `INSERT INTO "Event" ("agentId", "type", "data", "createdAt") VALUES ${chunk.map(() => "(?, ?, ?, ?)").join(", ")} RETURNING "id"`,
      // JSON text: PostgreSQL casts it to jsonb.
      chunk.flatMap((event) => [event.agentId, event.type, JSON.stringify(event.data), tx.at(event.createdAt)]),
    );
    const handed = rows.map((row) => BigInt(row.id as string | number));
    ids.push(...handed.sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)).map(String));
  }
  return ids;
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
