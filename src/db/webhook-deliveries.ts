import type { Store } from "./client.ts";
import { pageOf, rangeOf, type Window } from "./pages.ts";
import { rowOf } from "./rows.ts";
import { deleteInBatches, type Sql } from "./sql.ts";
import { oneOf, type Tx } from "./statements.ts";

// Webhook deliveries: queued with their event, claimed when due, each
// attempt recorded, trimmed when finished. Claiming is raw SQL: the query
// ranks the due deliveries of each webhook and then of each agent with
// window functions, which Prisma cannot express, so that no webhook's or
// owner's (an agent's or a pod's) backlog fills a claim.

export interface DueRow {
  id: string;
  webhookId: string;
  /** The webhook's agent; null for a pod's webhook. */
  webhookAgentId: string | null;
  eventId: string;
  url: string;
  secret: string;
  payload: string;
  attempts: number;
  createdAt: Date;
}

/** How many of one webhook's, and of one owner's (an agent's or a pod's webhooks), may be in flight at once. */
export interface Shares {
  perWebhook: number;
  perOwner: number;
}

/** The owner of a webhook "w" as one text: agent and pod ids are apart (an agent and a pod may share an id). */
const OWNER = `COALESCE('agent:' || w."agentId", 'pod:' || w."podId")`;

/**
 * Up to `limit` due deliveries of enabled webhooks that are not paused (or
 * retried by hand: those go at once), the earliest due first, none past a webhook's or an owner's share once those
 * in flight (claimed by any instance) are counted.
 */
export async function dueDeliveries(tx: Tx, now: Date, shares: Shares, limit: number): Promise<DueRow[]> {
  const at = tx.at(now);
  const rows = await tx.all(
    `WITH "flying" AS (
      SELECT d."webhookId", ${OWNER} AS "owner", COUNT(*) AS "n" FROM "WebhookDelivery" d
        JOIN "Webhook" w ON w."id" = d."webhookId"
        WHERE d."status" = 'pending' AND d."claimedUntil" >= ? GROUP BY d."webhookId", ${OWNER}
    ),
    "ownerFlying" AS (SELECT "owner", SUM("n") AS "n" FROM "flying" GROUP BY "owner"),
    "due" AS (
      SELECT d."id", d."webhookId", d."eventId", d."payload", d."attempts", d."createdAt", d."nextAttemptAt",
        w."agentId" AS "webhookAgentId", ${OWNER} AS "owner", w."url", w."secret",
        ROW_NUMBER() OVER (PARTITION BY d."webhookId" ORDER BY d."nextAttemptAt", d."id") AS "inWebhook"
      FROM "WebhookDelivery" d JOIN "Webhook" w ON w."id" = d."webhookId"
      WHERE d."status" = 'pending' AND w."enabled" = ? AND d."nextAttemptAt" <= ?
        AND (d."claimedUntil" IS NULL OR d."claimedUntil" < ?)
        AND (w."pausedUntil" IS NULL OR w."pausedUntil" <= ? OR d."retryNow" = ?)
    ),
    "withinWebhook" AS (
      SELECT "due".*, ROW_NUMBER() OVER (PARTITION BY "due"."owner" ORDER BY "due"."nextAttemptAt", "due"."id") AS "inOwner"
      FROM "due" LEFT JOIN "flying" ON "flying"."webhookId" = "due"."webhookId"
      WHERE "due"."inWebhook" + COALESCE("flying"."n", 0) <= ?
    )
    SELECT "withinWebhook".* FROM "withinWebhook" LEFT JOIN "ownerFlying" ON "ownerFlying"."owner" = "withinWebhook"."owner"
    WHERE "withinWebhook"."inOwner" + COALESCE("ownerFlying"."n", 0) <= ?
    ORDER BY "withinWebhook"."nextAttemptAt", "withinWebhook"."id" LIMIT ?`,
    [at, true, at, at, at, true, shares.perWebhook, shares.perOwner, limit],
  );
  return rows.map((row) => ({
    id: row.id as string,
    webhookId: row.webhookId as string,
    webhookAgentId: (row.webhookAgentId as string | null) ?? null,
    eventId: String(row.eventId),
    url: row.url as string,
    secret: row.secret as string,
    payload: row.payload as string,
    attempts: Number(row.attempts),
    createdAt: tx.date(row.createdAt),
  }));
}

