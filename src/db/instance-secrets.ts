import type { Sql } from "./sql.ts";

// Secrets of the instance, one row each, shared by every instance on the
// database: written by whichever instance needs one first, and sealed again
// once SECRETS_KEY is set. Our own SQL, since Prisma inserts a row
// only-if-absent on neither database without an error to catch
// (createMany's skipDuplicates is PostgreSQL's alone).

/** The stored value of the secret: `fresh`, written now unless another instance wrote one first. */
export async function ensureInstanceSecret(sql: Sql, name: string, fresh: string, now: Date): Promise<string> {
  await sql.run(`INSERT INTO "InstanceSecret" ("name", "value", "createdAt") VALUES (?, ?, ?) ON CONFLICT DO NOTHING`, [
    name,
    fresh,
    sql.at(now),
  ]);
  const row = await sql.one(`SELECT "value" FROM "InstanceSecret" WHERE "name" = ?`, [name]);
  return String(row?.value);
}

/** Replaces the stored value, unless another instance replaced it first. */
export async function replaceInstanceSecret(sql: Sql, name: string, was: string, value: string): Promise<void> {
  await sql.run(`UPDATE "InstanceSecret" SET "value" = ? WHERE "name" = ? AND "value" = ?`, [value, name, was]);
}
