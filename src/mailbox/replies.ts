import { addressOf } from "./agents.ts";
import { answering, replyRecipients } from "./answers.ts";
import { attachmentsToForward } from "./attachments.ts";
import { getEmail, type Reader } from "./emails.ts";
import { type SendResult, sendOnce } from "./outbox.ts";
import {
  type BodyInput,
  checkedAttachments,
  checkedAutoSubmitted,
  checkedBody,
  checkedRecipients,
} from "./outgoing.ts";
import { type AgentRecord, addressesOf, type EmailRecord } from "./records.ts";
import type { Services } from "./services.ts";
import { forwardSubject, replySubject } from "./subjects.ts";

// Answering received mail: reply and reply-all in the original's thread,
// and forward with the original quoted and its attachments carried along.
// Each is a send like any other: the same limits, errors and outcomes.

export interface ReplyInput extends BodyInput {
  replyAll?: boolean | null;
  /** When to send it; past or within a second: now. */
  sendAt?: Date | null;
}

/** A send that answers a received email: the email is part of the request, and so is what the caller may not read. */
const answeringRequest = (operation: string, agent: Reader, emailId: string, input: { sendAt?: Date | null }) => ({
  operation,
  input: { emailId, ...input },
  sendAt: input.sendAt,
  hidden: agent.hidden,
});

export function replyToEmail(
  services: Services,
  agent: AgentRecord & Reader,
  emailId: string,
  input: ReplyInput,
  idempotencyKey?: string | null,
): Promise<SendResult> {
  const request = { ...answeringRequest("reply", agent, emailId, input), inReplyTo: emailId };
  return sendOnce(services, agent, idempotencyKey, request, async () => {
    const original = await getEmail(services, agent, emailId);
    const own = addressOf(agent, services.config);
    return {
      ...replyRecipients(original, own, input.replyAll === true),
      bcc: [],
      subject: replySubject(original.subject),
      ...checkedBody(input),
      replyTo: null,
      ...answering(original),
      autoSubmitted: checkedAutoSubmitted(input.autoSubmitted, "auto-replied"),
    };
  });
}

const escapeHtml = (text: string) =>
  text.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c] ?? c);

/** The original's headers, as mail clients quote them above a forwarded message. */
function forwardedHeaders(original: EmailRecord): [string, string][] {
  const from = original.fromName ? `${original.fromName} <${original.fromAddress}>` : original.fromAddress;
  const to = addressesOf(original.toList);
  return [
    ["From", from],
    // The original's own Date, as mail clients quote it; its arrival when it had none.
    ["Date", (original.headerDate ?? original.receivedAt).toUTCString()],
    ["Subject", original.subject ?? ""],
    ["To", to.length > 0 ? to.join(", ") : original.to],
  ];
}

/** The new text above the original, in text and (when either has HTML) in HTML. */
export function forwardBodies(original: EmailRecord, text: string | null, html: string | null) {
  const headers = forwardedHeaders(original);
  const block = ["---------- Forwarded message ---------", ...headers.map(([k, v]) => `${k}: ${v}`)].join("\n");
  const forwardedText = [text ?? "", block, "", original.bodyText ?? ""].join("\n").trimStart();
  if (html === null && original.bodyHtml === null) return { text: forwardedText, html: null };
  const newHtml = html ?? (text === null ? "" : `<p>${escapeHtml(text).replace(/\n/g, "<br>")}</p>`);
  const headerHtml = headers.map(([k, v]) => `${k}: ${escapeHtml(v)}`).join("<br>");
  const originalHtml = original.bodyHtml ?? `<pre>${escapeHtml(original.bodyText ?? "")}</pre>`;
  return {
    text: forwardedText,
    html: `${newHtml}<div>---------- Forwarded message ---------<br>${headerHtml}</div><br>${originalHtml}`,
  };
}

export interface ForwardInput extends BodyInput {
  to: string[];
  /** When to send it; past or within a second: now. */
  sendAt?: Date | null;
}

export function forwardEmail(
  services: Services,
  agent: AgentRecord & Reader,
  emailId: string,
  input: ForwardInput,
  idempotencyKey?: string | null,
): Promise<SendResult> {
  const request = { ...answeringRequest("forward", agent, emailId, input), forwards: true };
  return sendOnce(services, agent, idempotencyKey, request, async () => {
    const recipients = checkedRecipients({ to: input.to }, services.config.mailDomains);
    const added = checkedAttachments(input.attachments);
    const original = await getEmail(services, agent, emailId);
    return {
      ...recipients,
      subject: forwardSubject(original.subject),
      ...forwardBodies(original, input.text || null, input.html || null),
      attachments: [...(await attachmentsToForward(services, agent, emailId)), ...added],
      replyTo: null,
      inReplyTo: null,
      references: [],
      threadId: original.threadId,
      autoSubmitted: checkedAutoSubmitted(input.autoSubmitted, "auto-generated"),
    };
  });
}
