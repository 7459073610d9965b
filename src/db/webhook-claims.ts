import type { Sql, Statements } from "./sql.ts";

// Which webhook deliveries are due, and claiming them. Raw SQL: the query
// ranks the due deliveries of each webhook and then of each agent with window
// functions, which Prisma cannot express, so that no webhook's or agent's
// backlog fills a claim.

export interface DueRow {
  id: string;
  webhookId: string;
  agentId: string;
  eventId: string;
  url: string;
  secret: string;
  payload: string;
  attempts: number;
  createdAt: Date;
}

/** How many of one webhook's, and of one agent's, may be in flight at once. */
export interface Shares {
  perWebhook: number;
  perAgent: number;
}

/**
 * Up to `limit` due deliveries of enabled webhooks that are not paused, the
 * earliest due first, none past a webhook's or an agent's share once those
 * in flight (claimed by any instance) are counted.
 */
export async function dueDeliveries(
  tx: Statements,
  sql: Sql,
  now: Date,
  shares: Shares,
  limit: number,
): Promise<DueRow[]> {
  const at = sql.at(now);
  const rows = await tx.all(
    `WITH "flying" AS (
      SELECT d."webhookId", w."agentId", COUNT(*) AS "n" FROM "WebhookDelivery" d
        JOIN "Webhook" w ON w."id" = d."webhookId"
        WHERE d."status" = 'pending' AND d."claimedUntil" >= ? GROUP BY d."webhookId", w."agentId"
    ),
    "agentFlying" AS (SELECT "agentId", SUM("n") AS "n" FROM "flying" GROUP BY "agentId"),
    "due" AS (
      SELECT d."id", d."webhookId", d."eventId", d."payload", d."attempts", d."createdAt", d."nextAttemptAt",
        w."agentId", w."url", w."secret",
        ROW_NUMBER() OVER (PARTITION BY d."webhookId" ORDER BY d."nextAttemptAt", d."id") AS "inWebhook"
      FROM "WebhookDelivery" d JOIN "Webhook" w ON w."id" = d."webhookId"
      WHERE d."status" = 'pending' AND w."enabled" = ? AND d."nextAttemptAt" <= ?
        AND (d."claimedUntil" IS NULL OR d."claimedUntil" < ?) AND (w."pausedUntil" IS NULL OR w."pausedUntil" <= ?)
    ),
    "withinWebhook" AS (
      SELECT "due".*, ROW_NUMBER() OVER (PARTITION BY "due"."agentId" ORDER BY "due"."nextAttemptAt", "due"."id") AS "inAgent"
      FROM "due" LEFT JOIN "flying" ON "flying"."webhookId" = "due"."webhookId"
      WHERE "due"."inWebhook" + COALESCE("flying"."n", 0) <= ?
    )
    SELECT "withinWebhook".* FROM "withinWebhook" LEFT JOIN "agentFlying" ON "agentFlying"."agentId" = "withinWebhook"."agentId"
    WHERE "withinWebhook"."inAgent" + COALESCE("agentFlying"."n", 0) <= ?
    ORDER BY "withinWebhook"."nextAttemptAt", "withinWebhook"."id" LIMIT ?`,
    [at, true, at, at, at, shares.perWebhook, shares.perAgent, limit],
  );
  return rows.map((row) => ({
    id: row.id as string,
    webhookId: row.webhookId as string,
    agentId: row.agentId as string,
    eventId: String(row.eventId),
    url: row.url as string,
    secret: row.secret as string,
    payload: row.payload as string,
    attempts: Number(row.attempts),
    createdAt: sql.date(row.createdAt),
  }));
}

/** Keeps other instances off these deliveries until `until`, or until the attempt is recorded. */
export async function claimUntil(tx: Statements, sql: Sql, ids: string[], until: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx.run(`UPDATE "WebhookDelivery" SET "claimedUntil" = ? WHERE "id" IN (${ids.map(() => "?").join(", ")})`, [
    sql.at(until),
    ...ids,
  ]);
}