/** Keeps other instances off these deliveries until `until`, or until the attempt is recorded. */
export async function claimUntil(tx: Tx, ids: string[], until: Date): Promise<void> {
  if (ids.length === 0) return;
  await tx.run(`UPDATE "WebhookDelivery" SET "claimedUntil" = ? WHERE "id" IN (${ids.map(() => "?").join(", ")})`, [
    tx.at(until),
    ...ids,
  ]);
}

/** Lets go of a claimed delivery without an attempt: another may take it at once. */
export async function releaseClaim({ prisma }: Store, deliveryId: string): Promise<void> {
  await prisma.webhookDelivery.updateMany({ where: { id: deliveryId }, data: { claimedUntil: null } });
}

/** One attempt at a delivery, and what became of the delivery: delivered, given up, or due again then. */
export interface AttemptRecord {
  id: string;
  deliveryId: string;
  at: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
  status: "delivered" | "given_up" | "pending";
  attempts: number;
  nextAttemptAt: Date | null;
  /** When the attempt's claim was taken: a retry asked for by hand since then is still to come. */
  claimedAt: Date;
}

/**
 * Inside a transaction that has the webhook's row (raw: a failure's is
 * the transaction of the event it may write, which is ours): the attempt,
 * and the delivery as it leaves it, its claim let go. A retry asked for by
 * hand is this attempt, unless it was asked for after the claim (redeliver
 * made it due later than that): then it stands, the delivery due when it
 * asked, whatever this attempt came to.
 */
export async function insertAttempt(tx: Tx, attempt: AttemptRecord): Promise<void> {
  await tx.run(
    `INSERT INTO "WebhookAttempt" ("id", "deliveryId", "at", "statusCode", "error", "durationMs") VALUES (?, ?, ?, ?, ?, ?)`,
    [attempt.id, attempt.deliveryId, tx.at(attempt.at), attempt.statusCode, attempt.error, attempt.durationMs],
  );
  const retriedSince = `"retryNow" = ? AND "nextAttemptAt" > ?`;
  const since = [true, tx.at(attempt.claimedAt)];
  await tx.run(
    `UPDATE "WebhookDelivery" SET "attempts" = ?, "claimedUntil" = NULL,
      "status" = CASE WHEN ${retriedSince} THEN 'pending' ELSE ? END,
      "nextAttemptAt" = CASE WHEN ${retriedSince} THEN "nextAttemptAt" ELSE ? END,
      "retryNow" = (${retriedSince})
      WHERE "id" = ?`,
    [
      attempt.attempts,
      ...since,
      attempt.status,
      ...since,
      attempt.nextAttemptAt === null ? null : tx.at(attempt.nextAttemptAt),
      ...since,
      attempt.deliveryId,
    ],
  );
}

/** How a webhook's receiver has been failing. */
export interface FailureState {
  url: string;
  enabled: boolean;
  failuresInARow: number;
  failingSince: Date | null;
  pausedUntil: Date | null;
}

/** Inside a transaction: the webhook's failure state, its row locked until commit; null when it is gone. */
export async function lockFailureState(tx: Tx, webhookId: string): Promise<FailureState | null> {
  const row = await tx.one(
    `SELECT "url", "enabled", "failuresInARow", "failingSince", "pausedUntil" FROM "Webhook" WHERE "id" = ?${tx.forUpdate}`,
    [webhookId],
  );
  if (!row) return null;
  return {
    url: row.url as string,
    enabled: tx.flag(row.enabled),
    failuresInARow: Number(row.failuresInARow),
    failingSince: row.failingSince === null ? null : tx.date(row.failingSince),
    pausedUntil: row.pausedUntil === null ? null : tx.date(row.pausedUntil),
  };
}

/** Inside the same transaction: the webhook's new failure state; a reason is kept when it is turned off. */
export async function writeFailureState(
  tx: Tx,
  webhookId: string,
  state: Omit<FailureState, "url">,
  disabledReason: string | null,
): Promise<void> {
  const { failuresInARow, failingSince, pausedUntil, enabled } = state;
  await tx.run(
    `UPDATE "Webhook" SET "failuresInARow" = ?, "failingSince" = ?, "pausedUntil" = ?, "enabled" = ?,
      "disabledReason" = COALESCE(?, "disabledReason") WHERE "id" = ?`,
    [
      failuresInARow,
      failingSince === null ? null : tx.at(failingSince),
      pausedUntil === null ? null : tx.at(pausedUntil),
      enabled,
      disabledReason,
      webhookId,
    ],
  );
}

