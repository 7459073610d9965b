import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { timeout } from "hono/timeout";
import { asServiceError, ServiceError } from "../errors.ts";
import { requestFault } from "../log.ts";
import type { Services } from "../mailbox/services.ts";
import { limitBody, methodsFor, mountRoutes } from "../rest/router.ts";
import { SEND_BODY_LIMIT } from "../rest/routes.ts";
import { schema } from "../schema/index.ts";
import { graphiqlPage } from "./graphiql.ts";
import type { Graphql } from "./graphql.ts";
import { answerPlainJson, plainJsonAnswer } from "./graphql-json.ts";

const REQUEST_TIMEOUT_MS = 30_000;
/** What /graphql can answer with. */
const GRAPHQL_ANSWERS = "application/json, application/graphql-response+json, text/event-stream, multipart/mixed";
/** Paths served here rather than by the route table, with their methods. */
const OWN_PATHS: Record<string, string[]> = { "/graphql": ["GET", "POST"], "/healthz": ["GET"] };

/** The HTTP surface: REST on the spec's paths, GraphQL, and a health check. */
export function createApp(services: Services, graphql: Graphql): Hono {
  const app = new Hono();

  app.use(timeout(REQUEST_TIMEOUT_MS, () => new HTTPException(503, { message: "The request took too long" })));

  app.get("/healthz", async (c) => {
    try {
      await services.prisma.$queryRawUnsafe("SELECT 1");
      return c.json({ status: "ok", database: "reachable" });
    } catch {
      const error = new ServiceError("SERVICE_UNAVAILABLE", "Database unreachable");
      return c.json(error.toBody(), 503);
    }
  });
  // GraphQL carries sendEmail too, so it takes the send route's limit.
  app.on(["GET", "POST"], "/graphql", limitBody(SEND_BODY_LIMIT), async (c) => {
    if (
      services.config.graphqlIntrospection &&
      c.req.method === "GET" &&
      c.req.header("accept")?.includes("text/html")
    ) {
      const page = await graphiqlPage();
      return c.body(page.html, 200, page.headers);
    }
    const plain = plainJsonAnswer(c);
    if (plain) return answerPlainJson(c, graphql, plain);
    const response = await graphql.fetch(c.req.raw);
    // Yoga refuses these with an empty body; the client hears why, as REST would tell it.
    if (response.status === 415) {
      throw new ServiceError(
        "UNSUPPORTED_MEDIA_TYPE",
        "Send the query as application/json (or application/graphql+json)",
      );
    }
    if (response.status === 406) {
      throw new ServiceError("NOT_ACCEPTABLE", `Accept one of: ${GRAPHQL_ANSWERS}`);
    }
    return response;
  });
  mountRoutes(app, schema, graphql, services);

  app.notFound((c) => {
    const allowed = OWN_PATHS[c.req.path] ?? methodsFor(c.req.path);
    const error =
      allowed.length > 0
        ? new ServiceError("METHOD_NOT_ALLOWED", `${c.req.method} is not allowed here; use ${allowed.join(", ")}`)
        : new ServiceError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`);
    return c.json(error.toBody(), error.status as 404, allowed.length > 0 ? { Allow: allowed.join(", ") } : {});
  });
  app.onError((err, c) => {
    const error = httpErrorOf(err, services);
    return c.json(error.toBody(), error.status as 500);
  });
  return app;
}

function httpErrorOf(err: Error, services: Services): ServiceError {
  if (err instanceof HTTPException && err.status === 503) return new ServiceError("SERVICE_UNAVAILABLE", err.message);
  return asServiceError(err, requestFault(services.log));
}
