import {
  type GraphQLInputType,
  GraphQLNonNull,
  GraphQLString,
  getNullableType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
} from "graphql";
import { type Grant, unlimited } from "../mailbox/permissions.ts";
import { answeredFields, operationOf, permissionOfRoute } from "../rest/operation.ts";
import { type Bounds, type Part, partsOf } from "../rest/request.ts";
import type { McpVariant, RestRequest, Route } from "../schema/declare.ts";
import { schema } from "../schema/index.ts";
import { operations } from "../schema/operations.ts";
import { type Need, needed } from "../schema/scopes.ts";

// The tools a model sees, made from the declared operations that name one
// (src/schema/*.rest.ts): each runs its operation's REST route, its
// arguments the route's parameters by the same names (an input object's
// fields as the body takes them), described and bounded as the GraphQL
// arguments are, and checked by REST's own coercion, so a refusal reads as
// REST's. Its answer is the route's. An agent's key fills the agent's id;
// a pod's key fills the pod's, and its tools on an agent take agentId, one
// of the pod's agents, which the route's scope checks as REST's. A tool
// that answers emails says which fields each has, as its operation selects
// them with its fills (fenced: the text inside the fence, not the bodies).

/** A parameter as the model gives it, and where REST takes it. */
interface Parameter {
  name: string;
  place: Part["place"];
  /** Its name in the request: a header's, or as the argument's. */
  partName: string;
  type: GraphQLInputType;
  bounds: Bounds;
  description?: string;
}

export interface Tool {
  name: string;
  title: string;
  description: string;
  /** The REST route it runs, whose answer it gives. */
  route: Route;
  parameters: Parameter[];
  /** Every parameter of the route, those the tool fills too. */
  all: Parameter[];
  /** Parameters the tool sets itself. */
  fills: Readonly<Record<string, unknown>>;
  /** The path parameter the key gives: agentId (an agent's key) or podId (a pod's, whose tools on an agent take agentId). */
  fromKey: "agentId" | "podId";
  /** The fields of the route's answer it gives, when not all of them. */
  keeps?: readonly string[];
  /** What the key needs to see and call it: a key without it is not shown the tool. */
  permission: Need;
  /** The operation is a query: the client may call it without asking. */
  readOnly: boolean;
  /** Its parameters as JSON Schema (draft 7). */
  inputSchema: { type: "object"; properties: Record<string, JsonSchema>; required?: string[] };
}

type JsonSchema = Record<string, unknown>;

/** A path parameter no variable takes, which the route reads itself (an attachment's id). */
const pathOnly = (name: string): Parameter => ({
  name,
  place: "path",
  partName: name,
  type: new GraphQLNonNull(GraphQLString),
  bounds: {},
});

/** The route's parameters as a caller names them: every part, an input object's fields spread. */
function parametersOf(route: Route, parts: Part[]): Parameter[] {
  const inPath = [...route.path.matchAll(/:(\w+)/g)].map(([, name]) => name as string);
  const unread = inPath.filter((name) => !parts.some((part) => part.place === "path" && part.name === name));
  return [...partParameters(parts), ...unread.map(pathOnly)];
}

function partParameters(parts: Part[]): Parameter[] {
  return parts.flatMap((part): Parameter[] => {
    const { place, type, bounds, description } = part;
    // A header's value is an argument named as its variable (idempotencyKey); the rest as REST names them.
    const name = place === "header" ? part.variable : part.name;
    if (!part.spread) return [{ name, place, partName: part.name, type, bounds, description }];
    const input = getNullableType(part.type);
    if (!isInputObjectType(input)) return [];
    return Object.values(input.getFields()).map((field) => ({
      name: field.name,
      place,
      partName: field.name,
      type: isNonNullType(part.type) ? field.type : getNullableType(field.type),
      bounds: {},
      description: field.description ?? undefined,
    }));
  });
}

const SCALARS: Record<string, JsonSchema> = {
  String: { type: "string" },
  ID: { type: "string" },
  Boolean: { type: "boolean" },
  JSONObject: { type: "object" },
  // MCP takes a time as REST does (ms since 1970) or as ISO 8601, which a model writes more surely.
  Timestamp: {
    anyOf: [
      { type: "integer", minimum: 0 },
      { type: "string", format: "date-time" },
    ],
  },
};

/** A GraphQL input type as JSON Schema; a list of scalars also takes one value, as REST's coercion does. */
function jsonSchemaOf(type: GraphQLInputType, bounds: Bounds): JsonSchema {
  const inner = getNullableType(type);
  if (isListType(inner)) {
    const item = jsonSchemaOf(inner.ofType, {});
    const array = { type: "array", items: item };
    return isInputObjectType(getNullableType(inner.ofType)) ? array : { anyOf: [item, array] };
  }
  if (isInputObjectType(inner))
    return objectSchemaOf(Object.values(inner.getFields()).map((f) => ({ ...f, bounds: {} })));
  if (isEnumType(inner)) return { type: "string", enum: inner.getValues().map((value) => value.name) };
  if (inner.name === "Int") return { type: "integer", ...bounds };
  return SCALARS[inner.name] ?? { type: "string" };
}