/** A delivery that succeeded: its webhook's failures forgotten, then the attempt, in one transaction. */
export async function recordSuccess(sql: Sql, webhookId: string, attempt: AttemptRecord): Promise<void> {
  await sql.transaction(async (tx) => {
    // The webhook's row first, as a change to the webhook takes them: no two transactions wait on each other.
    await tx.run(
      `UPDATE "Webhook" SET "failuresInARow" = 0, "failingSince" = NULL, "pausedUntil" = NULL WHERE "id" = ?`,
      [webhookId],
    );
    await insertAttempt(tx, attempt);
  });
}

/** The body a delivery POSTs: {type, timestamp, data}. */
export interface DeliveryBody {
  type: string;
  timestamp: string;
  data: object;
}

/** A delivery to queue: written with its event, due at once. */
export interface NewDelivery {
  id: string;
  webhookId: string;
  eventId: string;
  /** The agent whose event it is. */
  agentId: string;
  body: DeliveryBody;
  at: Date;
}

export interface EnabledWebhook {
  id: string;
  /** The event types it wants; empty for all. */
  events: string[];
}

/**
 * Inside the transaction that writes the events (raw: it is ours): for each
 * of the agents, the enabled webhooks of the agent and of its pod, if it has
 * one, and the events each wants. One statement for all of them: a filing
 * transaction writes events for as many agents as it filed mail for.
 */
export async function enabledWebhooks(tx: Tx, agentIds: readonly string[]): Promise<Map<string, EnabledWebhook[]>> {
  const agents = oneOf(`"Agent"."id"`, agentIds);
  const rows = await tx.all(
    `SELECT "Agent"."id" AS "forAgent", "Webhook"."id", "Webhook"."events" FROM "Agent"
      JOIN "Webhook" ON "Webhook"."enabled" = ?
        AND ("Webhook"."agentId" = "Agent"."id" OR "Webhook"."podId" = "Agent"."podId")
      WHERE ${agents.where}`,
    [true, ...agents.params],
  );
  const found = new Map(agentIds.map((agentId): [string, EnabledWebhook[]] => [agentId, []]));
  for (const row of rows) {
    const { id, events } = rowOf(tx, "Webhook", row);
    found.get(row.forAgent as string)?.push({ id, events: events as string[] });
  }
  return found;
}

/** Inside the same transaction: a delivery of the event, due at once. */
export async function insertDelivery(tx: Tx, delivery: NewDelivery): Promise<void> {
  await tx.run(
    `INSERT INTO "WebhookDelivery" ("id", "webhookId", "eventId", "agentId", "status", "payload", "attempts", "nextAttemptAt", "createdAt")
      VALUES (?, ?, ?, ?, 'pending', ?, 0, ?, ?)`,
    // Kept as the JSON text it is signed and sent as, byte for byte.
    [
      delivery.id,
      delivery.webhookId,
      delivery.eventId,
      delivery.agentId,
      JSON.stringify(delivery.body),
      tx.at(delivery.at),
      tx.at(delivery.at),
    ],
  );
}

/** A page of a webhook's deliveries, newest first, each with its attempts oldest first; and how many in all. */
export function deliveryPage({ prisma }: Store, webhookId: string, window: Window) {
  const where = { webhookId };
  return pageOf(window, () => [
    prisma.webhookDelivery.findMany({
      where,
      include: { attemptLog: { orderBy: [{ at: "asc" }, { id: "asc" }] } },
      orderBy: [{ createdAt: "desc" }, { id: "desc" }],
      ...rangeOf(window),
    }),
    prisma.webhookDelivery.count({ where }),
  ]);
}

/**
 * Makes a delivery of the webhook due now, whatever became of it, and while
 * the webhook is paused too; false when it has none of that id. An attempt
 * in flight keeps its claim: the retry follows it, never runs beside it.
 */
export async function redeliver({ prisma }: Store, webhookId: string, deliveryId: string, now: Date): Promise<boolean> {
  const { count } = await prisma.webhookDelivery.updateMany({
    where: { id: deliveryId, webhookId },
    data: { status: "pending", nextAttemptAt: now, retryNow: true },
  });
  return count > 0;
}

/** Deletes finished deliveries made before the time, a thousand at a time; how many. */
export function trimDeliveries({ sql }: Store, before: Date): Promise<number> {
  return deleteInBatches(sql, "WebhookDelivery", `"status" <> 'pending' AND "createdAt" < ?`, [sql.at(before)]);
}

/** The event type a delivery carries, from its body as kept. */
export const deliveryTypeOf = (delivery: { payload: string }): string =>
  (JSON.parse(delivery.payload) as DeliveryBody).type;
