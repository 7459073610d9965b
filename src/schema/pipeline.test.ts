import { complexityFromQuery } from "@pothos/plugin-complexity";
import { parse } from "graphql";
import { expect, test } from "vitest";
import { MAX_PAGE_SIZE } from "../mailbox/pages.ts";
import { schema } from "./index.ts";
import { alwaysWithinCost, worstCost } from "./pipeline.ts";

// A prepared document is costed once, at the most any variables could make it cost.

const document = parse(`query Page($agentId: ID!, $limit: Int, $offset: Int) {
  agent(id: $agentId) { emails(limit: $limit, offset: $offset) { data { id subject bodyText } total } }
}`);
const costAt = (limit: number) =>
  complexityFromQuery(document, { schema, variables: { agentId: "scout", limit } }).complexity;

test("a document's worst cost is its cost at the largest page, whatever page the request asked for", () => {
  expect(costAt(1)).toBeLessThan(costAt(MAX_PAGE_SIZE));
  expect(worstCost(schema, document, { agentId: "scout", limit: 1 })).toBe(costAt(MAX_PAGE_SIZE));
  expect(worstCost(schema, document, { agentId: "scout" })).toBe(costAt(MAX_PAGE_SIZE));
});

test("variables that make no valid operation give no bound, so the document is costed at each request", () => {
  expect(worstCost(schema, document, {})).toBeUndefined();
  expect(worstCost(schema, document, { agentId: { not: "an id" } })).toBeUndefined();
});

test("a /graphql document is costed once when nothing a request sends can raise its cost", () => {
  const list = (limit: string) => `sent(limit: ${limit}) { data { id bodyText bodyHtml subject } total }`;
  const within = (text: string) => alwaysWithinCost(schema, parse(text));
  expect(within(`{ agent(id: "scout") { id name } }`)).toBe(true);
  expect(within(`query ($n: Int) { agent(id: "scout") { ${list("$n")} } }`)).toBe(true);
  // Over the limit as written: costed, and refused, at each request.
  expect(
    within(`{ agent(id: "scout") { a: ${list("100")} b: ${list("100")} c: ${list("100")} d: ${list("100")} } }`),
  ).toBe(false);
  // Other variables (an id, a flag that includes a field) are the request's: costed with their values.
  expect(within(`query ($id: ID!) { agent(id: $id) { id } }`)).toBe(false);
  expect(
    within(`query ($f: Boolean!) { agent(id: "scout") { sent(limit: 100) @include(if: $f) { data { id } total } } }`),
  ).toBe(false);
  // Two operations: which one runs is the request's choice.
  expect(within(`query A { agent(id: "scout") { id } } query B { agent(id: "scout") { name } }`)).toBe(false);
});
