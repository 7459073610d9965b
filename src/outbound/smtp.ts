import type { Clock } from "../clock.ts";
import type { SmtpConfig } from "../config.ts";
import type { Metrics } from "../metrics.ts";
import { type Envelope, type FinalOutcome, type Mailer, NotDelivered } from "./delivery.ts";
import { Slots } from "./slots.ts";
import { type Attempt, attempt, byDeadline } from "./smtp-attempt.ts";
import { ConnectionPool } from "./smtp-pool.ts";

// Hands composed messages to the operator's SMTP provider, and knows how far
// each got. Until the message's content has gone out, a failure or a stall
// means it was not delivered: the connection is closed, so the transaction
// can never complete. Once the content has gone out, only the provider's
// final reply says what became of it; if that reply is late, the send is
// unconfirmed and the final outcome arrives later.

/** At most this many connections to the provider at once; further sends wait their turn. */
const MAX_CONNECTIONS = 5;

export function smtpMailer(config: SmtpConfig, deadlineMs: number): Mailer {
  const slots = new Slots(MAX_CONNECTIONS);
  const pool = new ConnectionPool(config, deadlineMs);

  /** An idle connection the provider has dropped meanwhile: the message goes once more on a new one. */
  async function deliver(envelope: Envelope, raw: Buffer, signal: AbortSignal) {
    const reused = pool.takeIdle();
    let sending: Attempt = attempt(pool, reused ?? (await pool.connect(signal)), envelope, raw);
    let known = await byDeadline(sending, signal);
    if (reused && known.outcome === "failed") {
      sending = attempt(pool, await pool.connect(signal), envelope, raw);
      known = await byDeadline(sending, signal);
    }
    return { sending, known };
  }

  return {
    async send(envelope, raw) {
      const signal = AbortSignal.timeout(deadlineMs);
      await slots.take(signal);
      let outcome: Awaited<ReturnType<typeof deliver>>;
      try {
        outcome = await deliver(envelope, raw, signal);
      } catch (error) {
        slots.give();
        throw error;
      }
      const { sending, known } = outcome;
      void sending.final.then(() => slots.give());
      if (known.outcome === "accepted") return known;
      if (known.outcome === "late" && sending.contentSent()) {
        return { outcome: "unconfirmed", final: sending.final as Promise<FinalOutcome> };
      }
      if (known.outcome === "unknown") return { outcome: "unconfirmed", final: Promise.resolve(known) };
      // Closing before the final dot means the provider can never complete this transaction.
      sending.close();
      if (known.outcome === "refused") throw new NotDelivered(`the provider refused it: ${known.reason}`);
      if (known.outcome === "failed") throw new NotDelivered(`the connection failed: ${known.reason}`);
      throw new NotDelivered("the provider did not take the message before the deadline");
    },
    close: () => pool.close(),
  };
}

/** The provider as this instance's sends found it. */
export interface OutboundState {
  lastSuccessAt: Date | null;
  lastErrorAt: Date | null;
  lastError: string | null;
}

/** The mailer, with each send's outcome written down for readiness and counted for /metrics. */
export function observedMailer(
  mailer: Mailer,
  { state, metrics, clock }: { state: OutboundState; metrics: Metrics; clock: Clock },
): Mailer {
  return {
    async send(envelope, raw) {
      const started = performance.now();
      const took = () => (performance.now() - started) / 1000;
      try {
        const delivery = await mailer.send(envelope, raw);
        state.lastSuccessAt = clock.now();
        metrics.send(delivery.outcome, took());
        return delivery;
      } catch (error) {
        Object.assign(state, { lastErrorAt: clock.now(), lastError: (error as Error).message });
        metrics.send("failed", took());
        throw error;
      }
    },
    close: () => mailer.close(),
  };
}
