import type { RecipientReport, SentEmail, Suppression } from "../generated/prisma/sqlite/client.ts";
import type { Store } from "./client.ts";
import { pageOf, rangeOf, type Window } from "./pages.ts";
import { columnsOf, insertRow, rowOf, rowsOf } from "./rows.ts";
import type { Tx } from "./statements.ts";

// What came back about sent mail, and the addresses an agent no longer mails.
// Reports are recorded in the transaction that files a batch of inbound mail,
// and a suppression is checked in the one that takes a send: ours, so raw SQL.
// Reading them for an API is Prisma's.

/** The agent's sent email with one of these Message-IDs, the first that matches, locked until commit. */
export async function sentByMessageId(tx: Tx, agentId: string, messageIds: string[]): Promise<SentEmail | null> {
  for (const messageId of messageIds) {
    const row = await tx.one(
      `SELECT ${columnsOf("SentEmail")} FROM "SentEmail" WHERE "agentId" = ? AND "messageId" = ?${tx.forUpdate}`,
      [agentId, messageId],
    );
    if (row) return rowOf(tx, "SentEmail", row);
  }
  return null;
}

/** The agent's sent email with this id, locked until commit; null when it is gone. */
export async function lockedSent(tx: Tx, agentId: string, id: string): Promise<SentEmail | null> {
  const row = await tx.one(
    `SELECT ${columnsOf("SentEmail")} FROM "SentEmail" WHERE "agentId" = ? AND "id" = ?${tx.forUpdate}`,
    [agentId, id],
  );
  return row ? rowOf(tx, "SentEmail", row) : null;
}

export async function recipientReportsOf(tx: Tx, sentId: string): Promise<RecipientReport[]> {
  const rows = await tx.all(`SELECT ${columnsOf("RecipientReport")} FROM "RecipientReport" WHERE "sentId" = ?`, [
    sentId,
  ]);
  return rowsOf(tx, "RecipientReport", rows);
}

/** A recipient's latest report: the new one replaces one about the same recipient. */
export async function saveRecipientReport(tx: Tx, report: RecipientReport): Promise<void> {
  await tx.run(`DELETE FROM "RecipientReport" WHERE "sentId" = ? AND "recipient" = ?`, [
    report.sentId,
    report.recipient,
  ]);
  await insertRow(tx, "RecipientReport", report);
}

export async function setDeliveryStatus(tx: Tx, sentId: string, status: string): Promise<void> {
  await tx.run(`UPDATE "SentEmail" SET "deliveryStatus" = ? WHERE "id" = ?`, [status, sentId]);
}

/** Puts the address on the agent's list, or renews why it is there. */
export async function suppress(tx: Tx, suppression: Suppression): Promise<void> {
  await tx.run(`DELETE FROM "Suppression" WHERE "agentId" = ? AND "address" = ?`, [
    suppression.agentId,
    suppression.address,
  ]);
  await insertRow(tx, "Suppression", suppression);
}

/** Which of these lower-case addresses the agent no longer mails. */
export async function suppressedAmong(tx: Tx, agentId: string, addresses: string[]): Promise<string[]> {
  if (addresses.length === 0) return [];
  const rows = await tx.all(
    `SELECT "address" FROM "Suppression" WHERE "agentId" = ? AND "address" IN (${addresses.map(() => "?").join(", ")})`,
    [agentId, ...addresses],
  );
  return rows.map((row) => String(row.address));
}

/** One page of the agent's suppressions, newest first, and how many in all. */
export function suppressionPage({ prisma }: Store, agentId: string, window: Window) {
  const where = { agentId };
  return pageOf(window, () => [
    prisma.suppression.findMany({ where, orderBy: [{ createdAt: "desc" }, { address: "asc" }], ...rangeOf(window) }),
    prisma.suppression.count({ where }),
  ]);
}

/** Takes the address off the agent's list; false when it was not on it. */
export async function unsuppress({ prisma }: Store, agentId: string, address: string): Promise<boolean> {
  const { count } = await prisma.suppression.deleteMany({ where: { agentId, address } });
  return count > 0;
}
