import { excerpt, ServiceError } from "../errors.ts";

// The kinds of event and what each carries: ids, folder, subject, sender,
// size; never bodies. Besides mail: an agent verified, a webhook disabled.

export const EVENT_TYPES = [
  "email.received",
  "email.sent",
  "email.updated",
  "email.deleted",
  "email.delivered",
  "email.delayed",
  "email.bounced",
  "email.complained",
  "email.send_failed",
  "email.held",
  "email.approved",
  "email.rejected",
  "agent.verified",
  "webhook.disabled",
  "message.screened",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

/** What a report said of one recipient of a sent email. */
export interface DeliveryEvent {
  sentId: string;
  threadId: string;
  recipient: string;
  status: "delivered" | "delayed" | "bounced" | "complained";
  diagnosticCode: string | null;
}

export interface EventData {
  "email.received": {
    emailId: string;
    folder: string;
    subject: string | null;
    from: { address: string; name: string | null };
    size: number;
    /** Whether a machine sent it (auto-replied, auto-generated, list), null for a person. */
    autoSubmitted: string | null;
  };
  "email.sent": { sentId: string; to: string[]; subject: string };
  /** labels: when the change put labels on or took them off, which. */
  "email.updated": {
    emailId: string;
    folder: string;
    isRead: boolean;
    labels?: { added: string[]; removed: string[] };
  };
  /** folder: the one it was deleted from. */
  "email.deleted": { emailId: string; folder: string; permanent: boolean };
  "email.delivered": DeliveryEvent;
  "email.delayed": DeliveryEvent;
  "email.bounced": DeliveryEvent;
  "email.complained": DeliveryEvent;
  /** A scheduled draft the send refused: it stays, failed, with why. */
  "email.send_failed": { draftId: string; code: string; message: string };
  /** A message that waits for a person's decision; its link went to them, never here. sendAt: null for at once. */
  "email.held": { draftId: string; to: string[]; cc: string[]; subject: string; sendAt: number | null };
  /** A person approved it: it goes now, or at its sendAt. */
  "email.approved": { draftId: string; sendAt: number | null };
  /** A person rejected it, or nobody decided in time (reason "expired"). */
  "email.rejected": { draftId: string; reason: string | null };
  "agent.verified": { verifiedAt: number; socialUsername: string | null };
  "webhook.disabled": { webhookId: string; url: string; reason: string };
  /** The prompt-injection screening found a filed email suspicious: the folder it was filed in, the names of its signals. */
  "message.screened": { emailId: string; folder: string; verdict: "suspicious"; signals: string[] };
}

/** The event types a request names, each once; a name that is not one is a bad request naming the field. */
export function checkedEventTypes(types: readonly string[], field: string): EventType[] {
  const unknown = types.find((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown !== undefined) {
    throw new ServiceError(
      "BAD_REQUEST",
      `${field}: ${JSON.stringify(excerpt(unknown))} is not one of ${EVENT_TYPES.join(", ")}`,
    );
  }
  return [...new Set(types)] as EventType[];
}
