import { Hono } from "hono";
import { cors } from "hono/cors";
import type { Config } from "../config.ts";
import { providerOf } from "../db/client.ts";
import { pingDatabase } from "../db/health.ts";
import { pendingMigrations } from "../db/migrate.ts";
import { asServiceError, ServiceError } from "../errors.ts";
import type { DirectIntake } from "../inbound/direct.ts";
import { requestFault } from "../log.ts";
import { sameSecret } from "../mailbox/keys.ts";
import { openReviewAttachment } from "../mailbox/review.ts";
import { answerFile } from "../rest/download.ts";
import { openApiDocument } from "../rest/openapi.ts";
import { limitBody, methodsFor, mountRoutes, routeRunner } from "../rest/router.ts";
import { holderOf, keyOf, requestFacts } from "../schema/context.ts";
import { SEND_BODY_LIMIT } from "../schema/declare.ts";
import { schema } from "../schema/index.ts";
import { type Graphql, yogaAnswer } from "../schema/pipeline.ts";
import type { Instance } from "../services.ts";
import { wireBody } from "../wire-names.ts";
import { docsPage, redocBundle } from "./docs.ts";
import type { Drain } from "./drain.ts";
import type { Env } from "./env.ts";
import { type AnswerError, frameRequests } from "./frame.ts";
import { graphiqlAssets, graphiqlPage } from "./graphiql.ts";
import { answerPlainJson, plainJsonAnswer } from "./graphql-json.ts";
import { receiveRaw } from "./inbound-raw.ts";
import { reviewPage } from "./review-page.ts";
import { llmsTxt, skillJson, skillMarkdown } from "./skill.ts";
import { verifyPage } from "./verify-page.ts";

/** Paths served here rather than by a declared operation, with their methods. */
const OWN_PATHS: Record<string, string[]> = {
  "/graphql": ["GET", "POST"],
  "/healthz": ["GET"],
  "/readyz": ["GET"],
  "/metrics": ["GET"],
  "/openapi.json": ["GET"],
  "/skill.md": ["GET"],
  "/skill.json": ["GET"],
  "/llms.txt": ["GET"],
  "/mcp": ["POST"],
  "/docs": ["GET"],
};

