import type { Prisma } from "../generated/prisma/sqlite/client.ts";
import { rowOf, written } from "./rows.ts";
import type { Param, Statements, Tx } from "./statements.ts";

// An email's and a thread's labels, kept twice: the row's Json "labels",
// which every read shows with the row at no statement of its own, and one
// "EmailLabel" or "ThreadLabel" row a label, which the filters find by key
// (a Json array cannot be matched alike on both databases, nor by Prisma on
// SQLite). Both are written together, in the transaction of the change.

/** Which labels a filter wants, by their kept names: each of `with`, and none of `without`. */
export interface LabelSelector {
  with: string[];
  without: string[];
}

/** Our own statements' condition on "Email" rows for a selector, with its parameters. */
export function emailLabelCondition(selector: LabelSelector): { where: string; params: Param[] } {
  const has = `EXISTS (SELECT 1 FROM "EmailLabel" l WHERE l."emailId" = "Email"."id" AND l."name" = ?)`;
  const where = [...selector.with.map(() => has), ...selector.without.map(() => `NOT ${has}`)];
  return { where: where.join(" AND "), params: [...selector.with, ...selector.without] };
}

/** Of these emails of the agent, those the selector picks (one statement). */
export async function emailsLabelled(
  sql: Statements,
  agentId: string,
  emailIds: string[],
  selector: LabelSelector,
): Promise<Set<string>> {
  if (emailIds.length === 0) return new Set();
  const labels = emailLabelCondition(selector);
  const rows = await sql.all(
    `SELECT "id" FROM "Email" WHERE "agentId" = ? AND "id" IN (${emailIds.map(() => "?").join(", ")}) AND ${labels.where}`,
    [agentId, ...emailIds, ...labels.params],
  );
  return new Set(rows.map((row) => String(row.id)));
}

/** Prisma's condition on threads for a selector. */
export function threadLabelWhere(selector: LabelSelector): Prisma.ThreadWhereInput[] {
  return [
    ...selector.with.map((name) => ({ labelRows: { some: { name } } })),
    ...selector.without.map((name) => ({ labelRows: { none: { name } } })),
  ];
}

/** What a change did to an item's labels: all of them after it, and those that came and went. */
export interface Relabelling {
  labels: string[];
  added: string[];
  removed: string[];
}

const TABLES = {
  Email: { rows: "EmailLabel", key: "emailId" },
  Thread: { rows: "ThreadLabel", key: "threadId" },
} as const;

/** Inside a transaction: writes an email's or a thread's labels, its column and its rows alike. */
export async function writeLabels(tx: Tx, model: "Email" | "Thread", id: string, change: Relabelling) {
  const { rows, key } = TABLES[model];
  await tx.run(`UPDATE "${model}" SET "labels" = ? WHERE "id" = ?`, [written(tx, model, "labels", change.labels), id]);
  for (const name of change.removed) {
    await tx.run(`DELETE FROM "${rows}" WHERE "${key}" = ? AND "name" = ?`, [id, name]);
  }
  for (const name of change.added) {
    await tx.run(`INSERT INTO "${rows}" ("${key}", "name") VALUES (?, ?) ON CONFLICT DO NOTHING`, [id, name]);
  }
}

/** Inside a transaction: one of the agent's threads' labels, its row locked until commit; null when there is none. */
export async function lockThreadLabels(tx: Tx, agentId: string, threadId: string): Promise<string[] | null> {
  const row = await tx.one(`SELECT "labels" FROM "Thread" WHERE "id" = ? AND "agentId" = ?${tx.forUpdate}`, [
    threadId,
    agentId,
  ]);
  return row ? (rowOf(tx, "Thread", row).labels as string[]) : null;
}
