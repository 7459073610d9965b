import { createHash } from "node:crypto";
import type { AddressObject, Attachment, HeaderLines } from "mailparser";
import * as mimeFuncs from "nodemailer/lib/mime-funcs";
import type { AttachmentInfo, IncomingMessage } from "../mailbox/filing.ts";
import { messageIdsIn, parseMime } from "../mailbox/mime.ts";
import { bareReading, readingOf } from "../mailbox/reading/index.ts";
import { addressParts } from "../mailbox/records.ts";
import { SCREENED, screen } from "../mailbox/screening/index.ts";
import { autoSubmittedOf } from "./auto-submitted.ts";
import { reportOf } from "./reports.ts";

// What the service keeps of a raw message: a missing body is reported as
// null, and each attachment by where it is and what it holds.

export interface ParsedMessage extends IncomingMessage {
  /** Addresses the delivering server recorded (X-Original-To, Envelope-To, …). */
  envelopeTo: string[];
  /** The reverse path the delivering server recorded: the topmost Return-Path ("" for <>), null without one. */
  returnPath: string | null;
  /** Addresses in To, Cc and Bcc. */
  headerTo: string[];
}

// nodemailer exports it; its type declarations have not caught up.
const { detectExtension } = mimeFuncs as unknown as { detectExtension(contentType: string): string };

const ENVELOPE_HEADERS = new Set(["x-original-to", "envelope-to", "x-envelope-to", "delivered-to"]);
/** Fields receiving servers write on top of a message: two deliveries of one message differ in them. */
const TRACE_FIELDS = new Set(["return-path", "received", ...ENVELOPE_HEADERS]);
/** What separates addresses in an envelope header. */
const SEPARATORS = /[\s<>,;:"()[\]]+/;

/**
 * The addresses an envelope header names: its words that hold an @ between
 * other characters. Split first: a pattern such as [^\s…]+@ would try every
 * start of a long run without separators, in quadratic time.
 */
function envelopeAddresses(value: string): string[] {
  return value.split(SEPARATORS).filter((word) => word.indexOf("@") > 0 && word.indexOf("@") < word.length - 1);
}

function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

/**
 * The message as its sender wrote it, digested: its header fields but the
 * trace servers add (RFC 5321 4.4: a Return-Path and a Received line of their
 * own for each delivery), then its body, so that two deliveries of one
 * message without a Message-ID are known as one.
 */
function contentDigest(raw: Buffer, headerLines: HeaderLines): string {
  const hash = createHash("sha256");
  for (const { key, line } of headerLines) if (!TRACE_FIELDS.has(key)) hash.update(`${line}\r\n`);
  const ends = [raw.indexOf("\r\n\r\n"), raw.indexOf("\n\n")].filter((end) => end >= 0);
  if (ends.length > 0) hash.update(raw.subarray(Math.min(...ends)));
  return hash.digest("hex");
}

/** A Return-Path's address: "" for the null path <>. */
const reversePath = (value: string) => value.replace(/^<(.*)>$/, "$1").trim();

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects
    .flatMap((object) =>
      object.value.flatMap((entry) => [entry.address, ...(entry.group ?? []).map((member) => member.address)]),
    )
    .filter((address): address is string => Boolean(address));
}

/** Mail is written by anyone: text every database stores, NUL and broken surrogates replaced. */
function storable(text: string): string {
  return text.replaceAll("\0", "\uFFFD").toWellFormed();
}

function storableOrNull(text: string | null | undefined): string | null {
  return text ? storable(text) : null;
}

/** A short field as far as screening reads it (SCREENED), not ending in half a character. */
function screenedHead(text: string, length: number): string {
  const head = text.slice(0, length);
  return /[\uD800-\uDBFF]$/.test(head) ? head.slice(0, -1) : head;
}

function headerValue(line: string): string {
  return line
    .slice(line.indexOf(":") + 1)
    .replace(/\r?\n[ \t]+/g, " ")
    .trim();
}

