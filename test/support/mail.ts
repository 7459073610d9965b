import { randomBytes } from "node:crypto";
import { readFileSync } from "node:fs";

// Raw messages as an MTA delivers them to the catch-all.

export function messageId(): string {
  return `<${randomBytes(8).toString("hex")}@sender.example>`;
}

export interface MessageParts {
  to: string;
  from?: string;
  subject?: string;
  /** Headers before the standard ones (envelope headers, say). */
  headers?: string[];
  /** Message-ID, or null for none. */
  id?: string | null;
  contentType?: string;
  body?: string;
}

export function rawMessage({
  to,
  from = "Alice <alice@sender.example>",
  subject = "Hello",
  headers = [],
  id = messageId(),
  contentType = "text/plain; charset=utf-8",
  body = "Hi there.",
}: MessageParts): string {
  return [
    ...headers,
    ...(id === null ? [] : [`Message-ID: ${id}`]),
    `From: ${from}`,
    `To: ${to}`,
    `Subject: ${subject}`,
    "Date: Sun, 22 Nov 2026 10:00:00 +0000",
    "MIME-Version: 1.0",
    `Content-Type: ${contentType}`,
    "",
    body,
    "",
  ].join("\r\n");
}

export function multipartAlternative(to: string, text: string, html: string): string {
  return rawMessage({
    to,
    subject: "Both bodies",
    contentType: 'multipart/alternative; boundary="alt-1"',
    body: [
      "--alt-1",
      "Content-Type: text/plain; charset=utf-8",
      "",
      text,
      "--alt-1",
      "Content-Type: text/html; charset=utf-8",
      "",
      html,
      "--alt-1--",
    ].join("\r\n"),
  });
}

export function withAttachment(to: string): string {
  return rawMessage({
    to,
    subject: "Report attached",
    contentType: 'multipart/mixed; boundary="mix-1"',
    body: [
      "--mix-1",
      'Content-Type: multipart/alternative; boundary="alt-2"',
      "",
      "--alt-2",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "See the attached report.",
      "--alt-2",
      "Content-Type: text/html; charset=utf-8",
      "",
      "<p>See the attached report.</p>",
      "--alt-2--",
      "--mix-1",
      'Content-Type: application/pdf; name="report.pdf"',
      'Content-Disposition: attachment; filename="report.pdf"',
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from("%PDF-1.4 not really a pdf".repeat(20)).toString("base64"),
      "--mix-1--",
    ].join("\r\n"),
  });
}

/** Poison for anything that reads text in quadratic time: one word of 4 MB. */
export function oneLongWord(to: string): string {
  return rawMessage({ to, subject: "one long word", body: "x".repeat(4 * 1024 * 1024) });
}

/** Poison for anything that reads line by line in quadratic time: 150,000 short lines. */
export function manyLines(to: string): string {
  return rawMessage({
    to,
    subject: "many lines",
    body: Array.from({ length: 150_000 }, (_, n) => `line ${n}`).join("\r\n"),
  });
}

/** Poison for a pattern over envelope headers: a Delivered-To of 400 KB without a separator. */
export function longEnvelope(to: string): string {
  return rawMessage({ to, subject: "long envelope", headers: [`Delivered-To: ${"x".repeat(400_000)}`] });
}

/**
 * A delivery report fixture (src/inbound/fixtures/reports) about one of an
 * agent's sent emails: the fixture's sender address and original Message-ID
 * replaced by the agent's address and the sent email's.
 */
export function reportAbout(fixture: string, agentAddress: string, original: string, sentMessageId: string): string {
  return readFileSync(new URL(`../../src/inbound/fixtures/reports/${fixture}`, import.meta.url), "utf8")
    .replaceAll("scout-7f3a@mail.example.org", agentAddress)
    .replaceAll(original, sentMessageId.slice(1, -1));
}

/**
 * A message as the catch-all's server files it: the envelope it recorded on
 * top, the reverse path in Return-Path (empty for a report) and the
 * recipient in X-Original-To.
 */
export function deliveredTo(recipient: string, raw: string, reversePath = ""): string {
  return `Return-Path: <${reversePath}>\r\nX-Original-To: ${recipient}\r\n${raw}`;
}
