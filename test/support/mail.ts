import { randomBytes } from "node:crypto";

// Raw messages as MTAs deliver them, CRLF line ends.

export function messageId(): string {
  return `<${randomBytes(8).toString("hex")}@sender.example>`;
}

export interface PlainMessage {
  to: string;
  from?: string;
  subject?: string;
  body?: string;
  id?: string | null;
  headers?: string[];
}

export function plainMessage({
  to,
  from = "Alice <alice@sender.example>",
  subject = "Hello",
  body = "Hi there.",
  id = messageId(),
  headers = [],
}: PlainMessage): string {
  return [
    ...headers,
    ...(id === null ? [] : [`Message-ID: ${id}`]),
    `From: ${from}`,
    `To: ${to}`,
    `Subject: ${subject}`,
    "Date: Sun, 22 Nov 2026 10:00:00 +0000",
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    body,
    "",
  ].join("\r\n");
}
