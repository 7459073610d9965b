import type { Draft, Prisma } from "../generated/prisma/sqlite/client.ts";
import type { Store } from "./client.ts";
import { keysetArgs, pageOf, rangeOf, type SliceRequest, type Window } from "./pages.ts";
import { columnsOf, insertRow, rowOf, written } from "./rows.ts";
import type { Tx } from "./statements.ts";

// An agent's drafts. Writing one takes or gives back storage in the same
// transaction (quota.ts), and sending one removes it in the transaction that
// takes the send: ours, so raw SQL. Reading them is Prisma's.

export type { Draft };

/** What a read of drafts loads with each: the GraphQL selection, as Prisma takes it. */
export type DraftQuery = { select?: Prisma.DraftSelect } | { include?: Prisma.DraftInclude };

const NEWEST_FIRST = [{ createdAt: "desc" }, { id: "desc" }] satisfies Prisma.DraftOrderByWithRelationInput[];

export function insertDraft(tx: Tx, draft: Draft): Promise<void> {
  return insertRow(tx, "Draft", draft);
}

/** The agent's draft, locked until commit so that a change or a send of it waits for this one; or null. */
export async function lockDraft(tx: Tx, agentId: string, id: string): Promise<Draft | null> {
  const row = await tx.one(
    `SELECT ${columnsOf("Draft")} FROM "Draft" WHERE "id" = ? AND "agentId" = ?${tx.forUpdate}`,
    [id, agentId],
  );
  return row ? rowOf(tx, "Draft", row) : null;
}

/** Writes the draft's fields as given (its id and agent stay). */
export async function saveDraft(tx: Tx, draft: Draft): Promise<void> {
  const { id, agentId, ...fields } = draft;
  const names = Object.keys(fields);
  const values = names.map((name) => written(tx, "Draft", name, fields[name as keyof typeof fields]));
  await tx.run(
    `UPDATE "Draft" SET ${names.map((name) => `"${name}" = ?`).join(", ")} WHERE "id" = ? AND "agentId" = ?`,
    [...values, id, agentId],
  );
}

/** Bytes a draft's fields take as the store keeps them, as JSON (its attachments are counted by what they hold). */
export const storedBytes = (fields: Partial<Omit<Draft, "attachments">>): number =>
  Buffer.byteLength(JSON.stringify(fields));

/** Removes the draft (locked by lockDraft). */
export async function deleteDraftRow(tx: Tx, agentId: string, id: string): Promise<void> {
  await tx.run(`DELETE FROM "Draft" WHERE "id" = ? AND "agentId" = ?`, [id, agentId]);
}

/**
 * When a draft changed, the version a send as read compares (deleteDraftAsRead): it moves on with every change, by a
 * millisecond at least, so that a change in the millisecond of the one before is no draft as it was read.
 */
export const changedAt = (draft: Pick<Draft, "updatedAt">, now: Date): Date =>
  new Date(Math.max(now.getTime(), draft.updatedAt.getTime() + 1));

/** Removes the draft as it was read (its updatedAt); false when it was changed, sent or deleted since. */
export async function deleteDraftAsRead(tx: Tx, draft: Draft): Promise<boolean> {
  const removed = await tx.run(`DELETE FROM "Draft" WHERE "id" = ? AND "agentId" = ? AND "updatedAt" = ?`, [
    draft.id,
    draft.agentId,
    tx.at(draft.updatedAt),
  ]);
  return removed > 0;
}

/**
 * A scheduled draft whose send was refused, as the send read it: failed, with why, its claim let go, its version
 * moved on; false when it is no longer scheduled, or was changed since (the change stands, and is sent in its turn).
 */
export async function failScheduledDraft(
  tx: Tx,
  draft: Pick<Draft, "id" | "updatedAt">,
  failure: { code: string; message: string },
  now: Date,
): Promise<boolean> {
  const failed = await tx.run(
    `UPDATE "Draft" SET "sendStatus" = 'failed', "failureCode" = ?, "failureMessage" = ?, "claimedUntil" = NULL,
      "updatedAt" = ? WHERE "id" = ? AND "sendStatus" = 'scheduled' AND "updatedAt" = ?`,
    [failure.code, failure.message, tx.at(changedAt(draft, now)), draft.id, tx.at(draft.updatedAt)],
  );
  return failed > 0;
}

/**
 * Whose drafts, and whether the reader reads mail: a draft that forwards a
 * received email quotes it whole, so a reader that does not read mail is
 * shown no such draft, whatever became of it (failed, rejected, unscheduled).
 */
export interface DraftReader {
  id: string;
  readsMail: boolean;
}

/** The agent's drafts as its owner is shown them: every one (the scheduler's, a reviewing person's). */
export const everyDraftOf = (agent: { id: string }): DraftReader => ({ id: agent.id, readsMail: true });

