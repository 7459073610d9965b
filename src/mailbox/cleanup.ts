import { utcDay } from "../db/quota.ts";
import type { Param, Sql } from "../db/sql.ts";
import { deleteFromTrash } from "./emails.ts";
import { KEY_LIFETIME_MS } from "./idempotency.ts";
import { expiredAgents } from "./lifetimes.ts";
import type { Services } from "./services.ts";

// Unverified agents are deleted 24 hours after creation, yesterday's send
// counters go too, and so do events and finished webhook deliveries past
// EVENT_RETENTION_HOURS, idempotency keys after 24 hours, and mail in the
// trash after TRASH_RETENTION_DAYS. Each delete is a conditional statement,
// so any number of instances may run the job at once.

/** What the cleanup job does each minute. */
export async function cleanUp(services: Services): Promise<void> {
  await deleteExpiredAgents(services);
  await deletePastSendCounters(services);
  await trimEvents(services);
  await forgetIdempotencyKeys(services);
  await emptyTrash(services);
}

const TRASH_BATCH = 200;
/** Emails deleted per run at most: the rest wait for the next minute. */
const TRASH_PER_RUN = 2000;

/**
 * Deletes mail that has been in the trash for TRASH_RETENTION_DAYS, as the
 * agent's own permanent delete does (its bytes freed, an event for each); the
 * record of delivery stays, so the message never comes back from the catch-all.
 */
export async function emptyTrash(services: Services): Promise<number> {
  const { sql, clock, config } = services;
  if (config.trashRetentionDays === 0) return 0;
  const before = new Date(clock.now().getTime() - config.trashRetentionDays * 86_400_000);
  let deleted = 0;
  for (let run = 0; run < TRASH_PER_RUN; run += TRASH_BATCH) {
    const due = await sql.all(
      `SELECT "id", "agentId" FROM "Email" WHERE "trashedAt" < ? AND "folder" = 'trash' LIMIT ${TRASH_BATCH}`,
      [sql.at(before)],
    );
    for (const email of due) {
      if (await deleteFromTrash(services, { id: email.id as string, agentId: email.agentId as string }, before)) {
        deleted++;
      }
    }
    if (due.length < TRASH_BATCH) break;
  }
  if (deleted > 0) services.log("info", "trash_emptied", { count: deleted });
  return deleted;
}

/** Deletes matching rows a thousand at a time, so that no statement holds the table for long. */
async function deleteInBatches(sql: Sql, table: string, where: string, params: Param[]): Promise<number> {
  let deleted = 0;
  for (;;) {
    const count = await sql.run(
      `DELETE FROM "${table}" WHERE "id" IN (SELECT "id" FROM "${table}" WHERE ${where} LIMIT 1000)`,
      params,
    );
    deleted += count;
    if (count < 1000) return deleted;
  }
}

/** Events past the retention, and the finished deliveries of webhooks that carried them. */
export async function trimEvents({ sql, clock, config }: Services): Promise<number> {
  const before = [sql.at(new Date(clock.now().getTime() - config.eventRetentionHours * 3_600_000))];
  const events = await deleteInBatches(sql, "Event", `"createdAt" < ?`, before);
  await deleteInBatches(sql, "WebhookDelivery", `"status" <> 'pending' AND "createdAt" < ?`, before);
  return events;
}

/** Idempotency keys answer retries for 24 hours, then go. */
export async function forgetIdempotencyKeys({ sql, clock }: Services): Promise<number> {
  const before = new Date(clock.now().getTime() - KEY_LIFETIME_MS);
  return sql.run(`DELETE FROM "IdempotencyKey" WHERE "createdAt" < ?`, [sql.at(before)]);
}

export async function deleteExpiredAgents({ prisma, clock, log }: Services): Promise<number> {
  const { count } = await prisma.agent.deleteMany({ where: expiredAgents(clock.now()) });
  if (count > 0) log("info", "expired_agents_deleted", { count });
  return count;
}

/** Send counters of past UTC days count nothing any more. */
export async function deletePastSendCounters({ prisma, clock }: Services): Promise<number> {
  const { count } = await prisma.sendCounter.deleteMany({ where: { day: { lt: utcDay(clock.now()) } } });
  return count;
}
