import { expect, test } from "vitest";
import { schema } from "../schema/index.ts";
import { operations } from "../schema/operations.ts";
import { assertValidVariables, partsOf, variablesFrom } from "./request.ts";
import { bySpecificity } from "./router.ts";

const routeOf = (method: string, path: string) => {
  const route = operations.find((r) => r.path === path && r.method === method);
  if (!route) throw new Error(`no route ${method} ${path}`);
  return route;
};

/** What a request to a route is refused with, or null. */
function problem(method: string, path: string, parts: { params?: object; query?: object; body?: object }) {
  const route = routeOf(method, path);
  const request = { params: {}, query: {}, body: {}, headers: {}, ...parts } as never;
  const routeParts = partsOf(route, schema);
  try {
    assertValidVariables(routeParts, variablesFrom(routeParts, request));
    return null;
  } catch (error) {
    return (error as Error).message;
  }
}

test.each([
  [{ name: "n" }, "id is required"],
  [{ id: 5, name: "n" }, "Invalid id: expected a string"],
  [{ id: "a", name: "n", metadata: [1] }, "Invalid metadata: expected a JSON object"],
  [{ id: "a", name: "n", metadata: { ok: true } }, null],
])("POST /agents with %j: %j", (body, expected) => {
  expect(problem("POST", "/agents", { body })).toBe(expected);
});

test.each([
  [{ subject: "s" }, "to is required"],
  [{ to: "one@example.com", subject: "s" }, null],
  [{ to: ["one@example.com", 2], subject: "s" }, "Invalid to[1]: expected a string"],
  [{ to: [null], subject: "s" }, "to[0] is required"],
  [{ to: "one@example.com", subject: "s", attachments: { content: "aGk=" } }, "attachments.filename is required"],
  [{ to: "one@example.com", subject: "s", attachments: [{ content: "aGk=" }] }, "attachments[0].filename is required"],
])("send with %j: %j", (body, expected) => {
  expect(problem("POST", "/agents/:agentId/send", { params: { agentId: "a" }, body })).toBe(expected);
});

test("a limit is refused in one sentence, whatever is wrong with it", () => {
  const list = (limit: string) =>
    problem("GET", "/agents/:agentId/emails", { params: { agentId: "a" }, query: { limit } });
  for (const bad of ["0", "-3", "abc", "1.5"])
    expect(list(bad)).toBe("Invalid limit: expected an integer of at least 1");
  expect(list("1000")).toBeNull();
  const remove = { params: { agentId: "a", emailId: "e" }, query: { permanent: "yes" } };
  expect(problem("DELETE", "/agents/:agentId/emails/:emailId", remove)).toBe(
    "Invalid permanent: expected true or false",
  );
});

test("variables come from the parts of their names: path, query or body, an input object from its fields", () => {
  const route = routeOf("GET", "/agents/:agentId/emails/wait");
  const request = {
    params: { agentId: "a" },
    query: { from: "x@example.com", after: "5", timeout: "3" },
    body: {},
    headers: {},
  };
  expect(variablesFrom(partsOf(route, schema), request)).toEqual({
    agentId: "a",
    filter: { from: "x@example.com", after: 5 },
    timeout: 3,
  });
  const send = routeOf("POST", "/agents/:agentId/send");
  const headers = { "idempotency-key": "k" };
  const body = { to: "x@example.com", subject: "s", text: "t", unknown: 1 };
  expect(variablesFrom(partsOf(send, schema), { params: { agentId: "a" }, query: {}, body, headers })).toEqual({
    agentId: "a",
    input: { to: "x@example.com", subject: "s", text: "t" },
    idempotencyKey: "k",
  });
});

test("every variable of every route comes from a part the route has: its path, query or body, or a header", () => {
  for (const route of operations) {
    for (const part of partsOf(route, schema)) {
      if (part.place === "path") expect(route.path, part.variable).toContain(`:${part.name}`);
      if (part.place === "body") expect(route.body, `${route.method} ${route.path} ${part.variable}`).toBe(true);
    }
  }
});

test("a static segment is matched before a parameter, whatever the declarations' order", () => {
  const paths = [...operations].sort(bySpecificity).map((route) => `${route.method} ${route.path}`);
  const before = (a: string, b: string) => expect(paths.indexOf(a)).toBeLessThan(paths.indexOf(b));
  before("GET /agents/:agentId/emails/wait", "GET /agents/:agentId/emails/:emailId");
  before("POST /verify/start", "POST /verify/:claimToken/start");
});

test("a variable only @include and @skip read is described by what it switches, and is not required", () => {
  const fenced = partsOf(routeOf("GET", "/agents/:agentId/emails/:emailId"), schema).find((p) => p.name === "fenced");
  expect(fenced).toMatchObject({
    place: "query",
    description: "true: the answer has fenced, not bodyText, bodyHtml, text, replyText",
  });
  expect(problem("GET", "/agents/:agentId/emails/:emailId", { params: { agentId: "a", emailId: "e" } })).toBeNull();
  // Behind an inline fragment's @skip: the fields it selects.
  const sent = partsOf(routeOf("GET", "/agents/:agentId/sent"), schema).find((p) => p.name === "fenced");
  expect(sent?.description).toBe(
    "true: the answer has fenced, not bodyText, bodyHtml, action, diagnosticCode, remoteMta",
  );
});
