import MailComposer from "nodemailer/lib/mail-composer";

// Builds the exact bytes that are sent, so the stored size is the size of
// what went out and the Message-ID is ours. nodemailer encodes every header
// value, and the caller has already refused line breaks, so no field can
// add a header of its own. Bcc is left out of the bytes; the envelope
// carries it.

export interface MessageAttachment {
  filename: string;
  /** null: nodemailer names it from the filename. */
  contentType: string | null;
  content: Buffer;
  inline: boolean;
  contentId: string | null;
}

export interface Composed {
  from: { name: string; address: string };
  to: string[];
  cc: string[];
  replyTo: string | null;
  subject: string;
  text: string | null;
  html: string | null;
  messageId: string;
  inReplyTo: string | null;
  references: string[];
  attachments: MessageAttachment[];
  date: Date;
  /** RFC 3834: auto-replied or auto-generated keeps responders from answering; no sets no header. */
  autoSubmitted: string;
}

export function composeMessage(message: Composed): Promise<Buffer> {
  const composer = new MailComposer({
    // A display name is one line, whatever the agent was named.
    from: { name: message.from.name.replace(/\s+/g, " "), address: message.from.address },
    to: message.to,
    cc: message.cc.length > 0 ? message.cc : undefined,
    replyTo: message.replyTo ?? undefined,
    subject: message.subject,
    text: message.text ?? undefined,
    html: message.html ?? undefined,
    messageId: message.messageId,
    inReplyTo: message.inReplyTo ?? undefined,
    references: message.references.length > 0 ? message.references : undefined,
    attachments: message.attachments.map((a) => ({
      filename: a.filename,
      content: a.content,
      contentType: a.contentType ?? undefined,
      contentDisposition: a.inline ? "inline" : "attachment",
      cid: a.contentId ?? undefined,
    })),
    date: message.date,
    headers: message.autoSubmitted === "no" ? undefined : { "Auto-Submitted": message.autoSubmitted },
  });
  return new Promise((resolve, reject) => {
    composer.compile().build((error, raw) => (error ? reject(error) : resolve(raw)));
  });
}