// A sender's identifiers are shown beside the fence, outside it (an email's Message-ID, an attachment's type
// and Content-ID), and screening reads none of them: each is kept only in its grammar, with no room for a space,
// else as none.

/** A Content-ID (RFC 2392), with or without its angle brackets, as mail clients write it: printable ASCII. */
const CONTENT_ID = /^<?[\x21-\x3b\x3d\x3f-\x7e]+>?$/;
/** A media type, `type/subtype`, of RFC 6838's restricted names. */
const MEDIA_TYPE = /^[a-z0-9][a-z0-9!#$&^_.+-]{0,126}\/[a-z0-9][a-z0-9!#$&^_.+-]{0,126}$/;

/** The message's own id, read as In-Reply-To and References are (messageIdsIn): its first `<…>` without spaces. */
const messageIdOf = (value: string | undefined) => (value ? (messageIdsIn(value)[0] ?? null) : null);
const contentIdOf = (value: string | undefined) => (value && CONTENT_ID.test(value) ? value : null);

/** A part's media type, lower case; one that is no media type is application/octet-stream. */
function mediaTypeOf(attachment: Attachment): string {
  const type = attachment.contentType.toLowerCase();
  return MEDIA_TYPE.test(type) ? type : "application/octet-stream";
}

/** A part's name as given (among the names screening reads), else one made from its position and type. */
function filenameOf(attachment: Attachment, position: number): string {
  const given =
    position < SCREENED.attachmentNames &&
    attachment.filename &&
    storable(screenedHead(attachment.filename, SCREENED.attachmentName))
      .replace(/\p{Cc}/gu, "")
      .trim();
  return given || `attachment-${position + 1}.${detectExtension(mediaTypeOf(attachment))}`;
}

function attachmentInfo(attachment: Attachment, position: number): AttachmentInfo {
  return {
    position,
    filename: filenameOf(attachment, position),
    contentType: mediaTypeOf(attachment),
    size: attachment.size,
    contentId: contentIdOf(attachment.contentId),
    inline: attachment.contentDisposition === "inline" || attachment.related === true,
    sha256: attachment.checksum,
  };
}

/** An attachment as the screening reads it: its name, and the text of a text part (screening bounds how much). */
function screenedPart(attachment: Attachment, position: number) {
  const contentType = mediaTypeOf(attachment);
  const text = contentType.startsWith("text/") ? attachment.content.toString("utf8") : null;
  return { filename: filenameOf(attachment, position), contentType, text };
}

/** How much of a message is read for its header section alone: a longer one is read with the message. */
export const HEADER_LIMIT = 64 * 1024;

/**
 * Where the header section ends, through the empty line that ends it (RFC 5322 2.1; servers and providers hand
 * over CRLF or bare LF), when that lies within `limit` bytes; null when it does not. Found in the bytes: the
 * earliest of a line feed followed by an empty line, of either kind.
 */
export function headerEnd(raw: Buffer, limit: number): number | null {
  const head = raw.subarray(0, limit);
  if (head[0] === 0x0a) return 1;
  if (head[0] === 0x0d && head[1] === 0x0a) return 2;
  const ends = [head.indexOf("\n\n"), head.indexOf("\n\r\n")].flatMap((at, i) => (at < 0 ? [] : [at + 2 + i]));
  return ends.length === 0 ? null : Math.min(...ends);
}

/**
 * The message's header section through the empty line that ends it, when that
 * lies within `limit` bytes (a message without a body is all header); null
 * when it does not, so that a caller never reads further to find it.
 */
export function headerSection(raw: Buffer, limit = HEADER_LIMIT): Buffer | null {
  const end = headerEnd(raw, limit);
  if (end !== null) return raw.subarray(0, end);
  return raw.length <= limit ? raw : null;
}

/** What the header section tells of a message: whom it is from, and whom for. */
export type MessageHead = Pick<ParsedMessage, "from" | "envelopeTo" | "headerTo">;

type Mime = Awaited<ReturnType<typeof parseMime>>;

/** The head as parseMessage reads it, from the same parse: the same From whether read early or with the message. */
function headOf(mail: Mime): MessageHead {
  const from = mail.from?.value[0];
  return {
    from: {
      address: storable(from?.address ?? ""),
      name: storableOrNull(from?.name && screenedHead(from.name, SCREENED.fromName)),
    },
    envelopeTo: mail.headerLines
      .filter((line) => ENVELOPE_HEADERS.has(line.key))
      .flatMap((line) => envelopeAddresses(headerValue(line.line))),
    headerTo: [...addressesOf(mail.to), ...addressesOf(mail.cc), ...addressesOf(mail.bcc)],
  };
}

/**
 * The head of a message, read from its header section alone (headerSection):
 * its body is never parsed. Null when the header section is longer than that,
 * or cannot be read alone: reading the whole message then says what it is.
 */
export async function readHead(raw: Buffer): Promise<MessageHead | null> {
  const section = headerSection(raw);
  if (!section) return null;
  try {
    return headOf(await parseMime(section));
  } catch {
    return null;
  }
}

/** The message as filed; with `derive: false`, without its reading help (which took too long the first time). */
export async function parseMessage(raw: Buffer, { derive }: { derive: boolean }): Promise<ParsedMessage> {
  const mail = await parseMime(raw);
  const messageIdLine = mail.headerLines.find((line) => line.key === "message-id");
  // The first: the delivering server writes its own on top (RFC 5321 4.4), above any the sender wrote.
  const returnPathLine = mail.headerLines.find((line) => line.key === "return-path");
  const messageId = messageIdOf(messageIdLine && headerValue(messageIdLine.line));
  const storables = (addresses: string[]) => addresses.map(storable);
  const subject = mail.subject === undefined ? null : storable(screenedHead(mail.subject, SCREENED.subject));
  // mailparser reports a missing text part as an empty string.
  const bodyText = storableOrNull(mail.text);
  const bodyHtml = typeof mail.html === "string" ? storable(mail.html) : null;
  const report = await reportOf(mail, raw);
  const head = headOf(mail);
  return {
    ...head,
    messageId,
    dedupeKey: messageId ? `message-id:${sha256(messageId)}` : `source:${contentDigest(raw, mail.headerLines)}`,
    subject,
    // mailparser gives an invalid Date for a header it cannot read; such a date is none.
    date: mail.date && !Number.isNaN(mail.date.getTime()) ? mail.date : null,
    bodyText,
    bodyHtml,
    reading: derive ? readingOf({ subject, bodyText, bodyHtml }) : bareReading(bodyText),
    screening: screen({
      fromName: head.from.name,
      subject,
      bodyText,
      bodyHtml,
      attachments: mail.attachments.map(screenedPart),
    }),
    toList: storables(addressesOf(mail.to)),
    ccList: storables(addressesOf(mail.cc)),
    replyToList: storables(addressesOf(mail.replyTo)),
    inReplyTo: messageIdsIn(mail.inReplyTo).map(storable)[0] ?? null,
    references: messageIdsIn(mail.references).map(storable),
    attachments: mail.attachments.map(attachmentInfo),
    autoSubmitted: autoSubmittedOf(mail, report !== null),
    report,
    returnPath: returnPathLine ? reversePath(headerValue(returnPathLine.line)) : null,
  };
}

/**
 * The addresses at the served domains this message is for: the envelope's
 * when the delivering server recorded one (ignoring the catch-all's own
 * address), else those in To, Cc and Bcc. In lower case, without repeats.
 */
export function recipientsOf(message: MessageHead, domains: ReadonlySet<string>, catchAll: string): string[] {
  const atDomain = (addresses: string[]) =>
    addresses
      .map((address) => address.toLowerCase())
      .filter((address) => address !== catchAll.toLowerCase() && domains.has(addressParts(address).domain));
  const envelope = atDomain(message.envelopeTo);
  return [...new Set(envelope.length > 0 ? envelope : atDomain(message.headerTo))];
}
