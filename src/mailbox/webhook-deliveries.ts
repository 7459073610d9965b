import { randomUUID } from "node:crypto";
import { DELIVERIES_QUEUED } from "../db/wakeups.ts";
import {
  type AttemptRecord,
  claimUntil,
  type DueRow,
  dueDeliveries,
  insertAttempt,
  releaseClaim as letGo,
  lockFailureState,
  recordSuccess,
  writeFailureState,
} from "../db/webhook-deliveries.ts";
import { withEvents } from "./events.ts";
import type { Services } from "./services.ts";

// Delivering webhooks (see jobs/webhook-worker.ts): claiming due deliveries
// fairly, recording each attempt, pausing a webhook that fails and disabling
// one that has failed for a day.

/** How long a delivery is tried before it is given up, and a webhook that only fails before it is disabled. */
const GIVE_UP_AFTER_MS = 24 * 3_600_000;
const DISABLE_AFTER_MS = 24 * 3_600_000;
/** The pauses after each failed attempt: about 5 s, 30 s, 2 min, 10 min, 1 h, 6 h, then every 6 h. */
const BACKOFF_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000, 21_600_000];

/** A delivery an instance has claimed, with what it needs to send it, and when it claimed it. */
export type DueDelivery = DueRow & { claimedAt: Date };

/** How long a claim keeps other instances off a delivery: past the 10-second attempt, with room. */
export const CLAIM_MS = 60_000;
/**
 * Attempts in flight at once, across instances: for one webhook, and for all
 * of one agent's (or one pod's). The rest of each instance's slots go to the
 * others, so a receiver that hangs holds up its own deliveries only.
 */
export const IN_FLIGHT_PER_WEBHOOK = 2;
export const IN_FLIGHT_PER_OWNER = 4;

/**
 * Claims up to `limit` due deliveries, each webhook and each owner within
 * its share. Claims take turns across instances, so the shares hold; a
 * crashed instance's claims run out.
 */
export async function claimDueDeliveries(services: Services, limit: number): Promise<DueDelivery[]> {
  const { sql, clock } = services;
  const now = clock.now();
  return sql.transaction(async (tx) => {
    await sql.takeTurns(tx, "webhook-claims");
    const shares = { perWebhook: IN_FLIGHT_PER_WEBHOOK, perOwner: IN_FLIGHT_PER_OWNER };
    const due = await dueDeliveries(tx, now, shares, limit);
    const until = new Date(now.getTime() + CLAIM_MS);
    await claimUntil(
      tx,
      due.map((delivery) => delivery.id),
      until,
    );
    return due.map((delivery) => ({ ...delivery, claimedAt: now }));
  });
}

/** Resolves when a transaction (of any instance) queued deliveries, or when the signal aborts. */
export function deliveriesQueued(services: Services, signal: AbortSignal): Promise<void> {
  return services.wakeups.next([DELIVERIES_QUEUED], signal);
}

/** The pause after `failures` failed attempts in a row: the backoff, with a fifth either way of jitter. */
export function pauseAfter(failures: number, now: Date): Date {
  const pause = BACKOFF_MS[Math.min(failures - 1, BACKOFF_MS.length - 1)] ?? BACKOFF_MS[0] ?? 5_000;
  return new Date(now.getTime() + pause * (0.8 + Math.random() * 0.4));
}

export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/**
 * Records one attempt. A 2xx delivers it and resumes its webhook. Anything
 * else tries the delivery again later (given up once that would pass 24
 * hours after the event), and pauses the webhook: all its deliveries wait
 * about 5 s, 30 s, 2 min, 10 min, 1 h, then 6 h after each failure in a row
 * (failures of attempts made together count as one). A webhook whose every
 * attempt failed for 24 hours is disabled, with a webhook.disabled event in
 * its agent's log (a pod's webhook, whose pod has no log, says so only on itself).
 */
export async function recordAttempt(services: Services, delivery: DueDelivery, outcome: AttemptOutcome): Promise<void> {
  const { sql, clock } = services;
  const now = clock.now();
  const attempts = delivery.attempts + 1;
  const attempt = {
    id: randomUUID(),
    deliveryId: delivery.id,
    at: now,
    ...outcome,
    attempts,
    claimedAt: delivery.claimedAt,
  };
  if (outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300) {
    await recordSuccess(sql, delivery.webhookId, { ...attempt, status: "delivered", nextAttemptAt: null });
    return;
  }
  const next = pauseAfter(attempts, now);
  const givenUp = next.getTime() - delivery.createdAt.getTime() > GIVE_UP_AFTER_MS;
  const failed: AttemptRecord = {
    ...attempt,
    status: givenUp ? "given_up" : "pending",
    nextAttemptAt: givenUp ? null : next,
  };
  await withEvents(services, async (tx, emit) => {
    // The webhook's row first, then the delivery's, as a change to the webhook takes them: no two wait on each other.
    const webhook = await lockFailureState(tx, delivery.webhookId);
    await insertAttempt(tx, failed);
    // Paused already: a failure of an attempt made together with the one that paused it.
    if (!webhook || (webhook.pausedUntil !== null && webhook.pausedUntil > now)) return;
    const failuresInARow = webhook.failuresInARow + 1;
    const failingSince = webhook.failingSince ?? now;
    const disable = webhook.enabled && now.getTime() - failingSince.getTime() >= DISABLE_AFTER_MS;
    const reason = disable ? `Every attempt failed for 24 hours; the last: ${outcome.error ?? "no answer"}` : null;
    const state = {
      failuresInARow,
      failingSince,
      pausedUntil: pauseAfter(failuresInARow, now),
      enabled: webhook.enabled && !disable,
    };
    await writeFailureState(tx, delivery.webhookId, state, reason);
    if (reason && delivery.webhookAgentId !== null) {
      const data = { webhookId: delivery.webhookId, url: webhook.url, reason };
      await emit({ type: "webhook.disabled", agentId: delivery.webhookAgentId, data });
    }
  });
}

/** Lets go of a claimed delivery without an attempt (the service is stopping): another may take it at once. */
export async function releaseClaim(services: Services, delivery: DueDelivery): Promise<void> {
  await letGo(services, delivery.id);
}
