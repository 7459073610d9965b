import { connect, type Socket } from "node:net";
import { afterAll, expect, test } from "vitest";
import { spawnService } from "./support/process.ts";
import { freshDatabase } from "./support/service.ts";

// Stopping with a request half received, or not sent yet: the service, sent
// SIGTERM, goes on reading a request whose headers were still arriving as it
// drained, or that a connection opened before sends only now, and answers it
// whole (503, Connection: close) instead of ending the connection under the
// client.

const database = freshDatabase();
afterAll(() => database.drop());

/** A raw connection to the service, with everything it was sent back and how it ended. */
function rawConnection(url: string) {
  const { port } = new URL(url);
  const socket: Socket = connect(Number(port), "127.0.0.1");
  let received = "";
  socket.on("data", (chunk: Buffer) => (received += chunk));
  const ended = new Promise<string>((done, fail) => {
    socket.once("error", fail);
    socket.once("end", () => done(received));
  });
  return { socket, received: () => received, ended };
}

async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise((resolve) => setTimeout(resolve, 20));
}

/** The answer's status line and headers, and its body read as JSON: 503, Connection: close, draining. */
function expectDrainingAnswer(answer: string): void {
  const [head = "", body = ""] = answer.split("\r\n\r\n");
  expect(head).toMatch(/^HTTP\/1\.1 503 /);
  expect(head.toLowerCase()).toContain("connection: close");
  expect(JSON.parse(body)).toMatchObject({ ready: false, draining: true });
}

test("SIGTERM while a request's headers are half received, or before a new connection's first request: each is answered whole, 503 with Connection: close", async () => {
  const service = await spawnService({ DATABASE_URL: database.url });
  // Opened first, so taken by the service with the others; its client (a busy one) sends only after the drain began.
  const fresh = rawConnection(service.url);
  const half = rawConnection(service.url);
  half.socket.write("GET /readyz HTTP/1.1\r\n");
  // A connection idle after its answer: the service ends those as its drain ends.
  const idle = rawConnection(service.url);
  idle.socket.write("GET /healthz HTTP/1.1\r\nHost: pigeonhole\r\n\r\n");
  await until(() => idle.received().includes("\r\n\r\n"));

  service.terminate();
  await idle.ended;
  half.socket.write("Host: pigeonhole\r\n\r\n");
  fresh.socket.write("GET /readyz HTTP/1.1\r\nHost: pigeonhole\r\n\r\n");

  expectDrainingAnswer(await half.ended);
  expectDrainingAnswer(await fresh.ended);
  expect(await service.exited).toBe(0);
});
