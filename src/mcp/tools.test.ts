import { expect, test } from "vitest";
import { openApiDocument } from "../rest/openapi.ts";
import { schema } from "../schema/index.ts";
import { operations } from "../schema/operations.ts";
import { requestOf, type Tool, tools } from "./tools.ts";

// The tools made from the declarations: each takes the parameters its REST
// route takes, as the OpenAPI document names them, and makes the request
// REST would read.

type Parameters = { name: string; in: string }[];
type Body = { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };

const document = openApiDocument(schema, { publicUrl: "https://mail.example" }) as {
  paths: Record<string, Record<string, { parameters?: Parameters; requestBody?: Body }>>;
};

/** What REST takes for a route, as a tool names it: the key's agent left out, the Idempotency-Key header as idempotencyKey. */
function restParameters(tool: Tool): string[] {
  const { method, path } = tool.route;
  const described = document.paths[path.replace(/:(\w+)/g, "{$1}")]?.[method.toLowerCase()];
  const inRequest = (described?.parameters ?? [])
    .filter(({ name }) => name !== "agentId")
    .map(({ name }) => (name === "Idempotency-Key" ? "idempotencyKey" : name));
  const body = Object.keys(described?.requestBody?.content["application/json"]?.schema.properties ?? {});
  return [...inRequest, ...body].sort();
}

const named = (name: string) => tools.find((tool) => tool.name === name) as Tool;

test("every declaration with a tool yields it, taking exactly its REST route's parameters", () => {
  const declared = operations.filter((route) => route.mcp);
  expect(declared.length).toBeGreaterThan(0);
  for (const route of declared) {
    const tool = named(route.mcp?.name ?? "");
    expect(tool.route, tool.name).toBe(route);
    expect(Object.keys(tool.inputSchema.properties).sort(), tool.name).toEqual(restParameters(tool));
  }
});

test("a variant takes some of its route's parameters and fills only others of them", () => {
  for (const route of operations) {
    for (const variant of route.mcp?.variants ?? []) {
      const tool = named(variant.name);
      const taken = restParameters(tool);
      for (const name of Object.keys(tool.inputSchema.properties)) expect(taken, tool.name).toContain(name);
      for (const name of Object.keys(tool.fills)) expect(taken, tool.name).toContain(name);
    }
  }
});

test("bounds and times: limit and timeout as the arguments declare them; a time in ms or ISO 8601", () => {
  expect(named("list_emails").inputSchema.properties.limit).toMatchObject({ type: "integer", minimum: 1 });
  expect(named("wait_for_email").inputSchema.properties.timeout).toMatchObject({ minimum: 0, maximum: 25 });
  expect(named("send_email").inputSchema.required?.sort()).toEqual(["subject", "to"]);
  expect(named("read_email").readOnly).toBe(false);
  expect(named("get_email").readOnly).toBe(true);
});

test("the request REST would read: path, query as text, body, header; ISO 8601 as ms; a variant's fills", () => {
  const after = "2026-05-01T09:00:00Z";
  expect(requestOf(named("search_emails"), { q: "x", after, limit: 5 }, "a1")).toEqual({
    params: { agentId: "a1" },
    query: { q: "x", after: String(Date.parse(after)), limit: "5", fenced: "true" },
    body: {},
    headers: {},
  });
  expect(requestOf(named("send_email"), { to: ["p@x.example"], subject: "s", idempotencyKey: "k" }, "a1")).toEqual({
    params: { agentId: "a1" },
    query: {},
    body: { to: ["p@x.example"], subject: "s" },
    headers: { "idempotency-key": "k" },
  });
  expect(requestOf(named("read_email"), { emailId: "e1", folder: "trash" }, "a1")).toEqual({
    params: { agentId: "a1", emailId: "e1" },
    query: {},
    body: { isRead: true, fenced: true },
    headers: {},
  });
  expect(requestOf(named("get_attachment"), { emailId: "e1", attachmentId: "t1" }, "a1").params).toEqual({
    agentId: "a1",
    emailId: "e1",
    attachmentId: "t1",
  });
});
