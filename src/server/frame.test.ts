import { Hono } from "hono";
import { afterEach, expect, test, vi } from "vitest";
import { asServiceError } from "../errors.ts";
import type { Logger } from "../log.ts";
import { REQUEST_TIMEOUT_MS } from "../mailbox/lifetimes.ts";
import type { Services } from "../mailbox/services.ts";
import { Drain } from "./drain.ts";
import type { Env } from "./env.ts";
import { type AnswerError, frameRequests } from "./frame.ts";

afterEach(() => {
  vi.useRealTimers();
});

/** An app framed as the service frames it, with a route that never answers; what it logs. */
function framedApp() {
  const lines: { event: string; fields?: Record<string, unknown> }[] = [];
  const log: Logger = (_level, event, fields) => lines.push({ event, fields });
  const services = { log, metrics: { request: () => {} }, config: { trustProxy: false } } as unknown as Services;
  const answerError: AnswerError = (error, c) => {
    const known = asServiceError(error, () => {});
    return c.json(known.toBody(), known.status as 503);
  };
  const app = new Hono<Env>();
  app.use(frameRequests(services, new Drain(), answerError));
  app.get("/never", () => new Promise<Response>(() => {}));
  app.get("/now", (c) => c.json({ ok: true }));
  const env = {
    incoming: { socket: { remoteAddress: "127.0.0.1", remotePort: 1, remoteFamily: "IPv4" } },
    outgoing: { setHeader: () => {} },
  };
  const request = (path: string) => app.request(path, {}, env);
  return { request, lines };
}

test("a request past its time is answered 503 and logged so; one in time is not", async () => {
  vi.useFakeTimers();
  const { request, lines } = framedApp();
  const late = request("/never");
  await vi.advanceTimersByTimeAsync(REQUEST_TIMEOUT_MS - 1);
  const early = await request("/now");
  expect(early.status).toBe(200);
  await vi.advanceTimersByTimeAsync(1);
  const answer = await late;
  expect(answer.status).toBe(503);
  expect(await answer.json()).toEqual({
    error: "Service Unavailable",
    message: "The request took too long",
    statusCode: 503,
  });
  expect(lines.map(({ fields }) => [fields?.route, fields?.status])).toEqual([
    ["/now", 200],
    ["/never", 503],
  ]);
});
