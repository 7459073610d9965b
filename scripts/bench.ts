// Prints speed and memory figures for the running service; asserts nothing.
//   npm run bench                 SQLite in a temporary directory
//   DATABASE_URL=postgresql://…   the same against PostgreSQL
// Starts the real service in this process on a free port, with a local
// oEmbed stand-in for verification and a local SMTP sink for sending.

import { mkdtempSync, rmSync } from "node:fs";
import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { SMTPServer } from "smtp-server";
import { systemClock } from "../src/clock.ts";
import { loadConfig } from "../src/config.ts";
import { startService } from "../src/server/service.ts";

async function listen(server: { listen: (port: number, host: string, cb: () => void) => void }): Promise<void> {
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
}

async function fakeX(): Promise<{ url: string; close: () => void; text: { value: string } }> {
  const text = { value: "" };
  const server = createServer((_req, res) => {
    res.setHeader("content-type", "application/json");
    res.end(JSON.stringify({ author_url: "https://twitter.com/bencher", html: `<p>${text.value}</p>` }));
  });
  await listen(server);
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/oembed`,
    close: () => server.close(),
    text,
  };
}

async function smtpSink(): Promise<{ url: string; close: () => void }> {
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData: (stream, _session, callback) => {
      stream.resume();
      stream.on("end", () => callback(null, "queued as BENCH"));
    },
  });
  await listen(server);
  return { url: `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`, close: () => server.close() };
}

function percentile(sorted: number[], p: number): number {
  return sorted[Math.min(sorted.length - 1, Math.floor(sorted.length * p))] ?? 0;
}

/** `total` requests, `concurrency` at a time; prints throughput and latency. */
async function measure(label: string, total: number, concurrency: number, request: (i: number) => Promise<Response>) {
  const latencies: number[] = [];
  let next = 0;
  const started = performance.now();
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < total) {
        const i = next++;
        const t0 = performance.now();
        const response = await request(i);
        await response.arrayBuffer();
        if (response.status >= 400) throw new Error(`${label}: HTTP ${response.status}`);
        latencies.push(performance.now() - t0);
      }
    }),
  );
  const seconds = (performance.now() - started) / 1000;
  latencies.sort((a, b) => a - b);
  console.log(
    `${label.padEnd(34)} ${String(Math.round(total / seconds)).padStart(6)} req/s   p50 ${percentile(latencies, 0.5).toFixed(1)} ms   p99 ${percentile(latencies, 0.99).toFixed(1)} ms`,
  );
}

const dir = mkdtempSync(join(tmpdir(), "pigeonhole-bench-"));
const x = await fakeX();
const smtp = await smtpSink();
const config = loadConfig({
  PORT: "0",
  HOST: "127.0.0.1",
  DATABASE_URL: process.env.DATABASE_URL ?? `file:${join(dir, "bench.db")}`,
  SOCIAL_OEMBED_URL: x.url,
  SMTP_URL: smtp.url,
  DAILY_SEND_LIMIT: "1000000",
});
const quiet = () => {};
const service = await startService(config, systemClock, quiet);
const base = service.url;
const json = (body: unknown, key?: string) => ({
  method: "POST",
  headers: { "content-type": "application/json", ...(key ? { authorization: `Bearer ${key}` } : {}) },
  body: JSON.stringify(body),
});

const id = `bench-${Date.now()}`;
const created = await (await fetch(`${base}/agents`, json({ id, name: "Bench" }))).json();
const key = created.apiKey as string;
const start = await (
  await fetch(`${base}/verify/start`, { method: "POST", headers: { authorization: `Bearer ${key}` } })
).json();
x.text.value = start.tweetText;
await fetch(`${base}/verify/complete`, json({ tweetUrl: "https://x.com/bencher/status/1" }, key));
const auth = { headers: { authorization: `Bearer ${key}` } };

console.log(`database: ${config.databaseUrl.startsWith("file:") ? "sqlite" : "postgresql"}`);
await measure("POST /agents (register)", 300, 10, (i) =>
  fetch(`${base}/agents`, json({ id: `${id}-${i}`, name: "n" })),
);
await measure("GET /agents/{id} (1 at a time)", 500, 1, () => fetch(`${base}/agents/${id}`, auth));
await measure("GET /agents/{id} (16 at a time)", 2000, 16, () => fetch(`${base}/agents/${id}`, auth));
await measure("GET /verify/status (16 at a time)", 2000, 16, () => fetch(`${base}/verify/status`, auth));
await measure("GraphQL agent query (16 at a time)", 2000, 16, () =>
  fetch(`${base}/graphql`, json({ query: `{ agent(id: "${id}") { id email storageUsed } }` }, key)),
);
await measure("POST /send (8 at a time)", 300, 8, (i) =>
  fetch(`${base}/agents/${id}/send`, json({ to: "sink@example.com", subject: `b${i}`, text: "benchmark" }, key)),
);
await measure("GET /sent?limit=100 (8 at a time)", 500, 8, () => fetch(`${base}/agents/${id}/sent?limit=100`, auth));
const memory = process.memoryUsage();
console.log(
  `memory: rss ${(memory.rss / 2 ** 20).toFixed(0)} MiB, heap used ${(memory.heapUsed / 2 ** 20).toFixed(0)} MiB`,
);

await service.stop();
x.close();
smtp.close();
rmSync(dir, { recursive: true, force: true });
