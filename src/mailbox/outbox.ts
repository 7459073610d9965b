import type { Draft } from "../db/drafts.ts";
import { mustHold } from "./approval.ts";
import { isPending, keepForLater, type PendingSend, type SendResult } from "./drafts.ts";

export type { SendResult };

import { type AnswerCodec, once } from "./idempotency.ts";
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

/** A sendAt this close counts as now. */
const NOW_MS = 1_000;

const DRAFT_DATES = ["sendAt", "claimedUntil", "reviewExpiresAt", "approvedAt", "createdAt", "updatedAt"] as const;

/** A send's answer as an idempotent answer is kept: the sent record, or the draft it waits as. */
const SEND_ANSWER: AnswerCodec<SendResult> = {
  encode: (result) => {
    if (!isPending(result)) return SENT_ANSWER.encode(result);
    const draft = Object.fromEntries(
      Object.entries(result.draft).map(([name, value]) => [name, value instanceof Date ? value.getTime() : value]),
    );
    return { pending: { draft, reviewUrl: result.reviewUrl } };
  },
  decode: (stored) => {
    if (typeof stored !== "object" || stored === null || !("pending" in stored)) return SENT_ANSWER.decode(stored);
    const { draft, reviewUrl } = stored.pending as { draft: Record<string, unknown>; reviewUrl: string | null };
    for (const name of DRAFT_DATES) if (typeof draft[name] === "number") draft[name] = new Date(draft[name]);
    return { draft: draft as unknown as Draft, reviewUrl } satisfies PendingSend;
  },
};

/** When to send, and what it answers: how a send waits, if it does. */
export interface SendRequest {
  operation: string;
  input: unknown;
  sendAt: Date | null | undefined;
  /** The received email it answers, which a draft it waits as names. */
  inReplyTo?: string;
}

/** Runs a send once per Idempotency-Key (see idempotency.ts): now, at its time, or once a person approves it. */
export function sendOnce(
  services: Services,
  agent: AgentRecord,
  key: string | null | undefined,
  request: SendRequest,
  outgoing: () => Promise<Outgoing>,
): Promise<SendResult> {
  const { operation, input, sendAt, inReplyTo = null } = request;
  return once(services, agent.id, key, { operation, input }, SEND_ANSWER, async () => {
    const out = checkedOutgoing(await outgoing());
    const later = sendAt != null && sendAt.getTime() > services.clock.now().getTime() + NOW_MS;
    const hold = !later && (await mustHold(services, agent, out));
    if (!later && !hold) return deliver(services, agent, out);
    return keepForLater(services, agent, out, { sendAt: later ? sendAt : null, inReplyTo, hold });
  });
}

export interface SendInput extends OutgoingInput {
  /** When to send it; past or within a second: now. */
  sendAt?: Date | null;
}

/** Sends an email from the agent's address; with inReplyTo, in the thread of the message it names. */
export function sendEmail(
  services: Services,
  agent: AgentRecord,
  input: SendInput,
  idempotencyKey?: string | null,
): Promise<SendResult> {
  return sendOnce(services, agent, idempotencyKey, { operation: "send", input, sendAt: input.sendAt }, async () => {
    const inReplyTo = input.inReplyTo == null ? null : checkedMessageId(input.inReplyTo, "inReplyTo");
    return {
      ...checkedRecipients(input),
      subject: checkedSubject(input.subject),
      ...checkedBody(input),
      replyTo: checkedReplyTo(input.replyTo),
      inReplyTo,
      references: inReplyTo === null ? [] : await referencesFor(services, agent.id, inReplyTo),
      threadId: null,
      autoSubmitted: checkedAutoSubmitted(input.autoSubmitted, "auto-generated"),
    };
  });
}
