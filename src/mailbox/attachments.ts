import { createHash } from "node:crypto";
import { sourceAndAttachments } from "../db/emails.ts";
import { ServiceError } from "../errors.ts";
import type { Attachment } from "../generated/prisma/sqlite/client.ts";
import type { MessageAttachment } from "../outbound/compose.ts";
import type { Reader } from "./emails.ts";
import { asFilename } from "./outgoing.ts";
import type { Services } from "./services.ts";

// Attachments of received mail. Their bytes stay in the raw message, the one
// copy that counts against storage: a download parses the message again, on
// the reader threads (a large message would hold up every request on the
// thread that answers them), and takes the part from its recorded place,
// checked against its SHA-256.

/** An agent's mail as a key may read it. */
type AgentReader = Reader & { id: string };

export interface Part {
  record: Attachment;
  content: Buffer;
}

/**
 * Some parts of one of the agent's emails, with their bytes; null when the email is not the agent's, or is in the
 * folder the reader is barred from.
 */
async function partsOf(
  services: Services,
  reader: AgentReader,
  emailId: string,
  which: (attachment: Attachment) => boolean,
): Promise<Part[] | null> {
  const email = await sourceAndAttachments(services, reader.id, emailId, reader.hidden ?? null);
  if (!email) return null;
  const records = email.attachments.filter(which);
  if (records.length === 0) return [];
  const contents = await services.reader.attachments(email.raw);
  return records.map((record) => {
    const content = contents[record.position];
    // The same bytes as when it was filed, or none: a parser that reads the message otherwise is a fault of ours.
    if (!content || createHash("sha256").update(content).digest("hex") !== record.sha256) {
      throw new Error(`attachment ${record.id} is not where it was found`);
    }
    return { record, content };
  });
}

/** One attachment with its bytes; 404 unless it is in one of the agent's emails. */
export async function attachmentContent(
  services: Services,
  reader: AgentReader,
  emailId: string,
  attachmentId: string,
): Promise<Part> {
  const [part] = (await partsOf(services, reader, emailId, (a) => a.id === attachmentId)) ?? [];
  if (!part) throw new ServiceError("NOT_FOUND", "Attachment not found");
  return part;
}

/**
 * Every attachment of one of the agent's emails with its bytes, from one parse of its message; 404 unless the
 * email is the agent's.
 */
export async function emailAttachments(services: Services, reader: AgentReader, emailId: string): Promise<Part[]> {
  const parts = await partsOf(services, reader, emailId, () => true);
  if (!parts) throw new ServiceError("NOT_FOUND", "Email not found");
  return parts;
}

/** Every attachment of an email, ready to go out again with a forward. */
export async function attachmentsToForward(
  services: Services,
  reader: AgentReader,
  emailId: string,
): Promise<MessageAttachment[]> {
  const parts = await emailAttachments(services, reader, emailId);
  return parts.map(({ record, content }, position) => ({
    filename: asFilename(record.filename, position),
    contentType: record.contentType,
    content,
    inline: record.inline,
    contentId: record.contentId?.replace(/^<(.*)>$/, "$1") ?? null,
  }));
}
