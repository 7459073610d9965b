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

const QUEUE_ID = /queued as ([A-Za-z0-9._@<>:-]+)/i;

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
      const info = await transport.sendMail({ envelope, raw });
      return { queueId: QUEUE_ID.exec(info.response ?? "")?.[1] ?? null };
    },
    close: () => transport.close(),
  };
}
