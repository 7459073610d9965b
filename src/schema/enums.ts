import { type DocumentNode, type GraphQLSchema, getNamedType } from "graphql";
import { SEND_POLICIES } from "../config.ts";
import type { AutoSubmitted, DeliveryStatus } from "../mailbox/reports.ts";
import { builder } from "./builder.ts";
import { selectsField } from "./selects.ts";

// The closed sets the schema answers with, as enums, so a typed client gets
// their values as a union it can switch on. A value's name is the word REST,
// MCP, events and webhooks carry (lower-case names are legal GraphQL), so
// every door spells it alike. The one exception is RFC 3834's Auto-Submitted
// keywords, whose hyphen no GraphQL name may hold: REST answers them as the
// header spells them (AUTO_SUBMITTED_WORDS).

// The store keeps these values as text (SQLite has no enums) and the domain
// writes only these: a field reading one names its type (`as SendStatus`).

const SEND_STATUSES = {
  draft: { description: "A plain draft: it goes when the agent sends it" },
  scheduled: { description: "It goes at its sendAt" },
  failed: { description: "Its scheduled send was refused: see its failure" },
  pending_approval: { description: "It waits for a person, who decides by a link that goes to them only" },
  rejected: { description: "A person rejected it, or nobody decided in time" },
} as const;
export type SendStatus = keyof typeof SEND_STATUSES;

export const SendStatusEnum = builder.enumType("SendStatus", {
  description: "Where a draft stands on its way out",
  values: SEND_STATUSES,
});

const DELIVERY_STATUSES = {
  sent: { description: "Sent; no report came back yet" },
  delivered: { description: "The receiving server took it" },
  delayed: { description: "The receiving server is still trying" },
  complained: { description: "The recipient marked it as spam" },
  bounced: { description: "It could not be delivered" },
} as const satisfies Record<DeliveryStatus | "sent", unknown>;
export type SentStatus = keyof typeof DELIVERY_STATUSES;

export const DeliveryStatusEnum = builder.enumType("DeliveryStatus", {
  description: "What delivery reports say of sent mail: a sent email's worst, or one recipient's",
  values: DELIVERY_STATUSES,
});

export const DirectionEnum = builder.enumType("Direction", {
  description: "Whether a message of a thread was received or sent",
  values: ["received", "sent"] as const,
});

/** GraphQL's names for RFC 3834's Auto-Submitted keywords, and the keywords themselves. */
export const AUTO_SUBMITTED_WORDS = {
  auto_replied: "auto-replied",
  auto_generated: "auto-generated",
  list: "list",
} as const satisfies Record<string, NonNullable<AutoSubmitted>>;

export const AutoSubmittedEnum = builder.enumType("AutoSubmitted", {
  description: "Why a received email looks sent by a machine (REST spells them auto-replied and auto-generated)",
  values: {
    auto_replied: {
      value: AUTO_SUBMITTED_WORDS.auto_replied,
      description: "An automatic answer: Auto-Submitted: auto-replied, or a vacation responder's header",
    },
    auto_generated: {
      value: AUTO_SUBMITTED_WORDS.auto_generated,
      description: "Sent by a program: another Auto-Submitted keyword, Precedence bulk or junk, or a delivery report",
    },
    list: {
      value: AUTO_SUBMITTED_WORDS.list,
      description: "Mail of a mailing list: List-Id, List-Unsubscribe or Precedence: list",
    },
  } as const,
});

export const SendPolicyEnum = builder.enumType("SendPolicy", {
  description: "Which of an agent's sends wait for a person's approval",
  values: SEND_POLICIES,
});

const WEBHOOK_DELIVERY_STATUSES = {
  pending: { description: "It is still to be posted, or posted again" },
  delivered: { description: "The receiver answered 2xx" },
  given_up: { description: "Every attempt failed" },
} as const;
export type WebhookDeliveryStatus = keyof typeof WEBHOOK_DELIVERY_STATUSES;

export const WebhookDeliveryStatusEnum = builder.enumType("WebhookDeliveryStatus", {
  description: "Where a webhook delivery stands",
  values: WEBHOOK_DELIVERY_STATUSES,
});

export const RecordStatusEnum = builder.enumType("RecordStatus", {
  description: "What DNS held for a record at the last verify",
  values: {
    ok: { description: "The record as it should be" },
    missing: { description: "No record of its kind there" },
    wrong: { description: "Records of its kind, none as it should be" },
  } as const,
});

const specWordOf = (value: unknown) => AUTO_SUBMITTED_WORDS[value as keyof typeof AUTO_SUBMITTED_WORDS] ?? value;

/** A REST answer with the Auto-Submitted keywords as RFC 3834 spells them wherever GraphQL gave an autoSubmitted. */
export function inSpecWords(body: unknown): unknown {
  if (Array.isArray(body)) return body.map(inSpecWords);
  if (typeof body !== "object" || body === null) return body;
  const spelled: Record<string, unknown> = {};
  for (const [name, value] of Object.entries(body)) {
    spelled[name] = name === "autoSubmitted" ? specWordOf(value) : inSpecWords(value);
  }
  return spelled;
}

/** Whether an operation selects an autoSubmitted, the one enum REST spells otherwise: only its answers are respelled. */
export function selectsAutoSubmitted(schema: GraphQLSchema, document: DocumentNode): boolean {
  return selectsField(schema, document, (field) => getNamedType(field.type).name === "AutoSubmitted");
}
