import type { Store } from "./client.ts";
import type { Statements } from "./statements.ts";

// The daily send limit and the storage limit. A send takes both before the
// message goes out and gives them back if it does not; received mail takes
// storage as it is filed. Each step is one conditional statement, so parallel
// requests on any number of instances cannot pass a limit.

/** The largest limit or usage the columns hold: they are 32-bit integers. */
export const QUOTA_MAX = 2_147_483_647;

/** The UTC day of a moment, as the counter's key. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The next UTC midnight after now. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** Counts one send on the day unless the limit is reached; false when it is. */
export async function takeSend(db: Statements, agentId: string, day: string, limit: number): Promise<boolean> {
  await db.run(`INSERT INTO "SendCounter" ("agentId", "day", "count") VALUES (?, ?, 0) ON CONFLICT DO NOTHING`, [
    agentId,
    day,
  ]);
  const taken = await db.run(
    `UPDATE "SendCounter" SET "count" = "count" + 1 WHERE "agentId" = ? AND "day" = ? AND "count" < ?`,
    [agentId, day, limit],
  );
  return taken === 1;
}

export async function giveSendBack(db: Statements, agentId: string, day: string): Promise<void> {
  await db.run(`UPDATE "SendCounter" SET "count" = "count" - 1 WHERE "agentId" = ? AND "day" = ? AND "count" > 0`, [
    agentId,
    day,
  ]);
}

export async function sendsOn(db: Statements, agentId: string, day: string): Promise<number> {
  const counter = await db.one(`SELECT "count" FROM "SendCounter" WHERE "agentId" = ? AND "day" = ?`, [agentId, day]);
  return Number(counter?.count ?? 0);
}

/** Reserves bytes unless they would pass the limit; false when they would. */
export async function takeStorage(db: Statements, agentId: string, bytes: number, limit: number): Promise<boolean> {
  const taken = await db.run(
    `UPDATE "Agent" SET "storageUsed" = "storageUsed" + ? WHERE "id" = ? AND "storageUsed" <= ?`,
    [bytes, agentId, limit - bytes],
  );
  return taken === 1;
}

export async function giveStorageBack(db: Statements, agentId: string, bytes: number): Promise<void> {
  await db.run(`UPDATE "Agent" SET "storageUsed" = "storageUsed" - ? WHERE "id" = ?`, [bytes, agentId]);
}

export async function storageUsed(db: Statements, agentId: string): Promise<number> {
  return Number((await db.one(`SELECT "storageUsed" FROM "Agent" WHERE "id" = ?`, [agentId]))?.storageUsed ?? 0);
}

/** Send counters of days before this one count nothing any more: deleted; how many. */
export async function deleteSendCountersBefore({ prisma }: Store, day: string): Promise<number> {
  return (await prisma.sendCounter.deleteMany({ where: { day: { lt: day } } })).count;
}
