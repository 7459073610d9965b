import { excerpt, ServiceError } from "../errors.ts";

// The kinds of event and what each carries: ids, folder, subject, sender,
// size; never bodies. Besides mail: an agent verified, a webhook disabled.

export const EVENT_TYPES = [
  "email.received",
  "email.sent",
  "email.updated",
  "email.deleted",
  "agent.verified",
  "webhook.disabled",
] as const;
export type EventType = (typeof EVENT_TYPES)[number];

export interface EventData {
  "email.received": {
    emailId: string;
    folder: string;
    subject: string | null;
    from: { address: string; name: string | null };
    size: number;
  };
  "email.sent": { sentId: string; to: string[]; subject: string };
  "email.updated": { emailId: string; folder: string; isRead: boolean };
  "email.deleted": { emailId: string; permanent: boolean };
  "agent.verified": { verifiedAt: number; socialUsername: string | null };
  "webhook.disabled": { webhookId: string; url: string; reason: string };
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
