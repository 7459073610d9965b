import type { ImapFlow } from "imapflow";
import { simpleParser } from "mailparser";
import { Dovecot } from "../../test/support/dovecot.ts";

// The mail scenarios' floor: a bare imapflow client with mailparser, on the
// same Dovecot the service reads, doing the same work.

export { Dovecot };

export function benchMessage(to: string, n: number): string {
  const body = `Hello,\r\n\r\nThis is benchmark message ${n}, about as long as a short note.\r\n`.repeat(8);
  return [
    `Message-ID: <bench-${n}-${Date.now()}@sender.example>`,
    "From: Jordan <jordan@sender.example>",
    `To: ${to}`,
    `Subject: Benchmark ${n}`,
    "Date: Mon, 23 Nov 2026 10:00:00 +0000",
    "MIME-Version: 1.0",
    "Content-Type: text/plain; charset=utf-8",
    "",
    body,
  ].join("\r\n");
}

/** Fetches and parses every message of a mailbox; milliseconds from the open mailbox to the last parsed. */
export async function bareIngest(dovecot: Dovecot, mailbox: string): Promise<{ ms: number; messages: number }> {
  const client = await dovecot.client();
  try {
    await client.mailboxOpen(mailbox);
    const started = performance.now();
    let messages = 0;
    for await (const message of client.fetch("1:*", { uid: true, source: true })) {
      if (message.source) await simpleParser(message.source, { skipHtmlToText: true, skipTextToHtml: true });
      messages++;
    }
    return { ms: performance.now() - started, messages };
  } finally {
    await client.logout();
  }
}

/** A bare client in IDLE: resolves each time the server announces new mail. */
export async function bareIdler(dovecot: Dovecot, mailbox: string) {
  const client: ImapFlow = await dovecot.client();
  await client.mailboxOpen(mailbox);
  let announced: (() => void) | null = null;
  client.on("exists", () => announced?.());
  // imapflow IDLEs by itself only after a while without commands; the poller asks at once, so does this.
  void client.idle();
  return {
    nextExists: () =>
      new Promise<void>((resolve) => {
        announced = resolve;
      }),
    close: () => client.logout(),
  };
}
