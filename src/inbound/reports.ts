import type { ParsedMail } from "mailparser";
import { messageIdsIn, parseMime } from "../mailbox/mime.ts";
import type { DeliveryReport, ReportedRecipient } from "../mailbox/reports.ts";

// Reports about mail the service sent: delivery status notifications
// (RFC 3464, multipart/report; report-type=delivery-status) and complaint
// reports (RFC 5965 ARF, report-type=feedback-report). A report's parts are
// the direct children of its multipart/report: split here, each then read
// by mailparser, which decodes whatever transfer encoding a part carries.

/** The direct parts of a multipart body, each a MIME entity of its own (headers, blank line, body). */
function partsOf(raw: Buffer, boundary: string): Buffer[] {
  const parts: string[][] = [];
  let current: string[] | undefined;
  for (const line of raw.toString("latin1").split(/\r?\n/)) {
    const bare = line.trimEnd();
    if (bare === `--${boundary}--`) break;
    if (bare === `--${boundary}`) {
      current = [];
      parts.push(current);
    } else current?.push(line);
  }
  return parts.map((part) => Buffer.from(part.join("\r\n"), "latin1"));
}

/** Header-style fields (`Name: value`, continued on indented lines), one map per blank-line-separated group. */
function fieldGroups(text: string): Map<string, string>[] {
  return text
    .replace(/\r\n/g, "\n")
    .replace(/\n[ \t]+/g, " ")
    .split(/\n\s*\n/)
    .map((group) => {
      const fields = new Map<string, string>();
      for (const line of group.split("\n")) {
        const colon = line.indexOf(":");
        if (colon > 0) fields.set(line.slice(0, colon).trim().toLowerCase(), line.slice(colon + 1).trim());
      }
      return fields;
    })
    .filter((fields) => fields.size > 0);
}

/** A typed field's value without its type: `rfc822; a@b` → `a@b`, `<a@b>` → `a@b`. */
function untyped(value: string | undefined): string | null {
  if (!value) return null;
  const bare = value.includes(";") ? value.slice(value.indexOf(";") + 1) : value;
  return (
    bare
      .trim()
      .replace(/^<(.*)>$/, "$1")
      .trim() || null
  );
}

const STATUS_CODE = /\b([245])\.(\d{1,3})\.(\d{1,3})\b/;

/** The enhanced status code: the Status field's, else the first one the diagnostic text holds. */
function statusCodeOf(fields: Map<string, string>): string | null {
  return (
    STATUS_CODE.exec(fields.get("status") ?? "")?.[0] ??
    STATUS_CODE.exec(fields.get("diagnostic-code") ?? "")?.[0] ??
    null
  );
}

function dateOf(value: string | undefined): Date | null {
  const date = value ? new Date(value.replace(/\s*\([^)]*\)\s*$/, "")) : null;
  return date && !Number.isNaN(date.getTime()) ? date : null;
}

const ACTIONS: Record<string, ReportedRecipient["status"]> = {
  failed: "bounced",
  delayed: "delayed",
  delivered: "delivered",
  relayed: "delivered",
  expanded: "delivered",
};

