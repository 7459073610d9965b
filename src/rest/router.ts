import {
  coerceInputValue,
  type DocumentNode,
  execute,
  type GraphQLError,
  type GraphQLInputType,
  type GraphQLSchema,
  isNonNullType,
  type OperationDefinitionNode,
  parse,
  typeFromAST,
  validate,
} from "graphql";
import type { Hono, Context as HonoContext } from "hono";
import { bodyLimit } from "hono/body-limit";
import { internalError, isRequestError, ServiceError, serviceErrorOf } from "../errors.ts";
import { createContext, type Services } from "../schema/context.ts";
import { DEFAULT_BODY_LIMIT, type Route, routes } from "./routes.ts";

// Runs each route's operation against the schema in-process and answers in
// the spec's shape: the result of the one root field, or the error body.

function compile(schema: GraphQLSchema, route: Route): DocumentNode {
  const document = parse(route.operation);
  const [invalid] = validate(schema, document);
  if (invalid) throw new Error(`${route.method} ${route.path}: ${invalid.message}`);
  return document;
}

/**
 * Checks the variables against the operation before it runs, so a REST client
 * hears about its JSON fields ("name is required") rather than GraphQL variables.
 */
export function inputProblem(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>) {
  const [operation] = document.definitions as OperationDefinitionNode[];
  for (const definition of operation?.variableDefinitions ?? []) {
    const name = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType;
    const value = variables[name];
    if (value === undefined || value === null) {
      if (isNonNullType(type)) return `${name} is required`;
      continue;
    }
    let problem: string | null = null;
    coerceInputValue(value, type, (path, _invalid, error) => {
      const field = /^Field "([^"]+)" of required type/.exec(error.message)?.[1];
      const at = [...path, ...(field ? [field] : [])].join(".") || name;
      problem ??=
        field || error.message.startsWith("Expected non-nullable type")
          ? `${at} is required`
          : `Invalid ${at}: ${error.message}`;
    });
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

function failure(errors: readonly GraphQLError[], services: Services): ServiceError {
  const [first] = errors as [GraphQLError];
  const service = serviceErrorOf(first);
  if (service) return service;
  if (isRequestError(first)) return new ServiceError("BAD_REQUEST", first.message);
  services.log("error", "request_failed", { error: String(first.originalError ?? first) });
  return internalError();
}

export function mountRoutes(app: Hono, schema: GraphQLSchema, services: Services): void {
  for (const route of routes) {
    const document = compile(schema, route);
    app.on(route.method, route.path, limitBody(route.maxBodyBytes ?? DEFAULT_BODY_LIMIT), async (c) => {
      const body = route.body ? await readJsonObject(c) : {};
      const request = { params: c.req.param(), query: c.req.query(), body };
      const variables = route.variables?.(request) ?? {};
      const problem = inputProblem(schema, document, variables);
      if (problem) throw new ServiceError("BAD_REQUEST", problem);
      const result = await execute({
        schema,
        document,
        variableValues: variables,
        contextValue: createContext(services, c.req.header("authorization") ?? null),
      });
      if (result.errors?.length) {
        const error = failure(result.errors, services);
        return c.json(error.toBody(), error.status as 400);
      }
      const [value] = Object.values(result.data ?? {});
      return c.json(route.respond ? route.respond(value, request) : value, route.status ?? 200);
    });
  }
}

/** 413 in the spec's shape. The rest of the body is never read, so the connection cannot carry another request. */
export function limitBody(maxSize: number) {
  return bodyLimit({
    maxSize,
    onError: (c) => {
      const error = new ServiceError("PAYLOAD_TOO_LARGE", `Request body exceeds ${maxSize} bytes`);
      return c.json(error.toBody(), 413, { Connection: "close" });
    },
  });
}

/** The methods a path answers to, for 405 versus 404. */
export function methodsFor(path: string): string[] {
  return routes
    .filter((route) => new RegExp(`^${route.path.replace(/:[^/]+/g, "[^/]+")}$`).test(path))
    .map((route) => route.method);
}
