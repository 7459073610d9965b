import { deleteExpiredAgents as deleteExpired } from "../db/agents.ts";
import { trashedBefore } from "../db/emails.ts";
import { trimEvents as trimEventLog } from "../db/events.ts";
import { forgetKeys } from "../db/idempotency.ts";
import { deleteSendCountersBefore, utcDay } from "../db/quota.ts";
import { forgetLinks } from "../db/reviews.ts";
import { trimDeliveries } from "../db/webhook-deliveries.ts";
import { deleteFromTrash } from "./emails.ts";
import { KEY_LIFETIME_MS } from "./idempotency.ts";
import { expiryCutoff } from "./lifetimes.ts";
import { expireHeld } from "./review.ts";
import type { Services } from "./services.ts";

// Unverified agents are deleted 24 hours after creation, yesterday's send
// counters go too, and so do events and finished webhook deliveries past
// EVENT_RETENTION_HOURS, idempotency keys after 24 hours, held messages
// nobody decided within APPROVAL_TIMEOUT_HOURS (rejected as expired), review
// links 30 days after their decision, and mail in the trash after
// TRASH_RETENTION_DAYS. Each delete is a conditional statement,
// so any number of instances may run the job at once.

/** What the cleanup job does each minute. */
export async function cleanUp(services: Services): Promise<void> {
  await deleteExpiredAgents(services);
  await expireHeld(services);
  await forgetReviewLinks(services);
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
  const { clock, config } = services;
  if (config.trashRetentionDays === 0) return 0;
  const before = new Date(clock.now().getTime() - config.trashRetentionDays * 86_400_000);
  let deleted = 0;
  for (let run = 0; run < TRASH_PER_RUN; run += TRASH_BATCH) {
    const due = await trashedBefore(services, before, TRASH_BATCH);
    for (const email of due) {
      if (await deleteFromTrash(services, email, before)) deleted++;
    }
    if (due.length < TRASH_BATCH) break;
  }
  if (deleted > 0) services.log("info", "trash_emptied", { count: deleted });
  return deleted;
}

/** Events past the retention, and the finished deliveries of webhooks that carried them. */
export async function trimEvents(services: Services): Promise<number> {
  const { clock, config } = services;
  const before = new Date(clock.now().getTime() - config.eventRetentionHours * 3_600_000);
  const events = await trimEventLog(services, before);
  await trimDeliveries(services, before);
  return events;
}

/** How long a decided review link still says what was decided, when opened again. */
const LINK_MEMORY_MS = 30 * 86_400_000;

export function forgetReviewLinks(services: Services): Promise<number> {
  return forgetLinks(services, new Date(services.clock.now().getTime() - LINK_MEMORY_MS));
}

/** Idempotency keys answer retries for 24 hours, then go. */
export function forgetIdempotencyKeys(services: Services): Promise<number> {
  return forgetKeys(services, new Date(services.clock.now().getTime() - KEY_LIFETIME_MS));
}

export async function deleteExpiredAgents(services: Services): Promise<number> {
  const { clock, log } = services;
  const count = await deleteExpired(services, expiryCutoff(clock.now()));
  if (count > 0) log("info", "expired_agents_deleted", { count });
  return count;
}

/** Send counters of past UTC days count nothing any more. */
export function deletePastSendCounters(services: Services): Promise<number> {
  return deleteSendCountersBefore(services, utcDay(services.clock.now()));
}
