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
 * PostgreSQL: a session of the same database holding a snapshot taken now (as
 * a long report would), until the returned function ends it. SQLite: nothing.
 */
export async function holdSnapshot(url: string): Promise<() => Promise<void>> {
  if (url.startsWith("file:")) return async () => {};
  const client = new pg.Client({ connectionString: url.replace(/\?.*$/, "") });
  await client.connect();
  await client.query("BEGIN ISOLATION LEVEL REPEATABLE READ");
  await client.query("SELECT 1");
  return async () => {
    await client.query("COMMIT");
    await client.end();
  };
}
