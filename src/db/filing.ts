import type { Attachment, Email } from "../generated/prisma/sqlite/client.ts";
import { insertRow } from "./rows.ts";
import type { Sql } from "./sql.ts";
import type { Tx } from "./statements.ts";

// Storing received mail, inside the transaction that files a batch and moves
// the mailbox cursor past it: ours, so raw SQL.

/** Remembers that the message was meant for the agent, whatever becomes of it; false when it was already. */
export async function rememberDelivery(tx: Tx, agentId: string, dedupeKey: string): Promise<boolean> {
  const inserted = await tx.run(
    `INSERT INTO "Delivery" ("agentId", "dedupeKey") VALUES (?, ?) ON CONFLICT DO NOTHING`,
    [agentId, dedupeKey],
  );
  return inserted > 0;
}

/** Forgets that the message was meant for the agent: it was not kept, and a retry may keep it. */
export async function forgetDelivery(tx: Tx, agentId: string, dedupeKey: string): Promise<void> {
  await tx.run(`DELETE FROM "Delivery" WHERE "agentId" = ? AND "dedupeKey" = ?`, [agentId, dedupeKey]);
}

/** A received email's row as written; what is left out takes its default. */
export type NewEmail = Omit<Email, "isRead" | "trashedAt" | "labels">;

/** Writes the email, its raw source and its attachments, and makes it searchable. */
export async function insertEmail(
  sql: Sql,
  tx: Tx,
  email: NewEmail,
  raw: Buffer,
  attachments: Attachment[],
): Promise<void> {
  await insertRow(tx, "Email", email);
  // A Buffer is the Uint8Array Prisma's Bytes type names, over a pool's memory.
  await insertRow(tx, "EmailSource", { emailId: email.id, raw: raw as Uint8Array<ArrayBuffer> });
  await sql.indexForSearch(tx, email);
  for (const attachment of attachments) await insertRow(tx, "Attachment", attachment);
}
