import { createHash } from "node:crypto";
import { ServiceError } from "../errors.ts";
import type { MessageAttachment } from "../outbound/compose.ts";
import { parseMime } from "./mime.ts";
import { asFilename } from "./outgoing.ts";
import type { Services } from "./services.ts";

// Attachments of received mail. Their bytes stay in the raw message, the one
// copy that counts against storage: a download parses the message again and
// takes the part from its recorded place, checked against its SHA-256.

export interface AttachmentRecord {
  id: string;
  emailId: string;
  filename: string;
  contentType: string;
  size: number;
  contentId: string | null;
  inline: boolean;
  sha256: string;
}

const COLUMNS = `"id", "emailId", "position", "filename", "contentType", "size", "contentId", "inline", "sha256"`;

/** The parts of one of the agent's emails, with their bytes. */
async function partsOf(services: Services, agentId: string, emailId: string) {
  const { sql } = services;
  const email = await sql.one(
    `SELECT s."raw" FROM "EmailSource" s JOIN "Email" e ON e."id" = s."emailId" WHERE e."id" = ? AND e."agentId" = ?`,
    [emailId, agentId],
  );
  if (!email) throw new ServiceError("NOT_FOUND", "Email not found");
  const [records, parsed] = await Promise.all([
    sql.all(`SELECT ${COLUMNS} FROM "Attachment" WHERE "emailId" = ? ORDER BY "position"`, [emailId]),
    parseMime(Buffer.from(email.raw as Uint8Array)),
  ]);
  return records.map((row) => {
    const record = { ...(row as unknown as AttachmentRecord), inline: sql.flag(row.inline) };
    const content = parsed.attachments[row.position as number]?.content;
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
  agent: { id: string },
  emailId: string,
  attachmentId: string,
): Promise<{ record: AttachmentRecord; content: Buffer }> {
  const exists = await services.sql.one(
    `SELECT 1 AS "found" FROM "Attachment" a JOIN "Email" e ON e."id" = a."emailId"
     WHERE a."id" = ? AND a."emailId" = ? AND e."agentId" = ?`,
    [attachmentId, emailId, agent.id],
  );
  if (!exists) throw new ServiceError("NOT_FOUND", "Attachment not found");
  const part = (await partsOf(services, agent.id, emailId)).find((p) => p.record.id === attachmentId);
  if (!part) throw new ServiceError("NOT_FOUND", "Attachment not found");
  return part;
}

/** Every attachment of an email, ready to go out again with a forward. */
export async function attachmentsToForward(
  services: Services,
  agent: { id: string },
  emailId: string,
): Promise<MessageAttachment[]> {
  const parts = await partsOf(services, agent.id, emailId);
  return parts.map(({ record, content }, position) => ({
    filename: asFilename(record.filename, position),
    contentType: record.contentType,
    content,
    inline: record.inline,
    contentId: record.contentId?.replace(/^<(.*)>$/, "$1") ?? null,
  }));
}
