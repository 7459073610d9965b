import type { Statements } from "./statements.ts";

// How far the poller has read a catch-all mailbox, and how often it has
// begun on the message after that without committing.

export interface ImapCursor {
  uidValidity: bigint;
  /** Everything up to this UID is done. */
  lastUid: bigint;
  /** Attempts begun at the message after lastUid that never committed. */
  tries: number;
  /** The message those attempts began at; null while none is counted. */
  attemptUid: bigint | null;
}

/** UIDs are 32-bit but stored as BIGINT, which PostgreSQL hands back as text. */
const uid = (value: unknown) => BigInt(value as number | string);

export async function readCursor(db: Pick<Statements, "one">, mailbox: string): Promise<ImapCursor | null> {
  const row = await db.one(
    `SELECT "uidValidity", "lastUid", "tries", "attemptUid" FROM "ImapCursor" WHERE "mailbox" = ?`,
    [mailbox],
  );
  if (!row) return null;
  const attemptUid = row.attemptUid === null ? null : uid(row.attemptUid);
  return { uidValidity: uid(row.uidValidity), lastUid: uid(row.lastUid), tries: Number(row.tries), attemptUid };
}

export async function writeCursor(db: Pick<Statements, "run">, mailbox: string, cursor: ImapCursor): Promise<void> {
  await db.run(
    `INSERT INTO "ImapCursor" ("mailbox", "uidValidity", "lastUid", "tries", "attemptUid") VALUES (?, ?, ?, ?, ?)
      ON CONFLICT ("mailbox") DO UPDATE SET "uidValidity" = excluded."uidValidity", "lastUid" = excluded."lastUid",
        "tries" = excluded."tries", "attemptUid" = excluded."attemptUid"`,
    [
      mailbox,
      String(cursor.uidValidity),
      String(cursor.lastUid),
      cursor.tries,
      cursor.attemptUid === null ? null : String(cursor.attemptUid),
    ],
  );
}
