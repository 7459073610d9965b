import { excerpt, ServiceError } from "../errors.ts";
import { isRecipientAddress } from "../outbound/address.ts";
import type { MessageAttachment } from "../outbound/compose.ts";

// What a client may ask to send, checked before anything is taken: the
// recipients, the subject, the bodies and the attachments. Nothing here
// fetches anything: an attachment's bytes come in the request. Every message
// that goes out is held to the same rules for its subject and attachment
// names; a reply's or a forward's, made from received mail, is first made to
// keep them.

const MAX_RECIPIENTS = 50;
const SUBJECT_MAX = 998;
const FILENAME_MAX = 255;

export interface AttachmentInput {
  filename?: string | null;
  contentType?: string | null;
  /** Base64. */
  content?: string | null;
  inline?: boolean | null;
  contentId?: string | null;
}

export interface BodyInput {
  /** "no" when a person dictates the message; else it says a program sent it (RFC 3834). */
  autoSubmitted?: string | null;
  text?: string | null;
  html?: string | null;
  attachments?: AttachmentInput[] | null;
}

export interface OutgoingInput extends BodyInput {
  to: string[];
  cc?: string[] | null;
  bcc?: string[] | null;
  subject: string;
  replyTo?: string | null;
  /** A Message-ID this message answers, to thread it by hand. */
  inReplyTo?: string | null;
}

/** A message ready to compose: checked, and threaded when it answers one. */
export interface Outgoing {
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  text: string | null;
  html: string | null;
  replyTo: string | null;
  inReplyTo: string | null;
  references: string[];
  attachments: MessageAttachment[];
  /** The thread it belongs in whatever its ids say: a reply's or a forward's original's. */
  threadId: string | null;
  /** Its Auto-Submitted header: auto-replied on replies, auto-generated on other sends, no when a person dictates. */
  autoSubmitted: AutoSubmittedHeader;
}

export type AutoSubmittedHeader = "auto-replied" | "auto-generated" | "no";

/** The message's addresses, subject, bodies and references as a draft and a sent email store them. */
export function storedMessage(out: Outgoing) {
  return {
    toList: out.to,
    ccList: out.cc,
    bccList: out.bcc,
    subject: out.subject,
    bodyText: out.text,
    bodyHtml: out.html,
    replyTo: out.replyTo,
    references: out.references.join(" ") || null,
  };
}

/** What the message says of who sent it: a program's kind, unless the request says a person dictates it. */
export function checkedAutoSubmitted(
  given: string | null | undefined,
  byProgram: AutoSubmittedHeader,
): AutoSubmittedHeader {
  if (given == null) return byProgram;
  if (given !== "no") throw bad('autoSubmitted may only be "no" (a person dictates this message)');
  return "no";
}

