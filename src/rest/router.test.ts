import { expect, test } from "vitest";
import { schema } from "../schema/index.ts";
import { inputProblem } from "./router.ts";
import { routes } from "./routes.ts";

const operation = (path: string, method = "POST") => {
  const route = routes.find((r) => r.path === path && r.method === method);
  if (!route) throw new Error(`no route ${method} ${path}`);
  return route.operation;
};

test.each([
  [{ input: { name: "n" } }, "id is required"],
  [{ input: { id: 5, name: "n" } }, "Invalid id: expected a string"],
  [{ input: { id: "a", name: "n", metadata: [1] } }, "Invalid metadata: expected a JSON object"],
  [{ input: { id: "a", name: "n", metadata: { ok: true } } }, null],
])("createAgent with %j: %j", (variables, problem) => {
  expect(inputProblem(operation("/agents"), variables, schema)).toBe(problem);
});

test.each([
  [{ agentId: "a", input: { subject: "s" } }, "to is required"],
  [{ agentId: "a", input: { to: "one@example.com", subject: "s" } }, null],
  [{ agentId: "a", input: { to: ["one@example.com", 2], subject: "s" } }, "Invalid to[1]: expected a string"],
  [{ agentId: "a", input: { to: [null], subject: "s" } }, "to[0] is required"],
  [{ input: { to: "x@example.com", subject: "s" } }, "agentId is required"],
])("send with %j: %j", (variables, problem) => {
  expect(inputProblem(operation("/agents/:agentId/send"), variables, schema)).toBe(problem);
});

test("query-string numbers and booleans are named when they are not", () => {
  const list = operation("/agents/:agentId/emails", "GET");
  expect(inputProblem(list, { agentId: "a", limit: "ten" }, schema)).toBe("Invalid limit: expected an integer");
  const remove = operation("/agents/:agentId/emails/:emailId", "DELETE");
  expect(inputProblem(remove, { agentId: "a", emailId: "e", permanent: "yes" }, schema)).toBe(
    "Invalid permanent: expected true or false",
  );
});

/** A request whose every part names where it came from. */
const marked = () => {
  const part = (where: string) =>
    new Proxy({} as Record<string, string>, {
      get: (_, name) => (typeof name === "string" ? `${where}:${name}` : undefined),
    });
  return { params: part("path"), query: part("query"), body: part("body"), headers: part("header") };
};

/** Each variable or input field that a query or body part lands in, with the part's name (a path's is never refused by name). */
function* landings(value: unknown, name: string): Generator<[variable: string, part: string]> {
  if (typeof value === "string" && /^(query|body):/.test(value)) yield [name, value.replace(/^\w+:/, "")];
  else if (Array.isArray(value)) for (const item of value) yield* landings(item, name);
  else if (typeof value === "object" && value !== null) {
    for (const [field, inner] of Object.entries(value)) yield* landings(inner, field);
  }
}

test("a route's operation names each variable as the REST request names its part, so a problem names what the client sent", () => {
  for (const route of routes) {
    const variables = (route.variables?.(marked() as never) ?? {}) as Record<string, unknown>;
    for (const [name, value] of Object.entries(variables)) {
      for (const [variable, part] of landings(value, name)) {
        expect(variable, `${route.method} ${route.path}`).toBe(part);
      }
    }
  }
});
