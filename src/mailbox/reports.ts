import {
  lockedSent,
  recipientReportsOf,
  saveRecipientReport,
  sentByMessageId,
  setDeliveryStatus,
  suppress,
} from "../db/reports.ts";
import type { Tx } from "../db/statements.ts";
import type { RecipientReport, SentEmail } from "../generated/prisma/sqlite/client.ts";
import type { Emit } from "./events.ts";
import { addressesOf } from "./records.ts";
import type { Services } from "./services.ts";

// What came back about mail an agent sent: delivery status notifications
// and complaint reports, believed when they arrive at the sent email's own
// return path (return-path.ts) or carry a listed feedback loop's signature.

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
 * original address names, else its final one, without case. Null when it is
 * none of them, even when the email went to one address: a report cannot
 * speak for an address the email did not go to (a forwarder's or a list
 * member's is not the address the agent mailed).
 */
export function sentRecipientOf(sentTo: string[], reported: ReportedRecipient): string | null {
  for (const address of [reported.originalRecipient, reported.finalRecipient]) {
    const found = address && sentTo.find((sent) => sent.toLowerCase() === address.toLowerCase());
    if (found) return found;
  }
  return null;
}

/**
 * When a report says it happened, within what can be: not before the send,
 * nor after its arrival. A date ahead of now (a reporting server's clock
 * running fast, or a forger pinning a recipient's state against later
 * reports) is taken as now, so reports dated ahead keep their arrival order.
 */
export function reportedAt(at: Date | null, sentAt: Date, now: Date): Date {
  return new Date(Math.min(Math.max((at ?? now).getTime(), sentAt.getTime()), now.getTime()));
}

const EVENT_OF = {
  delivered: "email.delivered",
  delayed: "email.delayed",
  bounced: "email.bounced",
  complained: "email.complained",
} as const;

/** Reports are written by anyone: what is kept of a field is bounded. */
const bounded = (text: string | null, max = 1000) => (text === null ? null : text.slice(0, max));

/** Why a report changed nothing: it is then filed as mail, saying so (Email.reportIgnored). */
export type ReportIgnored =
  /** It did not arrive at the return path of a sent email, and no feedback loop the operator lists signed it. */
  | "not_at_return_path"
  /** It arrived at a return path from a sender other than the empty one (MAIL FROM:<>) reports come from. */
  | "sender_not_empty"
  /** A feedback loop's complaint about nothing the agent sent. */
  | "no_sent_email"
  /** It named no address the sent email went to. */
  | "no_recipient_mailed";

/** A report as it reached one agent, with what vouches for it. */
export interface ArrivedReport {
  agentId: string;
  report: DeliveryReport;
  /** The sent email whose return path it was delivered to, as the receiving server recorded; null elsewhere. */
  returnPathOf: string | null;
  /** The reverse path the receiving server recorded: "" for MAIL FROM:<>, null when it did not say. */
  reversePath: string | null;
  /** Domains whose DKIM signatures on it passed, lower case. */
  dkimDomains: string[];
}

/**
 * The sent email a report speaks for, or why it is not believed. A report
 * proves itself by where it arrived, the return path of one sent email, from
 * the empty reverse path servers send their reports from (RFC 5321 4.5.5,
 * RFC 3464 2); a complaint also by a DKIM signature of a feedback loop the
 * operator lists, wherever it arrived, and is then matched by the Message-IDs
 * it names.
 */
async function believedSent(
  tx: Tx,
  feedbackLoops: string[],
  arrived: ArrivedReport,
): Promise<SentEmail | ReportIgnored> {
  const { agentId, report, returnPathOf, reversePath } = arrived;
  const fromFeedbackLoop =
    report.kind === "complaint" && arrived.dkimDomains.some((domain) => feedbackLoops.includes(domain));
  if (returnPathOf !== null && (reversePath === "" || fromFeedbackLoop)) {
    return (await lockedSent(tx, agentId, returnPathOf)) ?? "no_sent_email";
  }
  if (fromFeedbackLoop) return (await sentByMessageId(tx, agentId, report.originalMessageIds)) ?? "no_sent_email";
  return returnPathOf === null ? "not_at_return_path" : "sender_not_empty";
}

/**
 * Records a report on the agent's sent email it speaks for, with the events
 * and suppressions it brings; null once recorded, else why it changed nothing
 * (it is then filed as ordinary mail). A report older than the one a
 * recipient has changes nothing: reports may arrive out of order.
 */
export async function recordReport(
  tx: Tx,
  emit: Emit,
  { config, clock }: Pick<Services, "config" | "clock">,
  arrived: ArrivedReport,
): Promise<ReportIgnored | null> {
  const sent = await believedSent(tx, config.feedbackLoopDomains, arrived);
  if (typeof sent === "string") return sent;
  const { agentId, report } = arrived;
  const now = clock.now();
  const sentTo = [sent.toList, sent.ccList, sent.bccList].flatMap(addressesOf);
  const latest = new Map((await recipientReportsOf(tx, sent.id)).map((row) => [row.recipient, row]));
  let named = 0;
  for (const reported of report.recipients) {
    const recipient = sentRecipientOf(sentTo, reported);
    if (recipient === null) continue;
    named++;
    const row: RecipientReport = {
      sentId: sent.id,
      recipient,
      status: reported.status,
      action: bounded(reported.action, 100) ?? "",
      statusCode: bounded(reported.statusCode, 20),
      diagnosticCode: bounded(reported.diagnosticCode),
      remoteMta: bounded(reported.remoteMta, 255),
      at: reportedAt(reported.at, sent.sentAt, now),
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
  if (named === 0) return "no_recipient_mailed";
  await setDeliveryStatus(tx, sent.id, deliveryStatusOf([...latest.values()].map((row) => row.status)));
  return null;
}
