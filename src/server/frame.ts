import { randomUUID } from "node:crypto";
import { getConnInfo } from "@hono/node-server/conninfo";
import type { Context as HonoContext, MiddlewareHandler } from "hono";
import { routePath } from "hono/route";
import { ServiceError } from "../errors.ts";
import { requestScope } from "../log.ts";
import { REQUEST_TIMEOUT_MS } from "../mailbox/lifetimes.ts";
import type { Services } from "../mailbox/services.ts";
import { compressed } from "./compress.ts";
import type { Drain } from "./drain.ts";
import type { Env } from "./env.ts";

// What every request goes through before and after its route, in one
// middleware: its id and its line in the log, the drain's count, gzip, and
// the time limit. Each is a function called in turn (the drain's and gzip's in
// their own modules), not a middleware of its own: every layer of Hono's chain
// is a few more promises per request, each of which the request scope's async
// hook visits.

/** How an error becomes an answer: the app's onError, also for a request past its time. */
export type AnswerError = (error: Error, c: HonoContext<Env>) => Response;

/** An X-Request-Id a client may choose: short, and nothing a log line could be fooled by. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Each request: its id (the client's X-Request-Id, else a new one) echoed
 * back, set around everything that logs for it, and one line and one
 * metric at the end, by route template, never by the path itself.
 */
export function frameRequests({ log, metrics, config }: Services, drain: Drain, answerError: AnswerError) {
  const handler: MiddlewareHandler<Env> = async (c, next) => {
    const started = performance.now();
    const given = c.req.header("x-request-id");
    const requestId = given && REQUEST_ID.test(given) ? given : randomUUID();
    const scope = { requestId, agentId: null, clientIp: clientIpOf(c, config.trustProxy), statements: 0 };
    // On Node's response, which every answer's head joins: touching the answer's own headers would
    // make the adapter build them as a Headers object, and c.header() copy a finished answer.
    c.env.outgoing.setHeader("X-Request-Id", requestId);
    await requestScope.run(scope, () => drain.during(c, () => compressed(c, () => answerWithin(c, next, answerError))));
    const matched = routePath(c, -1);
    const labels = {
      method: c.req.method,
      route: matched === "/*" || matched === "*" ? "unmatched" : matched,
      status: c.res.status,
    };
    const seconds = (performance.now() - started) / 1000;
    metrics.request(labels, seconds);
    log("info", "request", {
      requestId,
      ...labels,
      durationMs: Math.round(seconds * 1e4) / 10,
      agentId: scope.agentId,
      statements: scope.statements,
    });
  };
  return handler;
}

/**
 * The rest of the chain's answer, or 503 once REQUEST_TIMEOUT_MS have passed
 * without one; the route then goes on, and its answer is never sent.
 */
function answerWithin(c: HonoContext<Env>, next: () => Promise<void>, answerError: AnswerError): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      c.res = answerError(new ServiceError("SERVICE_UNAVAILABLE", "The request took too long"), c);
      resolve();
    }, REQUEST_TIMEOUT_MS);
    next().then(
      () => {
        clearTimeout(timer);
        resolve();
      },
      (error: unknown) => {
        clearTimeout(timer);
        reject(error);
      },
    );
  });
}

/** The client's address: the socket's, or behind a proxy you run (TRUST_PROXY) the first X-Forwarded-For names. */
function clientIpOf(c: HonoContext, trustProxy: boolean): string {
  const forwarded = trustProxy ? c.req.header("x-forwarded-for")?.split(",")[0]?.trim() : undefined;
  return forwarded || (getConnInfo(c).remote.address ?? "unknown");
}