/** The HTTP surface: REST on the spec's paths, GraphQL, and a health check. */
export function createApp(services: Instance, graphql: Graphql, drain: Drain, intake: DirectIntake): Hono<Env> {
  const app = new Hono<Env>();

  const wire = wireBody(services.config);
  const answerError: AnswerError = (err, c) => {
    const error = asServiceError(err, requestFault(services.log));
    return c.json(wire(error.toBody()), error.status as 500, error.headers);
  };
  app.use(frameRequests(services, drain, answerError));
  const { corsOrigins } = services.config;
  if (corsOrigins.length > 0) app.use(cors(corsPolicy(corsOrigins)));

  app.get("/metrics", async (c) => {
    const { metricsToken } = services.config;
    const key = keyOf(c.req.header("authorization") ?? null);
    if (metricsToken !== null && !(key && sameSecret(key, metricsToken))) {
      throw new ServiceError("UNAUTHORIZED", "/metrics asks for Authorization: Bearer <METRICS_TOKEN>");
    }
    const { registry } = services.metrics;
    return c.body(await registry.metrics(), 200, { "Content-Type": registry.contentType });
  });
  app.post("/inbound/raw", (c) => receiveRaw(c, services, intake));
  app.get("/readyz", async (c) => {
    const readiness = await readinessOf(services, drain);
    return c.json(readiness, readiness.ready ? 200 : 503);
  });
  app.get("/healthz", async (c) => {
    try {
      await pingDatabase(services);
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
    return yogaAnswer(graphql, c.req.raw);
  });
  const run = routeRunner(schema, graphql, services);
  mountRoutes(app, run, services.config);
  app.post("/mcp", limitBody(SEND_BODY_LIMIT), async (c) => {
    const facts = requestFacts(c.req.header("authorization") ?? null, () => c.req.raw.signal);
    const holder = await holderOf(services, facts.key);
    // The MCP SDK is loaded with the first call to it: an instance without MCP clients keeps none of it.
    const { answerMcp } = await import("../mcp/server.ts");
    return answerMcp(c.req.raw, holder, { services, run, facts });
  });
  serveDescriptions(app, services.config);
  // After the routes: /verify/status, /start and /complete are theirs (a GET there
  // is 405 like any wrong method); any other /verify/<token> is a person's page.
  app.get("/verify/:claimToken", async (c, next) => {
    if (methodsFor(c.req.path).length > 0) return next();
    const page = await verifyPage(services, c.req.param("claimToken"));
    return c.body(page.html, page.status, page.headers);
  });
  app.get("/review/:reviewToken", async (c) => {
    const page = await reviewPage(services, c.req.param("reviewToken"));
    return c.body(page.html, page.status, page.headers);
  });
  // An attachment of a held message, opened from its review page: bytes to save, never a page of ours.
  app.get("/review/:reviewToken/attachments/:index{[0-9]{1,4}}", async (c) => {
    const { record, content } = await openReviewAttachment(
      services,
      c.req.param("reviewToken"),
      Number(c.req.param("index")),
    );
    return answerFile(c, record, content);
  });

  app.notFound((c) => {
    const allowed = OWN_PATHS[c.req.path] ?? methodsFor(c.req.path);
    const error =
      allowed.length > 0
        ? new ServiceError("METHOD_NOT_ALLOWED", `${c.req.method} is not allowed here; use ${allowed.join(", ")}`)
        : new ServiceError("NOT_FOUND", `No route for ${c.req.method} ${c.req.path}`);
    return c.json(error.toBody(), error.status as 404, allowed.length > 0 ? { Allow: allowed.join(", ") } : {});
  });
  app.onError(answerError);
  return app;
}

/**
 * What describes this instance to developers and agents, written once, when
 * the first of them is asked for: an instance nobody reads them from holds
 * none of them (/openapi.json alone is some 340 KB).
 */
function serveDescriptions(app: Hono<Env>, config: Config): void {
  const files: [string, string, (openApi: Record<string, unknown>) => string][] = [
    ["/openapi.json", "application/json", (openApi) => JSON.stringify(openApi)],
    ["/skill.md", "text/markdown; charset=utf-8", (openApi) => skillMarkdown(config, openApi)],
    ["/skill.json", "application/json", (openApi) => skillJson(config, openApi)],
    ["/llms.txt", "text/plain; charset=utf-8", () => llmsTxt(config)],
  ];
  let texts: Map<string, string> | undefined;
  const write = () => {
    const openApi = openApiDocument(schema, config);
    return new Map(files.map(([path, , text]) => [path, text(openApi)]));
  };
  for (const [path, type] of files) {
    app.get(path, (c) => {
      texts ??= write();
      return c.body(texts.get(path) ?? "", 200, { "Content-Type": type });
    });
  }
  app.get("/docs", async (c) => {
    const page = await docsPage();
    return c.body(page.html, 200, page.headers);
  });
  app.get("/assets/:name", async (c) => {
    const assets = [await redocBundle(), ...(await graphiqlAssets())];
    const asset = assets.find((candidate) => candidate.path === c.req.path);
    if (!asset) throw new ServiceError("NOT_FOUND", `No asset ${c.req.path}`);
    const { body, headers } = await asset.answer(c.req.header("accept-encoding"));
    return c.body(new Uint8Array(body), 200, headers);
  });
}

/**
 * Which browser pages may call the API: bearer keys, never cookies, so no
 * credentials mode; `*` is allowed as it is. Preflights of every path are
 * answered here, before any route.
 */
function corsPolicy(origins: string[]) {
  return {
    origin: origins[0] === "*" ? "*" : origins,
    allowMethods: ["GET", "POST", "PUT", "PATCH", "DELETE"],
    allowHeaders: ["Authorization", "Content-Type", "Idempotency-Key", "Last-Event-ID", "Mcp-Protocol-Version"],
    exposeHeaders: ["Content-Disposition", "ETag", "Retry-After"],
    maxAge: 600,
  };
}

/**
 * Ready to serve: not stopping, and the database answers and has every
 * migration. The mail side is reported but never makes it unready: an IMAP
 * or SMTP outage is no reason to take the API out of a load balancer.
 */
async function readinessOf(services: Instance, drain: Drain) {
  const { prisma, config, inbound, outbound } = services;
  const provider = providerOf(config.databaseUrl);
  const pending = await pingDatabase(services)
    .then(() => pendingMigrations({ prisma, provider }))
    .catch(() => null);
  const ms = (date: Date | null) => date?.getTime() ?? null;
  return {
    ready: !drain.draining && pending !== null && pending.length === 0,
    draining: drain.draining,
    database: { reachable: pending !== null, pendingMigrations: pending?.length ?? null },
    imap: inbound && { ...inbound, lastPollAt: ms(inbound.lastPollAt) },
    smtp: outbound && { ...outbound, lastSuccessAt: ms(outbound.lastSuccessAt), lastErrorAt: ms(outbound.lastErrorAt) },
  };
}