const bad = (message: string) => new ServiceError("BAD_REQUEST", message);
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
const CONTENT_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]*\/[a-z0-9][a-z0-9!#$&^_.+-]*$/i;
const MESSAGE_ID = /^<[^<>\s]+@[^<>\s]+>$/;

/** The domains the instance serves by configuration (MAIL_DOMAINS): addresses there are recipients whatever their form. */
type Served = readonly string[];

function addresses(list: string[] | null | undefined, field: string, served: Served): string[] {
  const given = list ?? [];
  if (given.length > MAX_RECIPIENTS) throw bad(`${field} may name at most ${MAX_RECIPIENTS} recipients`);
  const invalid = given.find((address) => !isRecipientAddress(address, served));
  if (invalid !== undefined) throw bad(`${field}: ${JSON.stringify(excerpt(invalid))} is not a valid email address`);
  return given;
}

export function checkedSubject(subject: string): string {
  if (subject === "" || [...subject].length > SUBJECT_MAX || /[\r\n]/.test(subject)) {
    throw bad(`subject must be 1-${SUBJECT_MAX} characters on one line`);
  }
  return subject;
}

/** Text from received mail as a subject: on one line, at most 998 characters. */
export function asSubject(text: string): string {
  return [...text.replace(/[\p{Cc}\u2028\u2029]+/gu, " ").trim()].slice(0, SUBJECT_MAX).join("") || "(no subject)";
}

const FILENAME_RULE = `at most ${FILENAME_MAX} characters, without / \\ or control characters`;
const isFilename = (name: string) =>
  name.trim() !== "" && [...name].length <= FILENAME_MAX && !/[/\\\p{Cc}]/u.test(name);

/** A received attachment's name as one to send: its last path segment, without control characters, at most 255. */
export function asFilename(name: string, position: number): string {
  const last = (name.split(/[/\\]/).at(-1) ?? "").replace(/\p{Cc}/gu, "").trim();
  const kept = [...last];
  const extension = last.match(/\.[^.]{1,16}$/)?.[0] ?? "";
  const fitted =
    kept.length <= FILENAME_MAX ? kept.join("") : kept.slice(0, FILENAME_MAX - extension.length).join("") + extension;
  return fitted.replace(/^\.+$/, "") || `attachment-${position + 1}`;
}

/** The rules every message going out keeps, whoever made its subject and attachment names. */
export function checkedOutgoing(outgoing: Outgoing): Outgoing {
  checkedSubject(outgoing.subject);
  const misnamed = outgoing.attachments.findIndex((attachment) => !isFilename(attachment.filename));
  if (misnamed >= 0) throw bad(`attachments[${misnamed}].filename must be ${FILENAME_RULE}`);
  return outgoing;
}

function attachment(input: AttachmentInput, index: number): MessageAttachment {
  const at = `attachments[${index}]`;
  const { filename, content, contentType, contentId } = input;
  if (typeof filename !== "string" || filename.trim() === "") throw bad(`${at}.filename is required`);
  if (!isFilename(filename)) throw bad(`${at}.filename must be ${FILENAME_RULE}`);
  if (typeof content !== "string" || !BASE64.test(content)) throw bad(`${at}.content must be base64`);
  if (contentType != null && !CONTENT_TYPE.test(contentType)) throw bad(`${at}.contentType is not a media type`);
  if (contentId != null && !/^[^<>\s]{1,250}$/.test(contentId.replace(/^<(.*)>$/, "$1"))) {
    throw bad(`${at}.contentId must be one word of at most 250 characters`);
  }
  return {
    filename,
    contentType: contentType ?? null,
    content: Buffer.from(content, "base64"),
    inline: input.inline === true,
    contentId: contentId == null ? null : contentId.replace(/^<(.*)>$/, "$1"),
  };
}

export function checkedAttachments(attachments: AttachmentInput[] | null | undefined): MessageAttachment[] {
  return (attachments ?? []).map(attachment);
}

/** The bodies and attachments: at least one body. */
export function checkedBody(input: BodyInput): Pick<Outgoing, "text" | "html" | "attachments"> {
  if (!input.text && !input.html) throw bad("Give text, html, or both");
  return { text: input.text || null, html: input.html || null, attachments: checkedAttachments(input.attachments) };
}

/** A Message-ID as a header carries it: in angle brackets, which a client may leave out. */
export function checkedMessageId(value: string, field: string): string {
  const id = value.startsWith("<") ? value : `<${value}>`;
  if (!MESSAGE_ID.test(id)) throw bad(`${field} must be a Message-ID such as <id@example.com>`);
  return id;
}

/** Recipients of one message: each list at most 50, and all together at most 50. */
export function checkedRecipients(
  input: { to: string[]; cc?: string[] | null; bcc?: string[] | null },
  served: Served,
) {
  if (input.to.length < 1 || input.to.length > MAX_RECIPIENTS) throw bad(`to must name 1-${MAX_RECIPIENTS} recipients`);
  return checkedAddressLists(input, served);
}

/** Recipient lists, any of them empty (a draft's): each address valid, at most 50 in all. */
export function checkedAddressLists(
  input: { to?: string[] | null; cc?: string[] | null; bcc?: string[] | null },
  served: Served,
) {
  const to = addresses(input.to, "to", served);
  const cc = addresses(input.cc, "cc", served);
  const bcc = addresses(input.bcc, "bcc", served);
  if (to.length + cc.length + bcc.length > MAX_RECIPIENTS) {
    throw bad(`to, cc and bcc together may name at most ${MAX_RECIPIENTS} recipients`);
  }
  return { to, cc, bcc };
}

export function checkedReplyTo(replyTo: string | null | undefined, served: Served): string | null {
  if (replyTo != null && !isRecipientAddress(replyTo, served)) {
    throw bad(`replyTo: ${JSON.stringify(excerpt(replyTo))} is not a valid email address`);
  }
  return replyTo ?? null;
}
