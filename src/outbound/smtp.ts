import { Readable } from "node:stream";
import SMTPConnection from "nodemailer/lib/smtp-connection";
import type { Clock } from "../clock.ts";
import type { SmtpConfig } from "../config.ts";
import type { Metrics } from "../metrics.ts";

// Hands composed messages to the operator's SMTP provider, and knows how far
// each got. Until the message's content has gone out, a failure or a stall
// means it was not delivered: the connection is closed, so the transaction
// can never complete. Once the content has gone out, only the provider's
// final reply says what became of it; if that reply is late, the send is
// unconfirmed and the final outcome arrives later.

export type FinalOutcome =
  | { outcome: "accepted"; queueId: string | null }
  | { outcome: "refused"; reason: string }
  /** The connection ended before the final reply: the provider may or may not deliver it. */
  | { outcome: "unknown"; reason: string };

export type Delivery =
  | { outcome: "accepted"; queueId: string | null }
  /** The content went out but no final reply came within the deadline. */
  | { outcome: "unconfirmed"; final: Promise<FinalOutcome> };

/** The message was not delivered and never will be by this attempt. */
export class NotDelivered extends Error {}

export interface Mailer {
  /** Resolves with what is known by the deadline; rejects with NotDelivered. */
  send(envelope: { from: string; to: string[] }, raw: Buffer): Promise<Delivery>;
  close(): void;
}

/** At most this many connections to the provider at once; further sends wait their turn. */
const MAX_CONNECTIONS = 5;
const MAX_MESSAGES_PER_CONNECTION = 100;
/** An unused connection is closed after this long, before the provider drops it. */
const IDLE_MS = 30_000;
/** RFC 5321 4.5.3.2.6: a client waits up to 10 minutes for the reply to the final dot. */
const FINAL_REPLY_MS = 10 * 60_000;

/** The queue id in a 250 reply as providers word it: "queued as ID", "id=ID", "Ok ID". */
const QUEUE_ID = [
  /queued as <?([^\s<>;,]+)/i,
  /\bid=<?([^\s<>;,]+)/i,
  /^250[ -](?:\d\.\d\.\d\s+)?ok:?\s+<?([^\s<>;,]{8,})>?\s*$/i,
];

export function queueIdOf(response: string): string | null {
  for (const pattern of QUEUE_ID) {
    const id = pattern.exec(response)?.[1];
    if (id) return id;
  }
  return null;
}

/** A reply from the provider refusing the message, as opposed to a broken connection. */
function isRefusal(error: SMTPConnection.SMTPError): boolean {
  return typeof error.responseCode === "number" && error.responseCode >= 400;
}

/** At most n holders at a time, served in order; a waiter gives up when its signal aborts. */
class Slots {
  #free: number;
  #waiting: (() => void)[] = [];

  constructor(size: number) {
    this.#free = size;
  }

  take(signal: AbortSignal): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const granted = () => {
        signal.removeEventListener("abort", gaveUp);
        resolve();
      };
      const gaveUp = () => {
        this.#waiting = this.#waiting.filter((waiter) => waiter !== granted);
        reject(new NotDelivered("every connection to the provider stayed busy until the deadline"));
      };
      signal.addEventListener("abort", gaveUp, { once: true });
      this.#waiting.push(granted);
    });
  }

  give(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}

interface Connection {
  smtp: SMTPConnection;
  messages: number;
  idleTimer?: NodeJS.Timeout;
}