function objectSchemaOf(
  parameters: readonly { name: string; type: GraphQLInputType; bounds: Bounds; description?: string | null }[],
) {
  const properties = Object.fromEntries(
    parameters.map(({ name, type, bounds, description }) => {
      const described = description ? { description } : {};
      return [name, { ...jsonSchemaOf(type, withoutUndefined(bounds)), ...described }];
    }),
  );
  const required = parameters.filter(({ type }) => isNonNullType(type)).map(({ name }) => name);
  return { type: "object" as const, properties, ...(required.length > 0 ? { required } : {}) };
}

const withoutUndefined = (bounds: Bounds): Bounds =>
  Object.fromEntries(Object.entries(bounds).filter(([, value]) => value !== undefined));

/** The tool for keys that give the path parameter fromKey: it takes the route's others (those declared, and agentId). */
function toolOf(route: Route, parts: Part[], declared: McpVariant, fromKey: Tool["fromKey"]): Tool {
  const all = parametersOf(route, parts);
  const offered = all
    .filter((p) => !(p.place === "path" && p.name === fromKey))
    .map((p) => (p.name === "agentId" ? { ...p, description: AGENT_ID } : p));
  const parameters = declared.takes
    ? offered.filter(({ name }) => declared.takes?.includes(name) || name === "agentId")
    : offered;
  return {
    name: declared.name,
    title: declared.title,
    description: `${declared.description}${emailFieldsNote(route, declared)}`,
    route,
    parameters,
    all,
    fills: declared.fills ?? {},
    fromKey,
    keeps: declared.keeps,
    permission: permissionOfRoute(route, schema) ?? null,
    readOnly: operationOf(route).operation === "query",
    inputSchema: objectSchemaOf(parameters),
  };
}

/** The fields the answer gives of each email, for its description; none for a file, or a tool that keeps some fields. */
function emailFieldsNote(route: Route, declared: McpVariant): string {
  if (route.file || declared.keeps) return "";
  const fields = answeredFields(route, schema, declared.fills ?? {}).get("Email");
  return fields ? ` Each email in the answer has ${fields.join(", ")}.` : "";
}

/** What agentId is, to a model holding a pod's key. */
const AGENT_ID = "The id of the agent of your pod to act on (list_pod_agents lists them).";

/** Every declared tool and its variants, in the order of the declarations, as the given keys see them. */
function toolsFor(fromKey: Tool["fromKey"]): Tool[] {
  return operations.flatMap((route) => {
    // A pod's key acts on its agents and its pod; an agent's key on its own agent (and on what needs no id).
    const onPod = route.path.includes(":podId");
    const onAgent = route.path.includes(":agentId");
    if (!route.mcp || (fromKey === "podId" ? !(onPod || onAgent) : onPod)) return [];
    const parts = partsOf(route, schema);
    const { variants = [], ...primary } = route.mcp;
    return [primary, ...variants].map((declared) => toolOf(route, parts, declared, fromKey));
  });
}

/** The tools an agent's key sees. */
export const tools: Tool[] = toolsFor("agentId");
/** The tools a pod's key sees: those on an agent taking its agentId, and the pod's own. */
export const podTools: Tool[] = toolsFor("podId");

/** Whether a key of this grant may see and call the tool. */
export function permits(grant: Grant, tool: Tool): boolean {
  const { permission } = tool;
  if (permission === null) return true;
  if (permission === "every") return unlimited(grant);
  return (
    needed(permission).every((each) => grant.permissions.includes(each)) &&
    (permission !== "webhooks" || !grant.hideJunk)
  );
}

/** ISO 8601 as Timestamp takes it (ms since 1970); anything else is left for the coercion to refuse. */
function timeOf(value: unknown, type: GraphQLInputType): unknown {
  if (getNullableType(type).toString() !== "Timestamp" || typeof value !== "string") return value;
  const ms = Date.parse(value);
  return /^\d{4}-\d\d-\d\dT/.test(value) && !Number.isNaN(ms) ? ms : value;
}

/** A query string's text for a value: a list comma-separated, as REST reads it. */
const queryText = (value: unknown) => (Array.isArray(value) ? value.join(",") : String(value));

/**
 * The request REST would get for these arguments: the path's names from
 * them (the agent's or the pod's id from the key), a renamed header by its
 * name, the rest in the query of a read or the body of a write.
 */
export function requestOf(tool: Tool, args: Record<string, unknown>, keyId: string): RestRequest {
  const request: RestRequest = { params: { [tool.fromKey]: keyId }, query: {}, body: {}, headers: {} };
  const given = { ...args, ...tool.fills };
  const taken = new Set([...tool.parameters.map(({ name }) => name), ...Object.keys(tool.fills)]);
  for (const { name, place, partName, type } of tool.all) {
    const value = taken.has(name) ? timeOf(given[name], type) : undefined;
    if (value === undefined) continue;
    if (place === "path") request.params[partName] = String(value);
    else if (place === "header") request.headers[partName] = String(value);
    else if (place === "body") request.body[partName] = value;
    else request.query[partName] = queryText(value);
  }
  return request;
}

/** A tool's answer from its route's: the route's, or the fields the tool keeps of it. */
export function answerOf(tool: Tool, body: unknown): unknown {
  if (!tool.keeps || typeof body !== "object" || body === null) return body;
  return Object.fromEntries(tool.keeps.map((name) => [name, (body as Record<string, unknown>)[name]]));
}
