// What became of a message handed to the provider, as far as is known.

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
export class NotDelivered extends Error {
  constructor(
    message: string,
    /** No session with the provider could be had: refused, unreachable, or its login failed. */
    readonly unreachable = false,
  ) {
    super(message);
  }
}

/** An envelope's sender and recipients. */
export interface Envelope {
  from: string;
  to: string[];
}

export interface Mailer {
  /** Resolves with what is known by the deadline; rejects with NotDelivered. */
  send(envelope: Envelope, raw: Buffer): Promise<Delivery>;
  close(): void;
}
