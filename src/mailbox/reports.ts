import {
  recipientReportsOf,
  saveRecipientReport,
  sentByMessageId,
  setDeliveryStatus,
  suppress,
} from "../db/reports.ts";
import type { Tx } from "../db/statements.ts";
import type { RecipientReport } from "../generated/prisma/sqlite/client.ts";
import type { Emit } from "./events.ts";
import { addressesOf } from "./records.ts";

// What came back about mail an agent sent: delivery status notifications
// and complaint reports, matched to the sent email by its Message-ID.

/** A recipient's state as reports tell it, worst last. */
export const DELIVERY_STATUSES = ["delivered", "delayed", "complained", "bounced"] as const;
export type DeliveryStatus = (typeof DELIVERY_STATUSES)[number];

/** One recipient as a report names it. */
export interface ReportedRecipient {
  /** The address the reporting server delivered to (after any aliasing). */
  finalRecipient: string;
  /** The address as the sender gave it, when the report says. */
  originalRecipient: string | null;
  status: DeliveryStatus;
  /** The report's own word: failed, delayed, delivered, relayed, expanded, or the complaint's feedback type. */
  action: string;
  /** The enhanced status code (5.1.1), from the Status field or the diagnostic text. */
  statusCode: string | null;
  diagnosticCode: string | null;
  remoteMta: string | null;
  /** When the reporting server says it happened. */
  at: Date | null;
}

/** A delivery status notification or a complaint, as the inbound side read it. */
export interface DeliveryReport {
  kind: "delivery" | "complaint";
  /** The Message-IDs it may be about, the likeliest first. */
  originalMessageIds: string[];
  recipients: ReportedRecipient[];
}

/** Whether a machine sent a received email, as its headers tell; null for a person. */
export type AutoSubmitted = "auto-replied" | "auto-generated" | "list" | null;

/** The sent email's status from its recipients': the worst, or sent before any report. */
export function deliveryStatusOf(statuses: string[]): DeliveryStatus | "sent" {
  const worst = Math.max(...statuses.map((status) => DELIVERY_STATUSES.indexOf(status as DeliveryStatus)));
  return DELIVERY_STATUSES[worst] ?? "sent";
}

/** Whether a report puts the recipient on the agent's suppression list: a hard bounce (5.x.x) or a complaint. */
export function suppresses(recipient: ReportedRecipient): boolean {
  return (
    recipient.status === "complained" ||
    (recipient.status === "bounced" && recipient.statusCode?.startsWith("5") === true)
  );
}

/**
 * Which of the sent email's addresses a reported recipient is: the one its
 * original address names, else its final one, without case; the only one,
 * when the email went to one address (forwarding renamed it). Null when it is
 * none of them: a report cannot speak for an address the email did not go to.
 */
export function sentRecipientOf(sentTo: string[], reported: ReportedRecipient): string | null {
  for (const address of [reported.originalRecipient, reported.finalRecipient]) {
    const found = address && sentTo.find((sent) => sent.toLowerCase() === address.toLowerCase());
    if (found) return found;
  }
  return sentTo.length === 1 ? (sentTo[0] ?? null) : null;
}

const EVENT_OF = {
  delivered: "email.delivered",
  delayed: "email.delayed",
  bounced: "email.bounced",
  complained: "email.complained",
} as const;

/** Reports are written by anyone: what is kept of a field is bounded. */
const bounded = (text: string | null, max = 1000) => (text === null ? null : text.slice(0, max));

/**
 * Records a report on the agent's sent email it is about, with the events
 * and suppressions it brings; false when it is about none of them (it is then
 * filed as ordinary mail). A report older than the one a recipient has
 * changes nothing: reports may arrive out of order.
 */
export async function recordReport(tx: Tx, emit: Emit, agentId: string, report: DeliveryReport, now: Date) {
  const sent = await sentByMessageId(tx, agentId, report.originalMessageIds);
  if (!sent) return false;
  const sentTo = [sent.toList, sent.ccList, sent.bccList].flatMap(addressesOf);
  const latest = new Map((await recipientReportsOf(tx, sent.id)).map((row) => [row.recipient, row]));
  for (const reported of report.recipients) {
    const recipient = sentRecipientOf(sentTo, reported);
    if (recipient === null) continue;
    const row: RecipientReport = {
      sentId: sent.id,
      recipient,
      status: reported.status,
      action: bounded(reported.action, 100) ?? "",
      statusCode: bounded(reported.statusCode, 20),
      diagnosticCode: bounded(reported.diagnosticCode),
      remoteMta: bounded(reported.remoteMta, 255),
      at: reported.at ?? now,
    };
    const before = latest.get(recipient);
    if (before && before.at > row.at) continue;
    await saveRecipientReport(tx, row);
    latest.set(recipient, row);
    if (suppresses(reported)) {
      const address = recipient.toLowerCase();
      const { status: reason, statusCode } = row;
      await suppress(tx, { agentId, address, reason, statusCode, sentId: sent.id, createdAt: now });
    }
    const data = {
      sentId: sent.id,
      threadId: sent.threadId,
      recipient,
      status: reported.status,
      diagnosticCode: row.diagnosticCode,
    };
    await emit({ type: EVENT_OF[reported.status], agentId, data });
  }
  await setDeliveryStatus(tx, sent.id, deliveryStatusOf([...latest.values()].map((row) => row.status)));
  return true;
}
