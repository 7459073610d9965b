import {
  type DocumentNode,
  type GraphQLInputType,
  type GraphQLSchema,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  type OperationDefinitionNode,
  print,
  typeFromAST,
  validate,
} from "graphql";
import type { Hono, Context as HonoContext, Env as HonoEnv, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Config } from "../config.ts";
import { internalError, ServiceError } from "../errors.ts";
import { attachmentContent } from "../mailbox/attachments.ts";
import type { Services } from "../mailbox/services.ts";
import { type RequestFacts, requestFacts } from "../schema/context.ts";
import { inSpecWords } from "../schema/enums.ts";
import { serviceErrorOf } from "../schema/errors.ts";
import { assertCleanInput } from "../schema/input.ts";
import { type Graphql, runOperation } from "../schema/pipeline.ts";
import { wireBody } from "../wire-names.ts";
import { answerFile } from "./download.ts";
import { DEFAULT_BODY_LIMIT, type RestRequest, type Route, routes } from "./routes.ts";

// Runs each route's operation through the GraphQL pipeline (the same envelop
// plugins as /graphql) and answers in the spec's shape: the operation's
// result as the route words it, or the error body.

/** What a scalar takes, in the words a REST client reads. */
const EXPECTED: Record<string, string> = {
  String: "a string",
  ID: "a string",
  Int: "an integer",
  Boolean: "true or false",
  JSONObject: "a JSON object",
  Timestamp: "a time in milliseconds",
};

/**
 * The variables with every field the client left out taken out, in input
 * objects too, as JSON would have them: GraphQL reads a variable given as
 * `undefined` as null, and graphql-jit an input field so given as null, which
 * would clear what a PATCH leaves out.
 */
function withoutLeftOut(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Object.getPrototypeOf(value) !== Object.prototype) return value;
  const given: Record<string, unknown> = {};
  for (const [name, field] of Object.entries(value)) if (field !== undefined) given[name] = withoutLeftOut(field);
  return given;
}

/** The first problem of a value against an input type, naming where it is, or null. */
function problemOf(value: unknown, type: GraphQLInputType, at: string): string | null {
  if (isNonNullType(type)) {
    return value === undefined || value === null ? `${at} is required` : problemOf(value, type.ofType, at);
  }
  if (value === undefined || value === null) return null;
  if (isListType(type)) {
    // GraphQL takes a single value where a list is asked for.
    if (!Array.isArray(value)) return problemOf(value, type.ofType, at);
    for (const [index, item] of value.entries()) {
      const problem = problemOf(item, type.ofType, `${at}[${index}]`);
      if (problem) return problem;
    }
    return null;
  }
  if (isInputObjectType(type)) {
    if (typeof value !== "object" || Array.isArray(value)) return `Invalid ${at}: expected an object`;
    return fieldsProblem(value as Record<string, unknown>, type.getFields(), `${at}.`);
  }
  try {
    type.parseValue(value);
    return null;
  } catch {
    // An enum takes one of its values' names.
    const expected = isEnumType(type)
      ? type
          .getValues()
          .map((value) => value.name)
          .join(", ")
      : EXPECTED[type.name];
    return `Invalid ${at}: expected ${expected ?? type.name}`;
  }
}

function fieldsProblem(
  value: Record<string, unknown>,
  fields: Record<string, { type: GraphQLInputType }>,
  prefix: string,
): string | null {
  for (const [name, field] of Object.entries(fields)) {
    const problem = problemOf(value[name], field.type, `${prefix}${name}`);
    if (problem) return problem;
  }
  return null;
}

/**
 * Checks the variables against the operation before it runs, so a REST
 * client hears about its JSON fields ("name is required"), not GraphQL
 * variables. An input object variable speaks for its fields.
 */
export function inputProblem(document: DocumentNode, variables: Record<string, unknown>, schema: GraphQLSchema) {
  const operation = document.definitions.find((d): d is OperationDefinitionNode => d.kind === "OperationDefinition");
  for (const definition of operation?.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType;
    const value = variables[name];
    const named = getNamedType(type);
    const problem =
      isInputObjectType(named) && typeof value === "object" && value !== null && !Array.isArray(value)
        ? fieldsProblem(value as Record<string, unknown>, named.getFields(), "")
        : problemOf(value, type, name);
    if (problem) return problem;
  }
  return null;
}

async function readJsonObject(c: HonoContext): Promise<Record<string, unknown>> {
  if (!/^application\/json\s*(;|$)/i.test(c.req.header("content-type") ?? "")) {
    throw new ServiceError("BAD_REQUEST", "Content-Type must be application/json");
  }
  let body: unknown;
  try {
    body = JSON.parse(await c.req.text());
  } catch {
    throw new ServiceError("BAD_REQUEST", "Request body is not valid JSON");
  }
  if (typeof body !== "object" || body === null || Array.isArray(body)) {
    throw new ServiceError("BAD_REQUEST", "Request body must be a JSON object");
  }
  return body as Record<string, unknown>;
}