export function smtpMailer(config: SmtpConfig, deadlineMs: number): Mailer {
  const slots = new Slots(MAX_CONNECTIONS);
  const idle = new Set<Connection>();
  const open = new Set<SMTPConnection>();

  function connect(signal: AbortSignal): Promise<Connection> {
    const smtp = new SMTPConnection({
      host: config.host,
      port: config.port,
      secure: config.secure,
      connectionTimeout: deadlineMs,
      greetingTimeout: deadlineMs,
      socketTimeout: FINAL_REPLY_MS,
    });
    open.add(smtp);
    const connection: Connection = { smtp, messages: 0 };
    smtp.once("end", () => {
      open.delete(smtp);
      idle.delete(connection);
      clearTimeout(connection.idleTimer);
    });
    // Errors also reach the callback of whatever was asked; this keeps them from being unhandled.
    smtp.on("error", () => {});
    return new Promise((resolve, reject) => {
      const fail = (error: unknown) => {
        signal.removeEventListener("abort", onDeadline);
        smtp.close();
        reject(new NotDelivered(`the provider could not be reached: ${(error as Error).message}`));
      };
      const onDeadline = () => fail(new Error("no session before the deadline"));
      const ready = () => {
        signal.removeEventListener("abort", onDeadline);
        resolve(connection);
      };
      signal.addEventListener("abort", onDeadline, { once: true });
      smtp.connect((error) => {
        if (error) return fail(error);
        if (!config.user) return ready();
        smtp.login({ user: config.user, pass: config.password }, (loginError) =>
          loginError ? fail(loginError) : ready(),
        );
      });
    });
  }

  function reuse(connection: Connection): void {
    if (connection.smtp.destroyed || connection.messages >= MAX_MESSAGES_PER_CONNECTION) {
      connection.smtp.quit();
      return;
    }
    connection.idleTimer = setTimeout(() => {
      idle.delete(connection);
      connection.smtp.quit();
    }, IDLE_MS);
    idle.add(connection);
  }

  function takeIdle(): Connection | null {
    const [connection] = idle;
    if (!connection) return null;
    idle.delete(connection);
    clearTimeout(connection.idleTimer);
    return connection;
  }

  /**
   * One message over one connection. `final` settles when the provider
   * answers or the connection ends; `failed` marks a connection that broke
   * before the content went out, which says nothing about the provider.
   */
  function attempt(connection: Connection, envelope: { from: string; to: string[] }, raw: Buffer) {
    let contentSent = false;
    const content = Readable.from([raw]);
    content.once("end", () => {
      contentSent = true;
    });
    connection.messages++;
    let settle!: (outcome: FinalOutcome | { outcome: "failed"; reason: string }) => void;
    const final = new Promise<FinalOutcome | { outcome: "failed"; reason: string }>((resolve) => {
      settle = resolve;
    });
    // A connection that ends, or that we close, answers no callback of nodemailer's.
    const ended = (reason: string) => settle({ outcome: contentSent ? "unknown" : "failed", reason });
    const onEnd = () => ended("the connection closed");
    connection.smtp.once("end", onEnd);
    connection.smtp.send(envelope, content, (error, info) => {
      connection.smtp.off("end", onEnd);
      if (!error) {
        reuse(connection);
        return settle({ outcome: "accepted", queueId: queueIdOf(info.response ?? "") });
      }
      connection.smtp.close();
      if (isRefusal(error)) settle({ outcome: "refused", reason: error.message });
      else ended(error.message);
    });
    const close = () => {
      connection.smtp.close();
      ended("closed before the provider answered");
    };
    return { final, contentSent: () => contentSent, close };
  }

  /** What is known of an attempt by the deadline. */
  function byDeadline(sending: ReturnType<typeof attempt>, signal: AbortSignal) {
    return new Promise<FinalOutcome | { outcome: "failed"; reason: string } | { outcome: "late" }>((resolve) => {
      const onDeadline = () => resolve({ outcome: "late" });
      if (signal.aborted) return onDeadline();
      signal.addEventListener("abort", onDeadline, { once: true });
      void sending.final.then((outcome) => {
        signal.removeEventListener("abort", onDeadline);
        resolve(outcome);
      });
    });
  }

  async function deliver(envelope: { from: string; to: string[] }, raw: Buffer, signal: AbortSignal) {
    const reused = takeIdle();
    let sending = attempt(reused ?? (await connect(signal)), envelope, raw);
    let known = await byDeadline(sending, signal);
    // An idle connection the provider has dropped meanwhile: once more on a new one.
    if (reused && known.outcome === "failed") {
      sending = attempt(await connect(signal), envelope, raw);
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
    close() {
      for (const smtp of open) smtp.close();
    },
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
