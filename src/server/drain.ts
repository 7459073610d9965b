import type { IncomingMessage, Server, ServerResponse } from "node:http";
import { type AddressInfo, Server as NetServer, type Socket } from "node:net";
import { setTimeout as sleep } from "node:timers/promises";
import type { Context as HonoContext } from "hono";
import { ServiceError } from "../errors.ts";
import { acceptQueue } from "./accept-queue.ts";

// Stopping without dropping a request. Closing the listening socket resets
// every connection the kernel has accepted but Node has not yet taken (many,
// while a batch of mail keeps the event loop busy: accept-queue.ts counts
// them, and the listener is closed only once none waits), and closing idle
// connections resets a request sent on one at that moment. So a stopping
// service first drains: it goes on listening, answers what arrives with 503
// and `Connection: close` (and /readyz with 503, so a load balancer stops
// sending), lets the requests under way finish, and only when a while passes
// with none under way stops listening; new connections are refused from then.
// A connection is idle only when it has read nothing since its last answer: one
// holding part of a request (its headers still arriving) is left to finish it,
// and is answered with `Connection: close`, rather than ended under the client.
// A connection that has not sent its first request yet is not idle either: its
// client opened it to send one (on a busy client, the request may come well
// after the connection), so it is waited for, within the grace, and answered.

/** How often, and how many times in a row, no request must be under way before the next step. */
const CALM_CHECK_MS = 50;
const CALM_CHECKS = 2;

/** Paths a stopping service still answers: liveness, and readiness, which says it is draining. */
const STILL_ANSWERED = new Set(["/healthz", "/readyz"]);

export class Drain {
  #draining = false;
  #underWay = 0;
  /**
   * Each open connection: how many of its requests are under way, and how many
   * bytes it had read at its last answer (null before its first).
   */
  readonly #connections = new Map<Socket, { requests: number; answeredAt: number | null }>();
  /** When the last connection was taken (performance.now()). */
  #lastConnection = 0;

  get draining(): boolean {
    return this.#draining;
  }

  /** Follows the server's connections, to end the idle ones once it stops listening. */
  watch(server: Server): void {
    server.on("connection", (socket: Socket) => {
      this.#lastConnection = performance.now();
      this.#connections.set(socket, { requests: 0, answeredAt: null });
      socket.once("close", () => this.#connections.delete(socket));
    });
    server.on("request", (request: IncomingMessage, response: ServerResponse) => {
      const connection = this.#connections.get(request.socket);
      if (!connection) return;
      connection.requests++;
      response.once("close", () => {
        connection.requests--;
        if (connection.requests === 0) connection.answeredAt = request.socket.bytesRead;
      });
    });
  }

  /** Counts requests under way; once draining, answers new ones 503 and closes each connection after its answer. */
  async during(c: HonoContext, answer: () => Promise<void>): Promise<void> {
    if (this.#draining && !STILL_ANSWERED.has(c.req.path)) {
      const error = new ServiceError("SERVICE_UNAVAILABLE", "The service is stopping: send the request again");
      c.res = c.json(error.toBody(), 503, { Connection: "close", "Retry-After": "1" });
      return;
    }
    this.#underWay++;
    try {
      await answer();
    } finally {
      this.#underWay--;
    }
    if (this.#draining) c.res.headers.set("Connection", "close");
  }

  /**
   * Drains the server: answers (503) what the kernel has accepted, lets the
   * requests under way finish, then stops listening and ends the connections
   * left idle. Resolves when every connection is closed; whatever is still
   * open when the signal aborts is cut.
   */
  async close(server: Server, signal: AbortSignal): Promise<void> {
    this.#draining = true;
    const cut = () => server.closeAllConnections();
    signal.addEventListener("abort", cut, { once: true });
    const { port } = server.address() as AddressInfo;
    await this.#calm(signal, () => acceptQueue(port));
    // http.Server's own close() would also destroy the connections it counts
    // idle, among them ones accepted a moment ago whose request has not been
    // read yet, and ones whose last answer is still being written out.
    const closed = new Promise<void>((resolve) => NetServer.prototype.close.call(server, () => resolve()));
    await this.#calm(signal, async () => 0);
    // Those with a request under way, or part of one read, or none sent yet, close after its answer
    // (Connection: close); the idle ones end now, once what was written to them has gone out.
    for (const [socket, { requests, answeredAt }] of this.#connections) {
      if (requests === 0 && socket.bytesRead === answeredAt) socket.end();
    }
    await closed;
    signal.removeEventListener("abort", cut);
  }

  /**
   * Resolves once, for a few checks in a row, no request has been under way,
   * no connection came and none waits to be taken (`waiting`: the kernel's
   * accept queue, where a busy loop leaves them); or when the signal aborts.
   * Each check runs just after the event loop's poll (setImmediate follows it).
   */
  async #calm(signal: AbortSignal, waiting: () => Promise<number | null>): Promise<void> {
    let calm = 0;
    while (calm < CALM_CHECKS && !signal.aborted) {
      await sleep(CALM_CHECK_MS);
      await new Promise((resolve) => setImmediate(resolve));
      const quiet =
        this.#underWay === 0 &&
        performance.now() - this.#lastConnection >= CALM_CHECK_MS &&
        ((await waiting()) ?? 0) === 0;
      calm = quiet ? calm + 1 : 0;
    }
  }
}