/** Every field the client sent, checked where it enters. */
function assertCleanRequest(request: RestRequest): void {
  for (const part of [request.params, request.query, request.body]) {
    for (const [name, value] of Object.entries(part)) assertCleanInput(value, name);
  }
}

/** What a route answers: its status and JSON body, or an attachment's bytes. */
export type RouteAnswer =
  | { status: number; body: unknown }
  | { status: 200; file: Awaited<ReturnType<typeof attachmentContent>> };

/** Runs a route for a request already read; what it refuses is thrown as a ServiceError. */
export type RunRoute = (route: Route, request: RestRequest, facts: RequestFacts) => Promise<RouteAnswer>;

/** The one way a route runs, for REST and for the MCP tools: the table's operations checked once. */
export function routeRunner(schema: GraphQLSchema, graphql: Graphql, services: Services): RunRoute {
  const sources = new Map<Route, string>();
  for (const route of routes) {
    const [invalid] = validate(schema, route.operation);
    if (invalid) throw new Error(`${route.method} ${route.path}: ${invalid.message}`);
    sources.set(route, print(route.operation));
  }
  return async (route, request, facts) => {
    assertCleanRequest(request);
    const variables = withoutLeftOut(route.variables?.(request) ?? {}) as Record<string, unknown>;
    const problem = inputProblem(route.operation, variables, schema);
    if (problem) throw new ServiceError("BAD_REQUEST", problem);
    const result = await runOperation(graphql, { query: sources.get(route) ?? "", variables }, facts);
    const [failure] = result.errors ?? [];
    if (failure) throw serviceErrorOf(failure) ?? internalError();
    const data = result.data ?? {};
    if (route.file) {
      const file = route.file(data, request);
      if (!file) throw new ServiceError("NOT_FOUND", "Attachment not found");
      const agent = { id: file.agentId };
      const content = () => attachmentContent(services, agent, file.emailId, file.attachmentId);
      return { status: 200, file: await facts.answer.load(content, (loaded) => loaded.content.length) };
    }
    const status = route.acceptedWhen?.(data) ? 202 : (route.status ?? 200);
    return { status, body: inSpecWords(route.respond ? route.respond(data, request) : Object.values(data)[0]) };
  };
}

export function mountRoutes<E extends HonoEnv>(app: Hono<E>, run: RunRoute, config: Config): void {
  const wire = wireBody(config);
  for (const route of routes) {
    // Only a route that reads a body checks its size: looking at the body makes Node build a whole Request.
    if (route.body) app.on(route.method, route.path, limitBody(route.maxBodyBytes ?? DEFAULT_BODY_LIMIT));
    app.on(route.method, route.path, async (c) => {
      const body = route.body ? await readJsonObject(c) : {};
      const request = { params: c.req.param(), query: c.req.query(), body, headers: c.req.header() };
      const facts = requestFacts(c.req.header("authorization") ?? null, () => c.req.raw.signal);
      const answer = await run(route, request, facts);
      if ("file" in answer) return answerFile(c, answer.file.record, answer.file.content);
      if (answer.body === null && route.noContentWhenNull) return c.body(null, 204);
      if (route.text) return c.text(String(answer.body), answer.status as 200);
      return c.json(wire(answer.body), answer.status as 200);
    });
  }
}

/**
 * 413 in the spec's shape. The rest of the body is never read, so the
 * connection cannot carry another request. A declared Content-Length is
 * judged as it stands; only a chunked body is counted as it is read (which
 * makes the adapter build a whole Request, slower than reading it directly).
 */
export function limitBody(maxSize: number): MiddlewareHandler {
  const tooLarge = (c: HonoContext) => {
    const error = new ServiceError("PAYLOAD_TOO_LARGE", `Request body exceeds ${maxSize} bytes`);
    return c.json(error.toBody(), 413, { Connection: "close" });
  };
  const counted = bodyLimit({ maxSize, onError: tooLarge });
  return async (c, next) => {
    if (c.req.header("transfer-encoding") !== undefined) return counted(c, next);
    if (Number(c.req.header("content-length") ?? 0) > maxSize) return tooLarge(c);
    await next();
  };
}

/** The methods a path answers to, for 405 versus 404. */
export function methodsFor(path: string): string[] {
  return routes
    .filter((route) => new RegExp(`^${route.path.replace(/:[^/]+/g, "[^/]+")}$`).test(path))
    .map((route) => route.method);
}
