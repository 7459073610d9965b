import { expect, test } from "vitest";
import { schema } from "../schema/index.ts";
import { openApiDocument } from "./openapi.ts";

// The OpenAPI document says of each answer what every answer holds: a field
// some answers leave out (behind @include or @skip) is not required.

type Node = { properties?: Record<string, unknown>; required?: string[] } & Record<string, unknown>;

/** The first object schema under `node` that has the property. */
function withProperty(node: unknown, name: string): Node | null {
  if (typeof node !== "object" || node === null) return null;
  if ((node as Node).properties?.[name]) return node as Node;
  for (const inner of Object.values(node)) {
    const found = withProperty(inner, name);
    if (found) return found;
  }
  return null;
}

test("a field behind an inline fragment's @skip is not required; the fields around it are", () => {
  const document = openApiDocument(schema, { publicUrl: "http://localhost:3000" }) as {
    paths: Record<string, unknown>;
  };
  for (const path of ["/agents/{agentId}/sent", "/agents/{agentId}/threads/{threadId}"]) {
    const delivery = withProperty(document.paths[path], "diagnosticCode");
    expect(delivery?.properties, path).toHaveProperty("action");
    expect(delivery?.required, path).toEqual(["recipient", "status", "at"]);
  }
});
