import { withDeadline } from "../deadline.ts";
import { excerpt } from "../errors.ts";
import { describeFault } from "../log.ts";
import type { Services } from "../mailbox/services.ts";
import {
  claimDueDeliveries,
  type DueDelivery,
  deliveriesQueued,
  recordAttempt,
  releaseClaim,
} from "../mailbox/webhook-deliveries.ts";
import { postWebhook, signedHeaders, statusProblem } from "../outbound/webhooks.ts";

// Sends due webhook deliveries: claims them (one instance at a time per
// delivery), signs each the Standard Webhooks way and POSTs it, and records
// the attempt. It looks for due deliveries whenever a transaction queued
// some (on any instance) and at least every second, which is also how
// retries and claims that ran out on a crashed instance are found.

/** Deliveries in flight at once, across all webhooks. */
const IN_FLIGHT = 16;
const ATTEMPT_TIMEOUT_MS = 10_000;
const LOOK_EVERY_MS = 1_000;

export interface WebhookWorker {
  /** Stops looking; attempts in flight are abandoned and their claims let go, to be tried again. */
  stop(): Promise<void>;
}

export function startWebhookWorker(services: Services): WebhookWorker {
  const stopping = new AbortController();
  const inFlight = new Set<Promise<void>>();
  let slotFreed = () => {};

  const track = (delivery: DueDelivery) => {
    const attempt = deliver(services, delivery, stopping.signal).finally(() => {
      inFlight.delete(attempt);
      slotFreed();
    });
    inFlight.add(attempt);
  };

  const pause = () =>
    withDeadline(LOOK_EVERY_MS, stopping.signal, (wake) => {
      const freed = new Promise<void>((resolve) => {
        slotFreed = resolve;
      });
      return Promise.race([deliveriesQueued(services, wake), freed]);
    });

  const loop = async () => {
    while (!stopping.signal.aborted) {
      try {
        const free = IN_FLIGHT - inFlight.size;
        const due = free > 0 ? await claimDueDeliveries(services, free) : [];
        for (const delivery of due) track(delivery);
        // A full claim may have left more behind: look again once a slot is free.
        if (due.length === 0 || inFlight.size === IN_FLIGHT) await pause();
      } catch (error) {
        services.log("error", "webhook_claim_failed", { error: describeFault(error) });
        await pause();
      }
    }
  };
  const running = loop();

  return {
    async stop() {
      stopping.abort();
      await running;
      await Promise.all(inFlight);
    },
  };
}

/** One attempt at one delivery, recorded; abandoned without a record when the service stops. */
async function deliver(services: Services, delivery: DueDelivery, stopping: AbortSignal): Promise<void> {
  const started = performance.now();
  const outcome = await postWebhook({
    url: delivery.url,
    headers: signedHeaders(delivery.eventId, delivery.secret, services.clock.now(), delivery.payload),
    body: delivery.payload,
    allowPrivate: services.config.webhookAllowPrivate,
    timeoutMs: ATTEMPT_TIMEOUT_MS,
    signal: stopping,
  }).then(
    (statusCode) => ({ statusCode, error: statusProblem(statusCode) }),
    (error: unknown) => ({ statusCode: null, error: excerpt(error instanceof Error ? error.message : String(error)) }),
  );
  try {
    if (stopping.aborted) return await releaseClaim(services, delivery);
    await recordAttempt(services, delivery, { ...outcome, durationMs: Math.round(performance.now() - started) });
  } catch (error) {
    // The claim runs out and the delivery is tried again: at least once.
    services.log("error", "webhook_record_failed", { delivery: delivery.id, error: describeFault(error) });
  }
}
