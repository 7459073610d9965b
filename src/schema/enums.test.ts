import { expect, test } from "vitest";
import { inSpecWords } from "./enums.ts";

test("REST answers RFC 3834's keywords as the header spells them, at any depth, and nothing else changes", () => {
  const data = {
    total: 2,
    data: [
      { id: "a", autoSubmitted: "auto_replied", subject: "auto_replied" },
      { id: "b", autoSubmitted: null, thread: { autoSubmitted: "auto_generated" } },
    ],
  };
  expect(inSpecWords(data)).toEqual({
    total: 2,
    data: [
      { id: "a", autoSubmitted: "auto-replied", subject: "auto_replied" },
      { id: "b", autoSubmitted: null, thread: { autoSubmitted: "auto-generated" } },
    ],
  });
  expect(inSpecWords({ autoSubmitted: "list" })).toEqual({ autoSubmitted: "list" });
  expect(inSpecWords("zone file")).toBe("zone file");
});
