import { Hono } from "hono";
import { HTTPException } from "hono/http-exception";
import { timeout } from "hono/timeout";
import { internalError, ServiceError } from "../errors.ts";
import { limitBody, methodsFor, mountRoutes } from "../rest/router.ts";
import { SEND_BODY_LIMIT } from "../rest/routes.ts";
import type { Services } from "../schema/context.ts";
import { schema } from "../schema/index.ts";
import { createGraphqlHandler } from "./graphql.ts";

const REQUEST_TIMEOUT_MS = 30_000;
/** Paths served here rather than by the route table, with their methods. */
const OWN_PATHS: Record<string, string[]> = { "/graphql": ["GET", "POST"], "/healthz": ["GET"] };

/** The HTTP surface: REST on the spec's paths, GraphQL, and a health check. */
export function createApp(services: Services): Hono {
  const app = new Hono();
  const graphql = createGraphqlHandler(schema, services);

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
  app.on(["GET", "POST"], "/graphql", limitBody(SEND_BODY_LIMIT), (c) => graphql.fetch(c.req.raw));
  mountRoutes(app, schema, services);

  app.notFound((c) => {
    const allowed = OWN_PATHS[c.req.path] ?? methodsFor(c.req.path);
    const error =
      allowed.length > 0
        ? new ServiceError("METHOD_NOT_ALLOWED", `${c.req.method} is not allowed here; use ${allowed.join(", ")}`)
        : new ServiceError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`);
    return c.json(error.toBody(), error.status as 404, allowed.length > 0 ? { Allow: allowed.join(", ") } : {});
  });
  app.onError((err, c) => {
    const error = toServiceError(err, services);
    return c.json(error.toBody(), error.status as 500);
  });
  return app;
}

function toServiceError(err: Error, services: Services): ServiceError {
  if (err instanceof ServiceError) return err;
  if (err instanceof HTTPException && err.status === 503) return new ServiceError("SERVICE_UNAVAILABLE", err.message);
  services.log("error", "request_failed", { error: String(err) });
  return internalError();
}
