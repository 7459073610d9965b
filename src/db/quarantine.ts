import type { Prisma, Quarantined } from "../generated/prisma/sqlite/client.ts";
import type { Store } from "./client.ts";
import { pageOf, rangeOf, type Window } from "./pages.ts";
import { bytesOf, columnsOf, insertRow, rowOf } from "./rows.ts";
import type { Tx } from "./statements.ts";

// Messages held out of agents' mailboxes (mailbox/quarantine.ts). Written in
// the filing transaction with the filing's own statements; read and taken
// out through Prisma.

export type { Quarantined };

/** What a list shows of a held message: everything but its bytes. */
export type QuarantinedSummary = Omit<Quarantined, "raw" | "arrival" | "dedupeKey">;

const SUMMARY = {
  id: true,
  agentId: true,
  recipient: true,
  reason: true,
  detail: true,
  fromAddress: true,
  subject: true,
  size: true,
  receivedAt: true,
} as const;

/** A held message as written: its bytes as they came, its arrival as Prisma takes JSON. */
export type NewQuarantined = Omit<Quarantined, "raw" | "arrival"> & { raw: Buffer; arrival: Prisma.InputJsonValue };

/** Holds a message, inside the filing transaction. */
export async function insertQuarantined(tx: Tx, row: NewQuarantined): Promise<void> {
  // A Buffer is the Uint8Array Prisma's Bytes type names, over a pool's memory.
  await insertRow(tx, "Quarantined", {
    ...row,
    raw: row.raw as Uint8Array<ArrayBuffer>,
    arrival: row.arrival as Quarantined["arrival"],
  });
}

/** Held messages, oldest first; of one agent when given. */
export async function listQuarantined(
  store: Store,
  filter: { agentId?: string },
  window: Window,
): Promise<{ data: QuarantinedSummary[]; total: number }> {
  const where = filter.agentId ? { agentId: filter.agentId } : {};
  return pageOf(window, () => [
    store.prisma.quarantined.findMany({
      where,
      select: SUMMARY,
      orderBy: [{ receivedAt: "asc" }, { id: "asc" }],
      ...rangeOf(window),
    }),
    store.prisma.quarantined.count({ where }),
  ]);
}

/** One held message with its bytes, or null. Raw, as the source of an email is read (rawSource, emails.ts). */
export async function findQuarantined({ sql }: Store, id: string): Promise<Quarantined | null> {
  const row = await sql.one(`SELECT ${columnsOf("Quarantined")} FROM "Quarantined" WHERE "id" = ?`, [id]);
  return row ? { ...rowOf(sql, "Quarantined", row), raw: bytesOf(row.raw) as Uint8Array<ArrayBuffer> } : null;
}

/** Takes a held message out, inside a transaction; false when it was not there (released or deleted meanwhile). */
export async function deleteQuarantined(tx: Tx, id: string): Promise<boolean> {
  return (await tx.run(`DELETE FROM "Quarantined" WHERE "id" = ?`, [id])) > 0;
}
