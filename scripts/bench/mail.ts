import { Resolver } from "node:dns/promises";
import type { ImapFlow } from "imapflow";
import { dkimVerify, dmarc, spf } from "mailauth";
import { simpleParser } from "mailparser";
import { Dovecot } from "../../test/support/dovecot.ts";

// The mail scenarios' floor: a bare imapflow client with mailparser and
// mailauth, on the same Dovecot and DNS the service uses, doing the same work.

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

/** The client that handed a message over, as the SMTP door sees it: SPF is checked for it. */
export interface Client {
  ip: string;
  helo: string;
  sender: string;
}

/**
 * DKIM and DMARC as the service checks mail, each DNS answer asked once; with the client that handed it over
 * (the SMTP door's case), SPF for it too, which DMARC then takes into account.
 */
export function bareAuthenticator(dnsServer: string) {
  const resolver = new Resolver();
  resolver.setServers([dnsServer]);
  const asked = new Map<string, Promise<string[][] | string[]>>();
  const lookup = (name: string, type: string) => {
    const key = `${type} ${name}`;
    if (!asked.has(key)) {
      const answer = resolver.resolve(name, type) as Promise<string[][] | string[]>;
      answer.catch(() => {});
      asked.set(key, answer);
    }
    return asked.get(key) as Promise<string[][] | string[]>;
  };
  return async (source: Buffer, client?: Client) => {
    const dkim = await dkimVerify(source, { resolver: lookup });
    const checked = client ? await spf({ ...client, mta: "floor.example", resolver: lookup }) : null;
    const spfDomains = checked?.status.result === "pass" ? [checked.domain] : [];
    return dmarc({ headerFrom: dkim.headerFrom, spfDomains, dkimDomains: [], resolver: lookup });
  };
}

/** Fetches, parses and authenticates every message of a mailbox; milliseconds from the open mailbox to the last. */
export async function bareIngest(
  dovecot: Dovecot,
  mailbox: string,
  dnsServer: string,
): Promise<{ ms: number; messages: number }> {
  const authenticate = bareAuthenticator(dnsServer);
  const client = await dovecot.client();
  try {
    await client.mailboxOpen(mailbox);
    const started = performance.now();
    let messages = 0;
    for await (const message of client.fetch("1:*", { uid: true, source: true })) {
      if (message.source) {
        await simpleParser(message.source, { skipHtmlToText: true, skipTextToHtml: true });
        await authenticate(message.source);
      }
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
