import { parse } from "graphql";
import { expect, test } from "vitest";
import { inSpecWords, selectsAutoSubmitted } from "./enums.ts";
import { schema } from "./index.ts";

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

test("only an operation that selects an autoSubmitted has its answers respelled, whatever its variables are called", () => {
  const selects = (source: string) => selectsAutoSubmitted(schema, parse(source));
  expect(selects('query { email(agentId: "a", emailId: "e") { id autoSubmitted } }')).toBe(true);
  expect(selects('query { thread(agentId: "a", threadId: "t") { messages { email { autoSubmitted } } } }')).toBe(true);
  expect(
    selects('query($autoSubmitted: Boolean) { agent(id: "a") { emails(autoSubmitted: $autoSubmitted) { total } } }'),
  ).toBe(false);
});
