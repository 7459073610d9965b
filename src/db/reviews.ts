import type { ReviewLink, ReviewNotice } from "../generated/prisma/sqlite/client.ts";
import { SEALED } from "../secrets.ts";
import type { Store } from "./client.ts";
import { columnsOf, insertRow, rowOf, rowsOf } from "./rows.ts";
import type { Tx } from "./statements.ts";

// Review links and the notices that carry them to a person, for a held draft
// or a quarantined message. A link is written in the transaction that holds
// its message, and decided in the one that decides it, under the draft's lock
// (or with the quarantined row's delete): ours, so raw SQL. Notices are claimed by
// one instance at a time as webhook deliveries are.

export type { ReviewLink, ReviewNotice };

/** What became of a held message, as its link remembers: a draft's decisions, then a quarantined message's. */
export type LinkDecision = "approved" | "rejected" | "expired" | "withdrawn" | "released" | "deleted";

/** What a link or a notice is for: a held draft, or a quarantined message. */
export type HeldRef = { draftId: string } | { quarantinedId: string };

/** The column naming what a link or notice is for, and its value. */
const whereHeld = (held: HeldRef): [string, string] =>
  "draftId" in held ? ['"draftId"', held.draftId] : ['"quarantinedId"', held.quarantinedId];

export function insertLink(tx: Tx, link: ReviewLink): Promise<void> {
  return insertRow(tx, "ReviewLink", link);
}

/** Inside a decision's transaction: a link by its token's hash, as that transaction sees it; or null. */
export async function linkIn(tx: Tx, tokenHash: string): Promise<ReviewLink | null> {
  const row = await tx.one(`SELECT ${columnsOf("ReviewLink")} FROM "ReviewLink" WHERE "tokenHash" = ?`, [tokenHash]);
  return row ? rowOf(tx, "ReviewLink", row) : null;
}

export function linkByHash({ prisma }: Store, tokenHash: string): Promise<ReviewLink | null> {
  return prisma.reviewLink.findUnique({ where: { tokenHash } });
}

/** The held message's open link decided, with when and why; a message has one open link at most. */
export async function decideLink(
  tx: Tx,
  held: HeldRef,
  decision: { decision: LinkDecision; at: Date; reason: string | null },
): Promise<void> {
  const [column, id] = whereHeld(held);
  await tx.run(
    `UPDATE "ReviewLink" SET "decision" = ?, "decidedAt" = ?, "reason" = ? WHERE ${column} = ? AND "decision" IS NULL`,
    [decision.decision, tx.at(decision.at), decision.reason, id],
  );
}

/** Links decided before the time; how many. */
export async function forgetLinks({ prisma }: Store, before: Date): Promise<number> {
  return (await prisma.reviewLink.deleteMany({ where: { decidedAt: { lt: before } } })).count;
}

export function insertNotice(tx: Tx, notice: ReviewNotice): Promise<void> {
  return insertRow(tx, "ReviewNotice", notice);
}

const DUE = `"status" = 'pending' AND "nextAttemptAt" <= ? AND ("claimedUntil" IS NULL OR "claimedUntil" < ?)`;

/** Whether any notice is due and unclaimed: a read, so that a look with nothing to send writes nothing. */
export async function anyNoticeDue(db: Tx, now: Date): Promise<boolean> {
  return (
    (await db.one(`SELECT 1 AS "due" FROM "ReviewNotice" WHERE ${DUE} LIMIT 1`, [db.at(now), db.at(now)])) !== undefined
  );
}

/** Up to `limit` due notices no instance is delivering, earliest first, claimed until `until`. Raw: as claimDueDrafts. */
export async function claimDueNotices(tx: Tx, now: Date, until: Date, limit: number): Promise<ReviewNotice[]> {
  const rows = await tx.all(
    `SELECT ${columnsOf("ReviewNotice")} FROM "ReviewNotice" WHERE ${DUE} ORDER BY "nextAttemptAt", "id" LIMIT ?`,
    [tx.at(now), tx.at(now), limit],
  );
  const due = rowsOf(tx, "ReviewNotice", rows);
  if (due.length > 0) {
    await tx.run(`UPDATE "ReviewNotice" SET "claimedUntil" = ? WHERE "id" IN (${due.map(() => "?").join(", ")})`, [
      tx.at(until),
      ...due.map((notice) => notice.id),
    ]);
  }
  return due;
}

/** Inside a decision's transaction: the held message's notices not yet delivered, gone. */
export async function deleteNoticesOf(tx: Tx, held: HeldRef): Promise<void> {
  const [column, id] = whereHeld(held);
  await tx.run(`DELETE FROM "ReviewNotice" WHERE ${column} = ?`, [id]);
}

/** A notice delivered: gone, with the link it carried. */
export async function deleteNotice({ prisma }: Store, id: string): Promise<void> {
  await prisma.reviewNotice.deleteMany({ where: { id } });
}

/** A failed attempt: tried again then, or (with null) given up, its link erased. The claim is let go either way. */
export async function failNotice({ prisma }: Store, id: string, error: string, next: Date | null): Promise<void> {
  const retry = next === null ? { status: "given_up", payload: "", nextAttemptAt: null } : { nextAttemptAt: next };
  await prisma.reviewNotice.updateMany({
    where: { id },
    data: { ...retry, attempts: { increment: 1 }, lastError: error, claimedUntil: null },
  });
}

/** Notices whose link or webhook secret is stored in the clear (queued before SECRETS_KEY was set). */
export function noticesInTheClear({ prisma }: Store): Promise<Pick<ReviewNotice, "id" | "payload" | "secret">[]> {
  const clear = (field: "payload" | "secret") => ({ [field]: { not: "" }, NOT: { [field]: { startsWith: SEALED } } });
  return prisma.reviewNotice.findMany({
    where: { OR: [clear("payload"), { secret: { not: null }, ...clear("secret") }] },
    select: { id: true, payload: true, secret: true },
  });
}

/** A notice's link and secret, sealed. */
export async function sealNotice({ prisma }: Store, id: string, sealed: Pick<ReviewNotice, "payload" | "secret">) {
  await prisma.reviewNotice.updateMany({ where: { id }, data: sealed });
}

/** Leaves no copy of a link the notice table no longer holds in the database's own files (see Sql.compact). */
export function compactNotices({ sql }: Store): Promise<boolean> {
  return sql.compact("ReviewNotice");
}
