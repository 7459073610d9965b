import { mustHold } from "./approval.ts";
import { isPending, keepForLater, type PendingSend, type SendResult } from "./drafts.ts";
import type { Reader } from "./emails.ts";
import { type AnswerCodec, runOnce } from "./idempotency.ts";
import {
  checkedAutoSubmitted,
  checkedBody,
  checkedMessageId,
  checkedOutgoing,
  checkedRecipients,
  checkedReplyTo,
  checkedSubject,
  type Outgoing,
  type OutgoingInput,
} from "./outgoing.ts";
import type { AgentRecord } from "./records.ts";
import { deliver, SENT_ANSWER } from "./sending.ts";
import type { Services } from "./services.ts";
import { referencesFor } from "./threads.ts";

// What asking to send does: the message goes now; or it waits as a draft,
// scheduled for its sendAt, or held for a person when the agent's policy says
// so. Send, reply and forward come through here, each once per
// Idempotency-Key.

export type { SendResult };

/** A sendAt this close counts as now. */
const NOW_MS = 1_000;

/** A send's answer as an idempotent answer is kept: the sent record, or what the draft it waits as answered. */
const SEND_ANSWER: AnswerCodec<SendResult> = {
  encode: (result) =>
    isPending(result)
      ? { pending: { ...result, sendAt: result.sendAt?.getTime() ?? null } }
      : SENT_ANSWER.encode(result),
  decode: (stored) => {
    if (typeof stored !== "object" || stored === null || !("pending" in stored)) return SENT_ANSWER.decode(stored);
    // A review link never goes back to the agent, however the answer was kept.
    const { reviewUrl: _, ...pending } = stored.pending as PendingSend & { sendAt: number | null; reviewUrl?: string };
    return { ...pending, sendAt: pending.sendAt === null ? null : new Date(pending.sendAt) };
  },
};

/** When to send, and what it answers: how a send waits, if it does. */
export interface SendRequest {
  operation: string;
  input: unknown;
  sendAt: Date | null | undefined;
  /** The received email it answers, which a draft it waits as names. */
  inReplyTo?: string;
  /** Whether it forwards a received email, which a draft it waits as quotes (and says so). */
  forwards?: boolean;
  /**
   * The folder the caller may not read, when the answer shows a received email (a reply's or forward's): part
   * of the request, so that a key barred from junk is never answered what a key that sees junk was.
   */
  hidden?: string | null;
}

/** Runs a send once per Idempotency-Key (see idempotency.ts): now, at its time, or once a person approves it. */
export function sendOnce(
  services: Services,
  agent: AgentRecord,
  key: string | null | undefined,
  request: SendRequest,
  outgoing: () => Promise<Outgoing>,
): Promise<SendResult> {
  const { operation, input, sendAt, inReplyTo = null, forwards = false, hidden } = request;
  return runOnce(services, agent.id, key, { operation, input, hidden }, SEND_ANSWER, async () => {
    const out = checkedOutgoing(await outgoing());
    const later = sendAt != null && sendAt.getTime() > services.clock.now().getTime() + NOW_MS;
    const hold = !later && (await mustHold(services, agent, out));
    if (!later && !hold) return deliver(services, agent, out);
    return keepForLater(services, agent, out, { sendAt: later ? sendAt : null, inReplyTo, forwards, hold });
  });
}

export interface SendInput extends OutgoingInput {
  /** When to send it; past or within a second: now. */
  sendAt?: Date | null;
}

/**
 * Sends an email from the agent's address; with inReplyTo, in the thread of the message it names, with its
 * References when the caller may read it (what it may not is part of the request, as for a reply).
 */
export function sendEmail(
  services: Services,
  agent: AgentRecord & Reader,
  input: SendInput,
  idempotencyKey?: string | null,
): Promise<SendResult> {
  const request = { operation: "send", input, sendAt: input.sendAt, hidden: agent.hidden };
  return sendOnce(services, agent, idempotencyKey, request, async () => {
    const inReplyTo = input.inReplyTo == null ? null : checkedMessageId(input.inReplyTo, "inReplyTo");
    return {
      ...checkedRecipients(input, services.config.mailDomains),
      subject: checkedSubject(input.subject),
      ...checkedBody(input),
      replyTo: checkedReplyTo(input.replyTo, services.config.mailDomains),
      inReplyTo,
      references: inReplyTo === null ? [] : await referencesFor(services, agent, inReplyTo),
      threadId: null,
      autoSubmitted: checkedAutoSubmitted(input.autoSubmitted, "auto-generated"),
    };
  });
}
