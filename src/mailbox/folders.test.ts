import { expect, test } from "vitest";
import { testTable } from "../testing/table.ts";
import { folderName } from "./folders.ts";

testTable("%j is the folder %j", folderName, [
  ["INBOX", "inbox"],
  ["Archive", "archive"],
  ["ｔｒａｓｈ", "trash"],
  ["Projects 2026 ✈", "Projects 2026 ✈"],
  ["Cafe\u0301", "Café"],
  ["Инбокс", "Инбокс"],
]);

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
