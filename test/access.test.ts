import { type GraphQLInputType, getNamedType, isEnumType, isInputObjectType, isListType, isNonNullType } from "graphql";
import { beforeAll, expect, test } from "vitest";
import { partsOf } from "../src/rest/request.ts";
import type { Route } from "../src/schema/declare.ts";
import { schema } from "../src/schema/index.ts";
import { operations } from "../src/schema/operations.ts";
import { served } from "./support/served.ts";

// Who may call each operation, as its declaration says, is what the service
// does: every declared route is called without a key, with input its types
// take, and the answer checked against the OpenAPI document's security. An
// open route (or a review link's) never answers 401; a keyed one always does.

// biome-ignore lint/suspicious/noExplicitAny: a JSON document read from the wire, walked by path
type Json = Record<string, any>;

const { api } = served({ env: { ADMIN_TOKEN: "admin-token-access-0123456789" } });
let doc: Json;

beforeAll(async () => {
  doc = (await api.get("/openapi.json")).body;
});

const SCALARS: Record<string, unknown> = { Int: 1, Boolean: true, Timestamp: 1, JSONObject: {} };

/** A value the type takes: its required fields only. */
function sample(type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return sample(type.ofType);
  if (isListType(type)) return [sample(type.ofType)];
  const named = getNamedType(type);
  if (isInputObjectType(named)) return required(Object.values(named.getFields()));
  if (isEnumType(named)) return named.getValues()[0]?.value;
  return SCALARS[named.name] ?? "x";
}

function required(fields: readonly { name: string; type: GraphQLInputType }[]): Record<string, unknown> {
  return Object.fromEntries(fields.filter((f) => isNonNullType(f.type)).map((f) => [f.name, sample(f.type)]));
}

/** A request to the route that its types take, with "x" for each path parameter. */
function requestFor(route: Route): { path: string; body?: Record<string, unknown> } {
  const body: Record<string, unknown> = {};
  const query = new URLSearchParams();
  for (const part of partsOf(route, schema)) {
    const named = getNamedType(part.type);
    const given =
      part.spread && isInputObjectType(named)
        ? required(Object.values(named.getFields()))
        : isNonNullType(part.type)
          ? { [part.name]: sample(part.type) }
          : {};
    if (part.place === "body") Object.assign(body, given);
    if (part.place === "query") for (const [name, value] of Object.entries(given)) query.set(name, String(value));
  }
  const path = route.path.replace(/:\w+/g, "x") + (query.size ? `?${query}` : "");
  return { path, ...(route.body ? { body } : {}) };
}

test.each(operations.map((route) => [`${route.method} ${route.path}`, route] as const))(
  "%s without a key answers as its declared access says",
  async (_, route) => {
    const { path, body } = requestFor(route);
    const reply = await api.call(route.method, path, { body });
    const keyed = route.access === "agent" || route.access === "operator";
    const summary = `${route.access}: ${reply.status} ${reply.text.slice(0, 200)}`;
    if (keyed) expect(reply.status, summary).toBe(401);
    else expect(reply.status, summary).not.toBe(401);
    if (route.access === "operator") return;
    const documented = doc.paths[route.path.replace(/:(\w+)/g, "{$1}")]?.[route.method.toLowerCase()];
    expect(documented?.security ?? doc.security).toEqual(keyed ? [{ apiKey: [] }] : []);
    expect(Object.keys(documented.responses).includes("401")).toBe(keyed);
  },
);
