import type { Server, ServerResponse } from "node:http";
import type { Duplex } from "node:stream";
import { RequestError } from "@hono/node-server";
import { internalError, ServiceError } from "../errors.ts";

// Requests refused before any route sees them: by Node's HTTP server, headers
// (the URL among them) over Node's 16 KiB, a request whose headers never all
// arrive, a malformed request line or header; by the HTTP adapter, a request
// it cannot make a URL of (`OPTIONS *`, a bad Host). Their own answers have no
// body; these have the spec's JSON error, as from every route.

/** The parser's error code, and what the client is told. */
function refusalFor(code: string | undefined): ServiceError {
  if (code === "HPE_HEADER_OVERFLOW") {
    return new ServiceError("REQUEST_HEADER_FIELDS_TOO_LARGE", "The request's URL and headers exceed 16 KiB");
  }
  if (code === "ERR_HTTP_REQUEST_TIMEOUT") {
    return new ServiceError("REQUEST_TIMEOUT", "The request did not arrive in time");
  }
  return new ServiceError("BAD_REQUEST", "The request is not well-formed HTTP/1.1");
}

/**
 * Whether a response on this connection has begun: another answer written now
 * would corrupt it. Node's own handler asks the same of the socket's message.
 */
function answering(socket: Duplex): boolean {
  return (socket as Duplex & { _httpMessage?: ServerResponse })._httpMessage?.headersSent === true;
}

export function answerClientErrorsWithJson(server: Server): void {
  server.on("clientError", (error: NodeJS.ErrnoException, socket: Duplex) => {
    if (error.code === "ECONNRESET" || !socket.writable || answering(socket)) return socket.destroy();
    const refusal = refusalFor(error.code).toBody();
    const body = JSON.stringify(refusal);
    socket.end(
      `HTTP/1.1 ${refusal.statusCode} ${refusal.error}\r\n` +
        "Content-Type: application/json; charset=utf-8\r\n" +
        `Content-Length: ${Buffer.byteLength(body)}\r\n` +
        "Connection: close\r\n\r\n" +
        body,
    );
  });
}

/** The adapter's refusal of a request it could not turn into a web Request, in the spec's shape. */
export function answerUnreadableRequest(error: unknown): Response {
  const refusal =
    error instanceof RequestError
      ? new ServiceError("BAD_REQUEST", `The request's target or Host cannot be read: ${error.message}`)
      : internalError();
  return Response.json(refusal.toBody(), { status: refusal.status, headers: { Connection: "close" } });
}
