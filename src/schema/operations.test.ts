import { Kind, parse, print, specifiedRules, validate } from "graphql";
import { expect, test } from "vitest";
import { summaryOf } from "../rest/operation.ts";
import type { Route } from "./declare.ts";
import { schema } from "./index.ts";
import { LIMIT_RULES, LIMITS } from "./limits.ts";
import { operations } from "./operations.ts";

// Each declaration names one thing: no two share a route, an operation, a
// summary or an MCP tool.

const distinct = (values: unknown[]) => expect(values.length).toBe(new Set(values).size);

const nameOf = (route: Route) =>
  route.operation.definitions.flatMap((d) => (d.kind === Kind.OPERATION_DEFINITION ? [d.name?.value] : []))[0];

test("no two declarations share a route, an operation name, a summary or a tool name", () => {
  distinct(operations.map((route) => `${route.method} ${route.path}`));
  distinct(operations.map(nameOf));
  distinct(operations.map((route) => summaryOf(route, schema)));
  distinct(operations.flatMap(({ mcp }) => (mcp ? [mcp, ...(mcp.variants ?? [])].map((tool) => tool.name) : [])));
});

test("every declared operation is valid against the schema, and within the limits every document is held to", () => {
  for (const route of operations) {
    const where = `${route.method} ${route.path}`;
    expect(validate(schema, route.operation, [...specifiedRules, ...LIMIT_RULES]), where).toEqual([]);
    expect(() => parse(print(route.operation), { maxTokens: LIMITS.tokens }), where).not.toThrow();
  }
});
