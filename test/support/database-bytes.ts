import { existsSync, readFileSync } from "node:fs";
import pg from "pg";
import type { PrismaClient } from "../../src/generated/prisma/sqlite/client.ts";

// What a database's own files hold, to look for a secret left readable in
// them: SQLite's file and its log; on PostgreSQL a table's files, TOAST too.

export async function databaseBytes(url: string, prisma: PrismaClient, table: string): Promise<Buffer> {
  if (url.startsWith("file:")) {
    const file = url.slice("file:".length);
    return Buffer.concat([file, `${file}-wal`, `${file}-shm`].filter(existsSync).map((path) => readFileSync(path)));
  }
  // Written out to the table's files first; reading them is the superuser's (the tests' PostgreSQL user).
  await prisma.$executeRawUnsafe("CHECKPOINT");
  const rows = await prisma.$queryRawUnsafe<{ bytes: Uint8Array }[]>(
    `SELECT pg_read_binary_file(pg_relation_filepath(oid)) AS "bytes" FROM pg_class
      WHERE oid IN ('"${table}"'::regclass, (SELECT reltoastrelid FROM pg_class WHERE oid = '"${table}"'::regclass))`,
  );
  return Buffer.concat(rows.map((row) => Buffer.from(row.bytes)));
}

/**
 * PostgreSQL: sessions of the same database holding, until the returned
 * function ends them one after the other, what keeps old copies of rows
 * alive: a snapshot taken now (as a long report would), then a transaction
 * id with no snapshot (a READ COMMITTED transaction that has written, between
 * its statements), a second later, so that a wait for either alone shows.
 * SQLite: nothing.
 */
export async function holdSnapshot(url: string): Promise<() => Promise<void>> {
  if (url.startsWith("file:")) return async () => {};
  const open = async (begin: string, statement: string) => {
    const client = new pg.Client({ connectionString: url.replace(/\?.*$/, "") });
    await client.connect();
    await client.query(begin);
    await client.query(statement);
    return client;
  };
  const clients = [
    await open("BEGIN ISOLATION LEVEL REPEATABLE READ", "SELECT 1"),
    await open("BEGIN ISOLATION LEVEL READ COMMITTED", "SELECT txid_current()"),
  ];
  return async () => {
    for (const [n, client] of clients.entries()) {
      if (n > 0) await new Promise((resolve) => setTimeout(resolve, 1_000));
      await client.query("COMMIT");
      await client.end();
    }
  };
}
