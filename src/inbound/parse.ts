import { createHash } from "node:crypto";
import { type AddressObject, simpleParser } from "mailparser";

// What the service keeps of a raw message. mailparser copes with encoded
// words, foreign charsets and broken MIME; it must neither invent a text body
// from the HTML nor the reverse, since a missing part is reported as null.

export interface ParsedMessage {
  /** As the header has it, angle brackets included. */
  messageId: string | null;
  /** The same message, once per agent: its Message-ID, else its bytes. */
  dedupeKey: string;
  from: { address: string; name: string | null };
  subject: string | null;
  bodyText: string | null;
  bodyHtml: string | null;
  /** Addresses the delivering server recorded (X-Original-To, Envelope-To, …). */
  envelopeTo: string[];
  /** Addresses in To and Cc. */
  headerTo: string[];
}

const ENVELOPE_HEADERS = new Set(["x-original-to", "envelope-to", "x-envelope-to", "delivered-to"]);
const ADDRESS = /[^\s<>,;:"()[\]]+@[^\s<>,;:"()[\]]+/g;

function sha256(data: string | Buffer): string {
  return createHash("sha256").update(data).digest("hex");
}

function addressesOf(field: AddressObject | AddressObject[] | undefined): string[] {
  const objects = field === undefined ? [] : Array.isArray(field) ? field : [field];
  return objects
    .flatMap((object) =>
      object.value.flatMap((entry) => [entry.address, ...(entry.group ?? []).map((member) => member.address)]),
    )
    .filter((address): address is string => Boolean(address));
}

function headerValue(line: string): string {
  return line
    .slice(line.indexOf(":") + 1)
    .replace(/\r?\n[ \t]+/g, " ")
    .trim();
}

export async function parseMessage(raw: Buffer): Promise<ParsedMessage> {
  const mail = await simpleParser(raw, { skipHtmlToText: true, skipTextToHtml: true, skipImageLinks: true });
  const messageIdLine = mail.headerLines.find((line) => line.key === "message-id");
  const messageId = messageIdLine ? headerValue(messageIdLine.line) || null : null;
  const from = mail.from?.value[0];
  return {
    messageId,
    dedupeKey: messageId ? `message-id:${sha256(messageId)}` : `source:${sha256(raw)}`,
    from: { address: from?.address ?? "", name: from?.name || null },
    subject: mail.subject ?? null,
    // mailparser reports a missing text part as an empty string.
    bodyText: mail.text || null,
    bodyHtml: typeof mail.html === "string" ? mail.html : null,
    envelopeTo: mail.headerLines
      .filter((line) => ENVELOPE_HEADERS.has(line.key))
      .flatMap((line) => headerValue(line.line).match(ADDRESS) ?? []),
    headerTo: [...addressesOf(mail.to), ...addressesOf(mail.cc)],
  };
}

/**
 * The local parts at the mail domain this message is for: the envelope's
 * when the delivering server recorded one (ignoring the catch-all's own
 * address), else those in To and Cc. Without case, without repeats.
 */
export function recipientsOf(message: ParsedMessage, mailDomain: string, catchAll: string): string[] {
  const atDomain = (addresses: string[]) =>
    addresses
      .map((address) => address.toLowerCase())
      .filter((address) => address !== catchAll.toLowerCase() && address.endsWith(`@${mailDomain}`))
      .map((address) => address.slice(0, -mailDomain.length - 1));
  const envelope = atDomain(message.envelopeTo);
  return [...new Set(envelope.length > 0 ? envelope : atDomain(message.headerTo))];
}
