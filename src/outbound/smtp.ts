import nodemailer from "nodemailer";
import type { SmtpConfig } from "../config.ts";

// Hands composed messages to the operator's SMTP provider over a pool of
// connections. A stalled provider fails within 20 s, well inside the 30 s a
// request may take.

export interface Mailer {
  /** The provider's tracking id for the accepted message, if it named one. */
  send(envelope: { from: string; to: string[] }, raw: Buffer): Promise<{ queueId: string | null }>;
  close(): void;
}

const SEND_DEADLINE_MS = 20_000;

/** The queue id in a 250 reply as providers word it: "queued as ID", "id=ID", "Ok ID". */
const QUEUE_ID = [
  /queued as <?([^\s<>;,]+)/i,
  /\bid=<?([^\s<>;,]+)/i,
  /^250[ -](?:\d\.\d\.\d\s+)?ok:?\s+<?([^\s<>;,]{8,})>?\s*$/i,
];

export function queueIdOf(response: string): string | null {
  for (const pattern of QUEUE_ID) {
    const id = pattern.exec(response)?.[1];
    if (id) return id;
  }
  return null;
}

/** Rejects when the work takes longer than ms; the transport's own timeouts add up to more. */
function within<T>(ms: number, work: Promise<T>): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const deadline = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`no answer from the provider within ${ms} ms`)), ms);
  });
  return Promise.race([work, deadline]).finally(() => clearTimeout(timer));
}

export function smtpMailer(smtp: SmtpConfig): Mailer {
  // nodemailer ignores options given beside a url, so the url arrives parsed.
  const transport = nodemailer.createTransport({
    pool: true,
    host: smtp.host,
    port: smtp.port,
    secure: smtp.secure,
    auth: smtp.user ? { user: smtp.user, pass: smtp.password } : undefined,
    connectionTimeout: 10_000,
    greetingTimeout: 10_000,
    socketTimeout: 15_000,
  });
  return {
    async send(envelope, raw) {
      const info = await within(SEND_DEADLINE_MS, transport.sendMail({ envelope, raw }));
      return { queueId: queueIdOf(info.response ?? "") };
    },
    close: () => transport.close(),
  };
}
