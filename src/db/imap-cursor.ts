import type { Statements } from "./sql.ts";

// How far the poller has read a catch-all mailbox, and how often it has
// begun on the message after that without committing.

export interface ImapCursor {
  uidValidity: bigint;
  /** Everything up to this UID is done. */
  lastUid: bigint;
  /** Attempts begun at the message after lastUid that never committed. */
  tries: number;
}

/** UIDs are 32-bit but stored as BIGINT, which PostgreSQL hands back as text. */
const uid = (value: unknown) => BigInt(value as number | string);

export async function readCursor(db: Pick<Statements, "one">, mailbox: string): Promise<ImapCursor | null> {
  const row = await db.one(`SELECT "uidValidity", "lastUid", "tries" FROM "ImapCursor" WHERE "mailbox" = ?`, [mailbox]);
  return row ? { uidValidity: uid(row.uidValidity), lastUid: uid(row.lastUid), tries: Number(row.tries) } : null;
}

export async function writeCursor(db: Pick<Statements, "run">, mailbox: string, cursor: ImapCursor): Promise<void> {
  await db.run(
    `INSERT INTO "ImapCursor" ("mailbox", "uidValidity", "lastUid", "tries") VALUES (?, ?, ?, ?)
      ON CONFLICT ("mailbox") DO UPDATE SET "uidValidity" = excluded."uidValidity", "lastUid" = excluded."lastUid",
        "tries" = excluded."tries"`,
    [mailbox, String(cursor.uidValidity), String(cursor.lastUid), cursor.tries],
  );
}
