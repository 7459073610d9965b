// The floor for the stream scenarios: a bare node:http server that holds
// Server-Sent Events streams open and writes one event to every one of them
// when told to, framed as the service frames a subscription's result. Run as
// its own process: node --import tsx scripts/bench/sse-floor.ts
import { createServer, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";

const streams = new Set<ServerResponse>();
let fired = 0;

const server = createServer((req, res) => {
  if (req.url === "/fire") {
    const frame = `event: next\ndata: ${JSON.stringify({ data: { mailEvents: { id: String(++fired) } } })}\n\n`;
    for (const stream of streams) stream.write(frame);
    res.writeHead(204).end();
    return;
  }
  req.resume();
  res.writeHead(200, { "content-type": "text/event-stream", "cache-control": "no-cache", connection: "keep-alive" });
  res.write(":\n\n");
  streams.add(res);
  res.on("close", () => streams.delete(res));
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: (server.address() as AddressInfo).port })}\n`);
});
