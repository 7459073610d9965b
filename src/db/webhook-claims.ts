import type { Sql, Statements } from "./sql.ts";

// Which webhook deliveries are due, and claiming them. Raw SQL: the query
// ranks each webhook's due deliveries with a window function, which Prisma
// cannot express, so that one webhook's backlog never fills the page.

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

/** Deliveries looked at per claim: each webhook's first few, the earliest due first. */
const CANDIDATES = 200;

/**
 * Due deliveries of enabled webhooks that are not paused, no more of each
 * webhook than `perWebhook` less those it has in flight (claimed by any
 * instance), earliest due first; and what each agent has in flight.
 */
export async function dueDeliveries(
  tx: Statements,
  sql: Sql,
  now: Date,
  perWebhook: number,
): Promise<{ due: DueRow[]; agentsInFlight: Map<string, number> }> {
  const at = sql.at(now);
  const inFlight = `SELECT d."webhookId", w."agentId", COUNT(*) AS "n" FROM "WebhookDelivery" d
    JOIN "Webhook" w ON w."id" = d."webhookId"
    WHERE d."status" = 'pending' AND d."claimedUntil" >= ? GROUP BY d."webhookId", w."agentId"`;
  const rows = await tx.all(
    `WITH "flying" AS (${inFlight}),
    "ranked" AS (
      SELECT d."id", d."webhookId", d."eventId", d."payload", d."attempts", d."createdAt", d."nextAttemptAt",
        w."agentId", w."url", w."secret",
        ROW_NUMBER() OVER (PARTITION BY d."webhookId" ORDER BY d."nextAttemptAt", d."id") AS "rank"
      FROM "WebhookDelivery" d JOIN "Webhook" w ON w."id" = d."webhookId"
      WHERE d."status" = 'pending' AND w."enabled" = ? AND d."nextAttemptAt" <= ?
        AND (d."claimedUntil" IS NULL OR d."claimedUntil" < ?) AND (w."pausedUntil" IS NULL OR w."pausedUntil" <= ?)
    )
    SELECT "ranked".* FROM "ranked" LEFT JOIN "flying" ON "flying"."webhookId" = "ranked"."webhookId"
    WHERE "ranked"."rank" + COALESCE("flying"."n", 0) <= ?
    ORDER BY "ranked"."nextAttemptAt", "ranked"."id" LIMIT ?`,
    [at, true, at, at, at, perWebhook, CANDIDATES],
  );
  const flying = await tx.all(`SELECT "agentId", SUM("n") AS "n" FROM (${inFlight}) AS "f" GROUP BY "agentId"`, [at]);
  return {
    due: rows.map((row) => ({
      id: row.id as string,
      webhookId: row.webhookId as string,
      agentId: row.agentId as string,
      eventId: String(row.eventId),
      url: row.url as string,
      secret: row.secret as string,
      payload: row.payload as string,
      attempts: Number(row.attempts),
      createdAt: sql.date(row.createdAt),
    })),
    agentsInFlight: new Map(flying.map((row) => [row.agentId as string, Number(row.n)])),
  };
}

/** Keeps other instances off these deliveries until `until`, or until the attempt is recorded. */
export async function claimUntil(tx: Statements, sql: Sql, ids: string[], until: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx.run(`UPDATE "WebhookDelivery" SET "claimedUntil" = ? WHERE "id" IN (${ids.map(() => "?").join(", ")})`, [
    sql.at(until),
    ...ids,
  ]);
}
