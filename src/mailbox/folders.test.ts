import { expect, test } from "vitest";
import { folderName } from "./folders.ts";

test.each([
  ["INBOX", "inbox"],
  ["Archive", "archive"],
  ["ｔｒａｓｈ", "trash"],
  ["Projects 2026 ✈", "Projects 2026 ✈"],
  ["Cafe\u0301", "Café"],
  ["Инбокс", "Инбокс"],
])("%j is the folder %j", (name, folder) => {
  expect(folderName(name)).toBe(folder);
});

test.each([
  "іnbox",
  "ARCHІVE",
  "trаsh",
  "inb0x",
  "lnbox",
  "Inbóx",
  "in box",
  "",
  " ",
  "a/b",
  "zero\u200bwidth",
  "x".repeat(65),
])("%j is refused", (name) => {
  expect(() => folderName(name)).toThrow(/folder/);
});
