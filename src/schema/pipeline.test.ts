import { complexityFromQuery } from "@pothos/plugin-complexity";
import { parse } from "graphql";
import { expect, test } from "vitest";
import { MAX_PAGE_SIZE } from "../mailbox/pages.ts";
import { schema } from "./index.ts";
import { worstCost } from "./pipeline.ts";

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
