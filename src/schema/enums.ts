import {
  type DocumentNode,
  type FragmentDefinitionNode,
  type GraphQLNamedType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInterfaceType,
  isObjectType,
  Kind,
  type SelectionSetNode,
} from "graphql";
import { SEND_POLICIES, VERIFICATION_MODES } from "../config.ts";
import { type QuarantineReason, type ScreeningPolicy, SPAM_ACTIONS } from "../mailbox/inspection.ts";
import type { Permission } from "../mailbox/permissions.ts";
import type { AutoSubmitted, DeliveryStatus } from "../mailbox/reports.ts";
import { SIGNAL_NAMES, SIGNAL_PLACES } from "../mailbox/screening/index.ts";
import { builder } from "./builder.ts";

// The closed sets the schema answers with, as enums, so a typed client gets
// their values as a union it can switch on. A value's name is the word REST,
// MCP, events and webhooks carry (lower-case names are legal GraphQL), so
// every door spells it alike. The exceptions are words no GraphQL name may
// hold: RFC 3834's Auto-Submitted keywords (a hyphen) and Rspamd's actions
// (a space). Their enums name them with an underscore and keep the word as
// the value; REST answers the word (respellerOf).

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
const AUTO_SUBMITTED_WORDS = {
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

export const PermissionEnum = builder.enumType("Permission", {
  description: "What a key may do",
  values: {
    read: { description: "Read mail, threads, attachments and search" },
    send: { description: "Send, reply, forward, and drafts" },
    manage: { description: "Folders, labels, deletion, lists, webhooks and keys" },
    events: { description: "Long polls, event streams and subscriptions" },
    agents: { description: "A pod's key only: the pod's agents (made, listed)" },
  } satisfies Record<Permission, { description: string }>,
});

export const VerificationModeEnum = builder.enumType("VerificationMode", {
  description: "Who verifies agents: a person's post on X (social), the operator (admin), or nobody (none)",
  values: VERIFICATION_MODES,
});

export const SendPolicyEnum = builder.enumType("SendPolicy", {
  description: "Which of an agent's sends wait for a person's approval",
  values: SEND_POLICIES,
});

export const ScreeningPolicyEnum = builder.enumType("ScreeningPolicy", {
  description: "What becomes of an agent's mail the prompt-injection screening finds suspicious",
  values: {
    screen: { description: "Filed and marked suspicious (the default)" },
    quarantine: { description: "Held in quarantine until a person releases it" },
  } as const satisfies Record<ScreeningPolicy, unknown>,
});

export const QuarantineReasonEnum = builder.enumType("QuarantineReason", {
  description: "Why a message was held out of its agent's mailbox",
  values: {
    malware: { description: "clamd found malware in it" },
    spam: { description: "Rspamd rejected it" },
    injection: { description: "The screening found it suspicious, and the agent's screening policy is quarantine" },
  } as const satisfies Record<QuarantineReason, unknown>,
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

export const SpamStatusEnum = builder.enumType("SpamStatus", {
  description: "Whether Rspamd gave a verdict",
  values: {
    scanned: { description: "Rspamd answered: see action and score" },
    unscanned: { description: "Rspamd did not answer in time; the message was filed without a verdict" },
  } as const,
});

export const SpamActionEnum = builder.enumType("SpamAction", {
  description: "What Rspamd said to do with it (REST spells these as Rspamd does: no action, add header, …)",
  values: Object.fromEntries(SPAM_ACTIONS.map((action) => [action.replace(" ", "_"), { value: action }])),
});

export const MalwareStatusEnum = builder.enumType("MalwareStatus", {
  description: "What clamd found (infected mail is filed only when a person releases it from quarantine)",
  values: {
    clean: { description: "clamd found nothing" },
    unscanned: { description: "clamd did not answer in time; the message was filed without a verdict" },
    infected: { description: "clamd found malware, and a person released it from quarantine all the same" },
  } as const,
});

export const ScreeningVerdictEnum = builder.enumType("ScreeningVerdict", {
  description: "What the prompt-injection screening made of it",
  values: {
    clear: { description: "No sign, or one weak sign ordinary mail carries too" },
    suspicious: { description: "It seems to address an AI reading it, or to hide text from a person: see signals" },
  } as const,
});

export const SignalNameEnum = builder.enumType("SignalName", {
  description: "A sign the screening looks for (see docs/screening.md)",
  values: SIGNAL_NAMES,
});

export const SignalPlaceEnum = builder.enumType("SignalPlace", {
  description: "Where in the message a sign was found",
  values: SIGNAL_PLACES,
});

/** An enum's words by its GraphQL names, for the enums whose words no GraphQL name may hold. */
function respelledEnums(schema: GraphQLSchema): Map<string, Map<string, unknown>> {
  const enums = new Map<string, Map<string, unknown>>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isEnumType(type) || type.name.startsWith("__")) continue;
    const words = new Map(type.getValues().map((value) => [value.name, value.value]));
    if ([...words].some(([name, word]) => name !== word)) enums.set(type.name, words);
  }
  return enums;
}

/** The response keys down to each such enum a document selects (its fragments included), with its words; through a list, each item. */
function respelledPaths(schema: GraphQLSchema, document: DocumentNode) {
  const enums = respelledEnums(schema);
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const definition of document.definitions) {
    if (definition.kind === Kind.FRAGMENT_DEFINITION) fragments.set(definition.name.value, definition);
  }
  const paths: { path: string[]; words: Map<string, unknown> }[] = [];
  const walk = (type: GraphQLNamedType | undefined, selections: SelectionSetNode, path: string[]): void => {
    for (const selection of selections.selections) {
      if (selection.kind === Kind.FIELD) {
        const field = isObjectType(type) || isInterfaceType(type) ? type.getFields()[selection.name.value] : undefined;
        const key = [...path, selection.alias?.value ?? selection.name.value];
        const words = field && enums.get(getNamedType(field.type).name);
        if (words) paths.push({ path: key, words });
        else if (field && selection.selectionSet) walk(getNamedType(field.type), selection.selectionSet, key);
        continue;
      }
      const fragment = selection.kind === Kind.FRAGMENT_SPREAD ? fragments.get(selection.name.value) : selection;
      const condition = fragment?.typeCondition?.name.value;
      if (fragment) walk(condition ? schema.getType(condition) : type, fragment.selectionSet, path);
    }
  };
  for (const definition of document.definitions) {
    if (definition.kind === Kind.OPERATION_DEFINITION) {
      walk(schema.getRootType(definition.operation) ?? undefined, definition.selectionSet, []);
    }
  }
  return paths;
}

/** Rewrites the value at the path's end, through objects and lists. */
function respellAt(value: unknown, [key, ...rest]: string[], words: Map<string, unknown>): void {
  if (Array.isArray(value)) {
    for (const item of value) respellAt(item, [key as string, ...rest], words);
    return;
  }
  if (typeof value !== "object" || value === null || key === undefined) return;
  const record = value as Record<string, unknown>;
  if (rest.length > 0) respellAt(record[key], rest, words);
  else if (Array.isArray(record[key])) record[key] = (record[key] as string[]).map((name) => words.get(name) ?? name);
  else if (typeof record[key] === "string") record[key] = words.get(record[key]) ?? record[key];
}

/**
 * For a REST route's operation, what puts its data's enum words as their
 * own standards spell them (RFC 3834's auto-replied, Rspamd's add header),
 * at just the places the document selects one (found once per document);
 * null when it selects none.
 */
export function respellerOf(schema: GraphQLSchema, document: DocumentNode): ((data: unknown) => void) | null {
  const paths = respelledPaths(schema, document);
  if (paths.length === 0) return null;
  return (data) => {
    for (const { path, words } of paths) respellAt(data, path, words);
  };
}
