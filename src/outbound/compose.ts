import MailComposer from "nodemailer/lib/mail-composer";

// Builds the exact bytes that are sent, so the stored size is the size of
// what went out and the Message-ID is ours. nodemailer encodes every header
// value, and the caller has already refused line breaks, so no field can
// add a header of its own.

export interface Outgoing {
  from: { name: string; address: string };
  to: string[];
  replyTo: string | null;
  subject: string;
  text: string | null;
  html: string | null;
  messageId: string;
  date: Date;
}

export function composeMessage(message: Outgoing): Promise<Buffer> {
  const composer = new MailComposer({
    // A display name is one line, whatever the agent was named.
    from: { name: message.from.name.replace(/\s+/g, " "), address: message.from.address },
    to: message.to,
    replyTo: message.replyTo ?? undefined,
    subject: message.subject,
    text: message.text ?? undefined,
    html: message.html ?? undefined,
    messageId: message.messageId,
    date: message.date,
  });
  return new Promise((resolve, reject) => {
    composer.compile().build((error, raw) => (error ? reject(error) : resolve(raw)));
  });
}
