import { type Config, SEND_POLICIES, type SendPolicy } from "../config.ts";
import { type Draft, knownAmong } from "../db/drafts.ts";
import { podSendPolicy } from "../db/pods.ts";
import { insertLink } from "../db/reviews.ts";
import type { Tx } from "../db/statements.ts";
import { ServiceError } from "../errors.ts";
import type { Emit } from "./events.ts";
import { type Link, newReviewLink } from "./keys.ts";
import { type AgentRecord, addressesOf, type RecipientLists, recipientsOf } from "./records.ts";
import { queueNotices } from "./review-notices.ts";
import type { Services } from "./services.ts";

// Approval before send. The policy for an agent (its own, set by the
// operator; else its pod's, set by the operator or a key of the pod holding
// manage; else SEND_POLICY) says which of its messages wait for a person:
// none, those to an address it has neither had approved nor heard from with
// authenticated mail, or all. A held message is a draft, pending_approval,
// with a review link: a token of its own (stored hashed) that decides this
// one message and nothing else. The link goes to the agent's reviewer (review-notices.ts), never to
// the agent: its answers and events say only that the message waits. The
// decisions are in review.ts.

/** The send policy in force: the narrowest one set (an agent's own, else its pod's), else SEND_POLICY. */
export function policyOf(config: Config, set: { agent?: string | null; pod?: string | null }): SendPolicy {
  return ((set.agent ?? set.pod) as SendPolicy | null | undefined) ?? config.sendPolicy;
}

/** A policy as given to be set: one of SEND_POLICIES, or null for the wider scope's. */
export function checkedPolicy(sendPolicy: string | null): string | null {
  if (sendPolicy !== null && !(SEND_POLICIES as readonly string[]).includes(sendPolicy)) {
    throw new ServiceError("BAD_REQUEST", `sendPolicy must be ${SEND_POLICIES.join(", ")} or null`);
  }
  return sendPolicy;
}

/** Whether the agent's policy holds this message for a person's decision; its pod's is read only when it has none. */
export async function mustHold(services: Services, agent: AgentRecord, message: RecipientLists): Promise<boolean> {
  const pod = agent.sendPolicy === null && agent.podId !== null ? await podSendPolicy(services, agent.podId) : null;
  const policy = policyOf(services.config, { agent: agent.sendPolicy, pod });
  if (policy !== "review_new_recipients") return policy === "review_all";
  const addresses = recipientsOf(message);
  const known = await knownAmong(services.sql, agent.id, addresses);
  return addresses.some((address) => !known.has(address));
}

/** What holding a draft writes, and the link a person decides it by. */
export function holding(config: Config, now: Date) {
  const fields = {
    sendStatus: "pending_approval",
    reviewExpiresAt: new Date(now.getTime() + config.approvalTimeoutHours * 3_600_000),
    approvedAt: null,
    rejectReason: null,
    claimedUntil: null,
    failureCode: null,
    failureMessage: null,
  } satisfies Partial<Draft>;
  return { fields, link: newReviewLink(config) };
}

/**
 * Inside the transaction that holds the draft: its link, the agent's event
 * that it waits (without the link), and the notices that take the link to
 * the agent's reviewer.
 */
export async function recordHold(
  tx: Tx,
  emit: Emit,
  services: Services,
  agent: AgentRecord,
  draft: Draft,
  link: Link,
): Promise<void> {
  const { tokenHash } = link;
  const now = services.clock.now();
  const held = { draftId: draft.id, quarantinedId: null };
  await insertLink(tx, { tokenHash, agentId: agent.id, ...held, createdAt: now, ...UNDECIDED });
  const data = {
    draftId: draft.id,
    to: addressesOf(draft.toList),
    cc: addressesOf(draft.ccList),
    subject: draft.subject ?? "",
    sendAt: draft.sendAt?.getTime() ?? null,
  };
  await emit({ type: "email.held", agentId: agent.id, data });
  await queueNotices(tx, services, agent, draft, link.url);
}

const UNDECIDED = { decision: null, decidedAt: null, reason: null };

/**
 * A held draft is the person's to decide, and a rejected one stays as it was
 * rejected: the agent may read either and delete it, not change or send it.
 */
export function assertAgentMayChange(draft: Draft): void {
  if (draft.sendStatus === "pending_approval") {
    throw new ServiceError("CONFLICT", "This message waits for a person's approval: delete it to withdraw it", {
      code: "AWAITING_APPROVAL",
    });
  }
  if (draft.sendStatus === "rejected") {
    throw new ServiceError("CONFLICT", "This message was rejected: write a new draft to send something else", {
      code: "MESSAGE_REJECTED",
    });
  }
}
