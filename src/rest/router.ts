import { type GraphQLSchema, print } from "graphql";
import type { Hono, Context as HonoContext, Env as HonoEnv, MiddlewareHandler } from "hono";
import { bodyLimit } from "hono/body-limit";
import type { Config } from "../config.ts";
import { internalError, ServiceError } from "../errors.ts";
import { attachmentContent } from "../mailbox/attachments.ts";
import type { Services } from "../mailbox/services.ts";
import { type RequestFacts, requestFacts } from "../schema/context.ts";
import { answerOf, DEFAULT_BODY_LIMIT, type FileRef, type RestRequest, type Route } from "../schema/declare.ts";
import { respellerOf } from "../schema/enums.ts";
import { serviceErrorOf } from "../schema/errors.ts";
import { assertCleanInput } from "../schema/input.ts";
import { operations } from "../schema/operations.ts";
import { type Graphql, preparedOperation } from "../schema/pipeline.ts";
import { wireBody } from "../wire-names.ts";
import { answerFile } from "./download.ts";
import { assertValidVariables, type Part, partsOf, takesHeader, variablesFrom } from "./request.ts";

// Serves each declared operation's REST binding: runs its operation through
// the GraphQL pipeline (the same envelop plugins as /graphql) and answers in
// the spec's shape: the operation's result as the route words it, or the
// error body. Paths are matched by specificity, never by declaration order.

/**
 * Orders routes so that a static segment is tried before a parameter at the
 * same place (/emails/wait before /emails/:emailId): the first route Hono
 * finds for a path answers it.
 */
export function bySpecificity(a: Route, b: Route): number {
  const key = (route: Route) =>
    route.path
      .split("/")
      .map((segment) => (segment.startsWith(":") ? "1" : "0"))
      .join("");
  return key(a).localeCompare(key(b));
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
  | { status: 200; file: Awaited<ReturnType<typeof attachmentContent>> & Pick<FileRef, "label"> };

/** Runs a route for a request already read; what it refuses is thrown as a ServiceError. */
export type RunRoute = (route: Route, request: RestRequest, facts: RequestFacts) => Promise<RouteAnswer>;

/** What a route needs at each request, made once. */
interface Prepared {
  run: ReturnType<typeof preparedOperation>;
  parts: Part[];
  respell: ((data: unknown) => void) | null;
}

/**
 * The one way a route runs, for REST and for the MCP tools: each route made
 * ready by its first request, not at start (that every operation is valid
 * against the schema is a test's, src/schema/operations.test.ts).
 */
export function routeRunner(schema: GraphQLSchema, graphql: Graphql, services: Services): RunRoute {
  const prepared = new Map<Route, Prepared>();
  const prepare = (route: Route): Prepared => ({
    run: preparedOperation(graphql, print(route.operation)),
    parts: partsOf(route, schema),
    respell: respellerOf(schema, route.operation),
  });
  return async (route, request, facts) => {
    assertCleanRequest(request);
    let known = prepared.get(route);
    if (!known) {
      known = prepare(route);
      prepared.set(route, known);
    }
    const { run, parts, respell } = known;
    const variables = variablesFrom(parts, request);
    assertValidVariables(parts, variables);
    const result = await run(variables, facts);
    const [failure] = result.errors ?? [];
    if (failure) throw serviceErrorOf(failure) ?? internalError();
    const data = result.data ?? {};
    respell?.(data);
    if (route.file) {
      const file = route.file(data, request);
      if (!file) throw new ServiceError("NOT_FOUND", "Attachment not found");
      const agent = { id: file.agentId };
      const content = () => attachmentContent(services, agent, file.emailId, file.attachmentId);
      const loaded = await facts.answer.load(content, (part) => part.content.length);
      return { status: 200, file: { ...loaded, label: file.label } };
    }
    const status = route.acceptedWhen?.(data) ? 202 : (route.status ?? 200);
    return { status, body: answerOf(route, data, request) };
  };
}

export function mountRoutes<E extends HonoEnv>(app: Hono<E>, run: RunRoute, config: Config): void {
  const wire = wireBody(config);
  for (const route of [...operations].sort(bySpecificity)) {
    // Only a route that reads a body checks its size: looking at the body makes Node build a whole Request.
    if (route.body) app.on(route.method, route.path, limitBody(route.maxBodyBytes ?? DEFAULT_BODY_LIMIT));
    const readsHeaders = takesHeader(route);
    app.on(route.method, route.path, async (c) => {
      const body = route.body ? await readJsonObject(c) : {};
      // Headers gathered only for a route that takes one (Idempotency-Key): most never ask. Not a getter
      // closing over the request: V8 gives each object with an accessor of its own a hidden class of its
      // own, which minor collections keep, with the whole request it reaches, until a full one.
      const request = {
        params: c.req.param(),
        query: c.req.query(),
        body,
        headers: readsHeaders ? c.req.header() : {},
      };
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

/** Each route's path as a pattern, made at the first unmatched request. */
let patterns: { method: string; path: RegExp }[] | undefined;

/** The methods a path answers to, for 405 versus 404. */
export function methodsFor(path: string): string[] {
  patterns ??= operations.map((route) => ({
    method: route.method,
    path: new RegExp(`^${route.path.replace(/:[^/]+/g, "[^/]+")}$`),
  }));
  return patterns.filter((route) => route.path.test(path)).map((route) => route.method);
}