/** The drafts the reader is shown, as a condition. */
const shownTo = (reader: DraftReader) =>
  ({ agentId: reader.id, ...(reader.readsMail ? {} : { forwards: false }) }) satisfies Prisma.DraftWhereInput;

export function draftById({ prisma }: Store, reader: DraftReader, id: string, query: DraftQuery = {}) {
  return prisma.draft.findFirst({ ...query, where: { id, ...shownTo(reader) } }) as Promise<Draft | null>;
}

/** One page of the drafts the reader is shown, newest first, and how many in all. */
export function draftPage({ prisma }: Store, reader: DraftReader, window: Window, query: DraftQuery) {
  const where = shownTo(reader);
  return pageOf(window, () => [
    prisma.draft.findMany({ ...query, where, orderBy: NEWEST_FIRST, ...rangeOf(window) }) as PromiseLike<Draft[]>,
    prisma.draft.count({ where }),
  ]);
}

/** Drafts the reader is shown after or before a position in newest-first order (oldest first when inverted), for cursor paging. */
export async function draftSlice({ prisma }: Store, reader: DraftReader, slice: SliceRequest, query: DraftQuery) {
  return (await prisma.draft.findMany({ ...query, ...keysetArgs("createdAt", shownTo(reader), slice) })) as Draft[];
}

/** Which draft, of which agent. */
export interface DraftRef {
  id: string;
  agentId: string;
}

const DUE = `"sendStatus" = 'scheduled' AND "sendAt" <= ? AND ("claimedUntil" IS NULL OR "claimedUntil" < ?)`;

/** Whether any scheduled draft is due and unclaimed: a read, so that a look with nothing to send writes nothing. */
export async function anyDraftDue(db: Tx, now: Date): Promise<boolean> {
  return (await db.one(`SELECT 1 AS "due" FROM "Draft" WHERE ${DUE} LIMIT 1`, [db.at(now), db.at(now)])) !== undefined;
}

/**
 * Up to `limit` scheduled drafts whose time has come and that no instance is
 * sending, earliest first, claimed until `until` (a crashed instance's claims
 * run out). Raw: the claim is our own transaction, with the others taking turns.
 */
export async function claimDueDrafts(tx: Tx, now: Date, until: Date, limit: number): Promise<DraftRef[]> {
  const rows = await tx.all(`SELECT "id", "agentId" FROM "Draft" WHERE ${DUE} ORDER BY "sendAt", "id" LIMIT ?`, [
    tx.at(now),
    tx.at(now),
    limit,
  ]);
  const due = rows.map((row) => ({ id: String(row.id), agentId: String(row.agentId) }));
  if (due.length > 0) {
    await tx.run(`UPDATE "Draft" SET "claimedUntil" = ? WHERE "id" IN (${due.map(() => "?").join(", ")})`, [
      tx.at(until),
      ...due.map((draft) => draft.id),
    ]);
  }
  return due;
}

/** Drafts held for a decision, oldest first, on every agent; and how many in all. */
export function heldPage({ prisma }: Store, window: Window) {
  const where = { sendStatus: "pending_approval" };
  return pageOf(window, () => [
    prisma.draft.findMany({ where, orderBy: [{ createdAt: "asc" }, { id: "asc" }], ...rangeOf(window) }),
    prisma.draft.count({ where }),
  ]);
}

/** Held drafts nobody decided in time. */
export function heldPast({ prisma }: Store, now: Date, limit: number): Promise<DraftRef[]> {
  return prisma.draft.findMany({
    where: { sendStatus: "pending_approval", reviewExpiresAt: { lt: now } },
    select: { id: true, agentId: true },
    take: limit,
  });
}

/**
 * Which of the addresses (lower case) the agent had mail to approved by a
 * person, or received mail from that authenticated (its verdict pass). Raw: a
 * match without regard to case, which Prisma cannot say on SQLite.
 */
export async function knownAmong(db: Tx, agentId: string, addresses: string[]): Promise<Set<string>> {
  const marks = addresses.map(() => "?").join(", ");
  const rows = await db.all(
    `SELECT "address" FROM "ApprovedRecipient" WHERE "agentId" = ? AND "address" IN (${marks})
     UNION SELECT lower("fromAddress") FROM "Email"
      WHERE "agentId" = ? AND "authVerdict" = 'pass' AND lower("fromAddress") IN (${marks})`,
    [agentId, ...addresses, agentId, ...addresses],
  );
  return new Set(rows.map((row) => String(row.address)));
}

/** Addresses (lower case) a person approved the agent's mail to. Raw: an insert that keeps an earlier one. */
export async function approveRecipients(tx: Tx, agentId: string, addresses: string[], at: Date): Promise<void> {
  for (const address of addresses) {
    await tx.run(
      `INSERT INTO "ApprovedRecipient" ("agentId", "address", "approvedAt") VALUES (?, ?, ?) ON CONFLICT DO NOTHING`,
      [agentId, address, tx.at(at)],
    );
  }
}
