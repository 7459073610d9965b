import { readdirSync, readFileSync } from "node:fs";
import { describe, expect, test } from "vitest";
import { statementsOf } from "./migrate.ts";

describe("statementsOf", () => {
  test("one statement per semicolon at a line's end, comments dropped", () => {
    expect(
      statementsOf("-- a table\nCREATE TABLE a (x INT);\nPRAGMA foreign_keys=ON;\n\nCREATE INDEX i ON a(x);\n"),
    ).toEqual(["CREATE TABLE a (x INT)", "PRAGMA foreign_keys=ON", "CREATE INDEX i ON a(x)"]);
  });

  test("a trigger's body and a function's dollar-quoted body stay whole", () => {
    const sql = [
      "CREATE TRIGGER t AFTER DELETE ON a BEGIN",
      "    DELETE FROM b WHERE id = old.id;",
      "    DELETE FROM c WHERE id = old.id;",
      "END;",
      "",
      "CREATE FUNCTION f() RETURNS trigger LANGUAGE plpgsql AS $$",
      "BEGIN",
      "    NEW.x := 1;",
      "    RETURN NEW;",
      "END",
      "$$;",
      "SELECT 1;",
    ].join("\n");
    const statements = statementsOf(sql);
    expect(statements).toHaveLength(3);
    expect(statements[0]).toMatch(/^CREATE TRIGGER[\s\S]*END$/);
    expect(statements[1]).toMatch(/^CREATE FUNCTION[\s\S]*\$\$$/);
    expect(statements[2]).toBe("SELECT 1");
  });

  test.each(["sqlite", "postgresql"])("every committed %s migration splits into whole statements", (provider) => {
    const dir = `prisma/migrations/${provider}`;
    for (const name of readdirSync(dir)) {
      for (const statement of statementsOf(readFileSync(`${dir}/${name}/migration.sql`, "utf8"))) {
        expect(statement, name).not.toMatch(/;\s*$/);
        expect((statement.match(/\$\$/g)?.length ?? 0) % 2, name).toBe(0);
      }
    }
  });
});
