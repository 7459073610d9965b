import type { Attachment, Email } from "../generated/prisma/sqlite/client.ts";
import { insertRows, statementChunks } from "./rows.ts";
import type { Sql } from "./sql.ts";
import type { Tx } from "./statements.ts";

// Storing received mail, inside the transaction that files a batch and moves
// the mailbox cursor past it: ours, so raw SQL. A batch's rows of a table are
// written together, a statement for many (rows.ts statementChunks).

/** Remembers that the message was meant for the agent, whatever becomes of it; false when it was already. */
export async function rememberDelivery(tx: Tx, agentId: string, dedupeKey: string): Promise<boolean> {
  const inserted = await tx.run(
    `INSERT INTO "Delivery" ("agentId", "dedupeKey") VALUES (?, ?) ON CONFLICT DO NOTHING`,
    [agentId, dedupeKey],
  );
  return inserted > 0;
}

/** A message meant for an agent, as the record of delivery knows it. */
export interface DeliveryKey {
  agentId: string;
  dedupeKey: string;
}

/** The key's text in the set rememberDeliveries answers. */
export const deliveryKey = ({ agentId, dedupeKey }: DeliveryKey) => `${agentId}\n${dedupeKey}`;

/**
 * Remembers each delivery as rememberDelivery does, in as few statements as
 * statementChunks cuts them, in the keys' order; those that were not remembered
 * before, by deliveryKey. Each key given once.
 */
export async function rememberDeliveries(tx: Tx, keys: DeliveryKey[]): Promise<Set<string>> {
  const remembered = new Set<string>();
  for (const chunk of statementChunks(keys)) {
    const rows = await tx.all(
      `INSERT INTO "Delivery" ("agentId", "dedupeKey") VALUES ${chunk.map(() => "(?, ?)").join(", ")}
        ON CONFLICT DO NOTHING RETURNING "agentId", "dedupeKey"`,
      chunk.flatMap(({ agentId, dedupeKey }) => [agentId, dedupeKey]),
    );
    for (const row of rows) remembered.add(deliveryKey(row as unknown as DeliveryKey));
  }
  return remembered;
}

/** Forgets that the message was meant for the agent: it was not kept, and a retry may keep it. */
export async function forgetDelivery(tx: Tx, agentId: string, dedupeKey: string): Promise<void> {
  await tx.run(`DELETE FROM "Delivery" WHERE "agentId" = ? AND "dedupeKey" = ?`, [agentId, dedupeKey]);
}

/** A received email's row as written; what is left out takes its default. */
export type NewEmail = Omit<Email, "isRead" | "trashedAt" | "labels">;

/** A received email as it is stored: its row, its raw source and its attachments. */
export interface StoredEmail {
  email: NewEmail;
  raw: Buffer;
  attachments: Attachment[];
}

/** Writes the emails, their raw sources and their attachments, and makes them searchable: a statement for many of each. */
export async function insertEmails(sql: Sql, tx: Tx, stored: StoredEmail[]): Promise<void> {
  if (stored.length === 0) return;
  await insertRows(
    tx,
    "Email",
    stored.map(({ email }) => email),
  );
  // A Buffer is the Uint8Array Prisma's Bytes type names, over a pool's memory.
  const sources = stored.map(({ email, raw }) => ({ emailId: email.id, raw: raw as Uint8Array<ArrayBuffer> }));
  await insertRows(tx, "EmailSource", sources);
  await sql.indexForSearch(
    tx,
    stored.map(({ email }) => email),
  );
  await insertRows(
    tx,
    "Attachment",
    stored.flatMap(({ attachments }) => attachments),
  );
}
