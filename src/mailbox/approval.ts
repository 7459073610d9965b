import type { Config, SendPolicy } from "../config.ts";
import { type Draft, knownAmong } from "../db/drafts.ts";
import { ServiceError } from "../errors.ts";
import type { Emit } from "./events.ts";
import { newReviewToken } from "./keys.ts";
import { type AgentRecord, type RecipientLists, recipientsOf } from "./records.ts";
import type { Services } from "./services.ts";

// Approval before send. The operator's policy for an agent (its own, else
// SEND_POLICY) says which of its messages wait for a person: none, those to an
// address it has not heard from nor had approved, or all. A held message is a
// draft, pending_approval, with a review link: a token of its own (stored
// hashed) that decides this one message and nothing else. The decisions are
// in review.ts.

export function policyOf(agent: AgentRecord, config: Config): SendPolicy {
  return (agent.sendPolicy as SendPolicy | null) ?? config.sendPolicy;
}

/** Whether the agent's policy holds this message for a person's decision. */
export async function mustHold(services: Services, agent: AgentRecord, message: RecipientLists): Promise<boolean> {
  const policy = policyOf(agent, services.config);
  if (policy !== "review_new_recipients") return policy === "review_all";
  const addresses = recipientsOf(message);
  const known = await knownAmong(services.sql, agent.id, addresses);
  return addresses.some((address) => !known.has(address));
}

/** What holding a draft writes, and the link a person decides it by. */
export function holding(config: Config, now: Date) {
  const { reviewToken, reviewTokenHash } = newReviewToken();
  const fields = {
    sendStatus: "pending_approval",
    reviewTokenHash,
    reviewExpiresAt: new Date(now.getTime() + config.approvalTimeoutHours * 3_600_000),
    approvedAt: null,
    rejectReason: null,
    claimedUntil: null,
    failureCode: null,
    failureMessage: null,
  } satisfies Partial<Draft>;
  return { fields, reviewUrl: `${config.publicUrl}/review/${reviewToken}` };
}

/** The agent's event that a message waits for a person, with the link to pass on. */
export function emitHeld(emit: Emit, draft: Draft, reviewUrl: string): Promise<void> {
  return emit({
    type: "email.held",
    agentId: draft.agentId,
    data: { draftId: draft.id, to: JSON.parse(draft.toList) as string[], subject: draft.subject ?? "", reviewUrl },
  });
}

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
