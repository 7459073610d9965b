import { expect, test } from "vitest";
import { rowOf, statementChunks, statementSizes, written } from "./rows.ts";
import { type Dialect, inList, oneOf } from "./statements.ts";

// Our own statements read and write Json fields as Prisma does: arrays and
// objects above the store, JSON text in the database.

const sqlite: Dialect = {
  date: (value: unknown) => new Date(value as string),
  at: (date: Date) => date.toISOString(),
  flag: (value: unknown) => value === 1,
  forUpdate: "",
  forShare: "",
};

test("a row's Json fields are read as arrays and objects, its text fields as they are", () => {
  const row = rowOf(sqlite, "Email", {
    id: "e1",
    subject: '["not JSON to the store: a subject"]',
    toList: '["pat@example.com"]',
    links: '[{"url":"https://example.com/","text":"Example"}]',
    isRead: 0,
  });
  expect(row).toEqual({
    id: "e1",
    subject: '["not JSON to the store: a subject"]',
    toList: ["pat@example.com"],
    links: [{ url: "https://example.com/", text: "Example" }],
    isRead: false,
  });
});

test("a Json field is written as JSON text, a text field as it is, a date as the database compares it", () => {
  expect(written(sqlite, "Draft", "toList", ["pat@example.com"])).toBe('["pat@example.com"]');
  expect(written(sqlite, "Draft", "attachments", [])).toBe("[]");
  expect(written(sqlite, "Draft", "subject", "[]")).toBe("[]");
  expect(written(sqlite, "Draft", "sendAt", new Date(0))).toBe("1970-01-01T00:00:00.000Z");
  expect(written(sqlite, "Domain", "lastCheck", null)).toBeNull();
});

test("a batch's rows go in statements of a few sizes, and an IN list of any length is one of a few texts", () => {
  expect(statementSizes(0)).toEqual([]);
  expect(statementSizes(1)).toEqual([1]);
  expect(statementSizes(100)).toEqual([64, 32, 4]);
  expect(statementSizes(200)).toEqual([64, 64, 64, 8]);
  const rows = Array.from({ length: 100 }, (_, i) => i);
  expect([...statementChunks(rows)].map((chunk) => [chunk[0], chunk.length])).toEqual([
    [0, 64],
    [64, 32],
    [96, 4],
  ]);
  expect(inList([])).toEqual({ list: "", params: [] });
  expect(inList(["a"])).toEqual({ list: "?", params: ["a"] });
  expect(inList(["a", "b", "c"])).toEqual({ list: "?, ?, ?, ?", params: ["a", "b", "c", "c"] });
  const many = (n: number) => Array.from({ length: n }, (_, i) => `v${i}`);
  expect(inList(many(1000)).params).toHaveLength(1024);
  // Past 1,024 a list goes as it is: padded, 20,000 agents would pass SQLite's 32,766 parameters.
  expect(inList(many(1025)).params).toEqual(many(1025));
  expect(inList(many(20_000)).params).toHaveLength(20_000);
});

test("a column's values: one compared alone, none never matching, several as a padded IN list", () => {
  expect(oneOf(`"id"`, "a")).toEqual({ where: `"id" = ?`, params: ["a"] });
  expect(oneOf(`"id"`, [])).toEqual({ where: "1 = 0", params: [] });
  expect(oneOf(`"id"`, ["a", "b", "c"])).toEqual({ where: `"id" IN (?, ?, ?, ?)`, params: ["a", "b", "c", "c"] });
});
