import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, expect, test } from "vitest";
import { sqliteSql } from "./sql.ts";
import { Lock } from "./sqlite-adapter.ts";

// Our own statements on SQLite: rows as objects of their columns, whether
// read alone or inside a transaction.

const dir = mkdtempSync(join(tmpdir(), "pigeonhole-sql-"));
const file = join(dir, "t.db");
const writer = new Database(file);
writer.exec(`CREATE TABLE "T" ("id" TEXT PRIMARY KEY, "n" INTEGER, "flag" INTEGER, "note" TEXT)`);
const sql = sqliteSql(new Database(file, { readonly: true }), writer, new Lock());
afterAll(async () => {
  await sql.close();
  rmSync(dir, { recursive: true, force: true });
});

test("rows are objects of their columns, in order, a name given twice keeping its last value", async () => {
  await sql.run(`INSERT INTO "T" VALUES (?, ?, ?, ?), (?, ?, ?, ?)`, ["a", 1, true, null, "b", 2, false, "x"]);
  expect(await sql.all(`SELECT * FROM "T" ORDER BY "id"`, [])).toEqual([
    { id: "a", n: 1, flag: 1, note: null },
    { id: "b", n: 2, flag: 0, note: "x" },
  ]);
  const row = await sql.one(`SELECT "id", "n" AS "x", "note" AS "x", "flag" FROM "T" WHERE "id" = ?`, ["b"]);
  expect(row).toEqual({ id: "b", x: "x", flag: 0 });
  expect(Object.keys(row ?? {})).toEqual(["id", "x", "flag"]);
  expect(await sql.one(`SELECT "id" FROM "T" WHERE "id" = ?`, ["none"])).toBeUndefined();
});

test("inside a transaction, its own writes are read back as rows, and a write that returns none refuses a read", async () => {
  const read = await sql.transaction(async (tx) => {
    await tx.run(`INSERT INTO "T" ("id", "n") VALUES (?, ?)`, ["c", 3]);
    return tx.one(`UPDATE "T" SET "n" = "n" + 1 WHERE "id" = ? RETURNING "id", "n"`, ["c"]);
  });
  expect(read).toEqual({ id: "c", n: 4 });
  await expect(sql.one(`DELETE FROM "T" WHERE "id" = ?`, ["c"])).rejects.toThrow();
});
