import { Readable } from "node:stream";
import type SMTPConnection from "nodemailer/lib/smtp-connection";
import type { Envelope, FinalOutcome } from "./delivery.ts";
import type { Connection, ConnectionPool } from "./smtp-pool.ts";

// One message over one connection, and how far it got: until its content
// has gone out, a failure says nothing about the provider; after, only the
// provider's final reply does.

/** What an attempt comes to: the provider's outcome, or a connection that broke before the content went out. */
export type AttemptOutcome = FinalOutcome | { outcome: "failed"; reason: string };

export interface Attempt {
  /** Settles when the provider answers or the connection ends. */
  final: Promise<AttemptOutcome>;
  contentSent(): boolean;
  /** Ends the attempt: before the final dot, the provider can never complete it. */
  close(): void;
}

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

export function attempt(pool: ConnectionPool, connection: Connection, envelope: Envelope, raw: Buffer): Attempt {
  let contentSent = false;
  const content = Readable.from([raw]);
  content.once("end", () => {
    contentSent = true;
  });
  connection.messages++;
  let settle!: (outcome: AttemptOutcome) => void;
  const final = new Promise<AttemptOutcome>((resolve) => {
    settle = resolve;
  });
  // A connection that ends, or that we close, answers no callback of nodemailer's.
  const ended = (reason: string) => settle({ outcome: contentSent ? "unknown" : "failed", reason });
  const onEnd = () => ended("the connection closed");
  connection.smtp.once("end", onEnd);
  connection.smtp.send(envelope, content, (error, info) => {
    connection.smtp.off("end", onEnd);
    if (!error) {
      pool.reuse(connection);
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

/** What is known of an attempt by the deadline: its outcome, or that it is late. */
export function byDeadline(sending: Attempt, signal: AbortSignal): Promise<AttemptOutcome | { outcome: "late" }> {
  return new Promise((resolve) => {
    const onDeadline = () => resolve({ outcome: "late" });
    if (signal.aborted) return onDeadline();
    signal.addEventListener("abort", onDeadline, { once: true });
    void sending.final.then((outcome) => {
      signal.removeEventListener("abort", onDeadline);
      resolve(outcome);
    });
  });
}