/** The recipients of a delivery status notification, one per recipient group with a known action. */
function deliveryRecipients(groups: Map<string, string>[]): ReportedRecipient[] {
  const [perMessage, ...perRecipient] = groups;
  const arrived = dateOf(perMessage?.get("arrival-date"));
  return perRecipient.flatMap((fields) => {
    const action = (fields.get("action") ?? "").toLowerCase().split(/[\s(]/)[0] ?? "";
    const status = ACTIONS[action];
    const finalRecipient = untyped(fields.get("final-recipient"));
    if (!status || !finalRecipient) return [];
    return [
      {
        finalRecipient,
        originalRecipient: untyped(fields.get("original-recipient")),
        status,
        action,
        statusCode: statusCodeOf(fields),
        diagnosticCode: untyped(fields.get("diagnostic-code")),
        remoteMta: untyped(fields.get("remote-mta"))?.replace(/\.?\s*\(.*$/, "") ?? null,
        at: dateOf(fields.get("last-attempt-date")) ?? arrived,
      },
    ];
  });
}

/** The recipient of a complaint: Original-Rcpt-To, else the returned message's To. */
function complaintRecipients(fields: Map<string, string>, returnedTo: string | null): ReportedRecipient[] {
  const recipient = untyped(fields.get("original-rcpt-to")) ?? returnedTo;
  if (!recipient) return [];
  return [
    {
      finalRecipient: recipient,
      originalRecipient: null,
      status: "complained",
      action: (fields.get("feedback-type") ?? "abuse").toLowerCase(),
      statusCode: null,
      diagnosticCode: fields.get("feedback-type") ?? null,
      remoteMta: untyped(fields.get("reporting-mta")),
      at: dateOf(fields.get("arrival-date") ?? fields.get("received-date")),
    },
  ];
}

function contentType(part: ParsedMail): string {
  return ((part.headers.get("content-type") as { value?: string } | undefined)?.value ?? "").toLowerCase();
}

/** The report's own fields: mailparser reads a delivery-status part as text, a feedback-report as an attachment. */
function reportFields(part: ParsedMail): string | null {
  const type = contentType(part);
  if (type === "message/delivery-status") return part.text ?? "";
  if (type === "message/feedback-report") return part.attachments[0]?.content.toString("utf8") ?? "";
  return null;
}

const RETURNED = /^(message\/rfc822|text\/rfc822-headers)$/;

/** The body of a part: what follows its headers' blank line. */
function bodyOf(part: Buffer): Buffer {
  const text = part.toString("latin1");
  const blank = /\r?\n\r?\n/.exec(text);
  return blank ? Buffer.from(text.slice(blank.index + blank[0].length), "latin1") : Buffer.alloc(0);
}

/** The returned message (whole, or its headers alone): mailparser inlines one shown inline, so its body is read as it is. */
function returnedSource(part: ParsedMail, raw: Buffer): Buffer | null {
  if (!RETURNED.test(contentType(part))) return null;
  return part.attachments[0]?.content ?? bodyOf(raw);
}

/**
 * The report a message is, or null when it is none. `mail` is the message
 * as parsed for filing; `raw` its source, split again for the report's parts.
 */
export async function reportOf(mail: ParsedMail, raw: Buffer): Promise<DeliveryReport | null> {
  const type = mail.headers.get("content-type") as { value?: string; params?: Record<string, string> } | undefined;
  const reportType = type?.params?.["report-type"]?.toLowerCase();
  const boundary = type?.params?.boundary;
  if (type?.value?.toLowerCase() !== "multipart/report" || !boundary) return null;
  if (reportType !== "delivery-status" && reportType !== "feedback-report") return null;
  const sources = partsOf(raw, boundary);
  const parts = await Promise.all(sources.map((part) => parseMime(part)));
  const returnedRaw = parts
    .map((part, i) => returnedSource(part, sources[i] as Buffer))
    .find((found) => found !== null);
  const returned = returnedRaw ? await parseMime(returnedRaw) : null;
  const groups = fieldGroups(parts.map(reportFields).find((text) => text !== null) ?? "");
  const returnedTo = returned?.to && !Array.isArray(returned.to) ? (returned.to.value[0]?.address ?? null) : null;
  const recipients =
    reportType === "delivery-status"
      ? deliveryRecipients(groups)
      : complaintRecipients(groups[0] ?? new Map(), returnedTo);
  const original = [
    returned?.messageId,
    ...messageIdsIn(groups[0]?.get("x-original-message-id")),
    ...messageIdsIn(mail.inReplyTo),
    ...messageIdsIn(mail.references).reverse(),
  ].filter((id): id is string => typeof id === "string" && id.length > 0);
  return {
    kind: reportType === "delivery-status" ? "delivery" : "complaint",
    originalMessageIds: [...new Set(original)],
    recipients,
  };
}
