import { type ChildProcess, execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { pathToFileURL } from "node:url";
import { promisify } from "node:util";
import { startCommand } from "../../test/support/process.ts";
import type { Seeded } from "./seed.ts";

// The processes a benchmark run starts: the service exactly as `npm start`
// runs it, the floor server, and autocannon, each a process of its own.

export interface Started {
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawn until the first answer that said it was ready. */
  readyMs: number;
  /** The SMTP door's port, when it has one. */
  smtpPort?: number;
  stop(): Promise<void>;
}

async function waitForLine(child: ChildProcess, match: (line: string) => unknown): Promise<unknown> {
  let output = "";
  return new Promise((resolve, reject) => {
    let found = false;
    // Read to the end, so that the process never blocks on a full pipe; kept only until the line is found.
    const read = (chunk: Buffer) => {
      if (found) return;
      output += chunk;
      for (const line of output.split("\n")) {
        const value = line.startsWith("{") ? match(line) : undefined;
        if (value === undefined) continue;
        found = true;
        return resolve(value);
      }
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", (chunk) => {
      output = (output + chunk).slice(-4000);
    });
    child.once("exit", (code) => reject(new Error(`exited with ${code}: ${output.slice(-2000)}`)));
  });
}

function stopper(child: ChildProcess) {
  return async () => {
    if (child.exitCode !== null) return;
    const exited = new Promise((resolve) => child.once("exit", resolve));
    child.kill("SIGTERM");
    await exited;
  };
}

/** The service as `npm start` runs it; `checkout`: another build's directory (--compare). */
export async function startService(env: Record<string, string>, checkout?: string): Promise<Started> {
  const { command, args } = startCommand(checkout);
  const started = performance.now();
  const child = spawn(command, args, {
    // A load generator of a few keys and one address is just what the request limits stop: off here.
    env: {
      PATH: process.env.PATH ?? "",
      HOST: "127.0.0.1",
      PORT: "0",
      RATE_LIMIT_REQUESTS_PER_SECOND: "0",
      RATE_LIMIT_REGISTRATIONS_PER_HOUR: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let smtpPort: number | undefined;
  // The door is open before the service logs that it listens.
  const port = (await waitForLine(child, (line) => {
    const entry = JSON.parse(line) as { event?: string; port?: number };
    if (entry.event === "smtp_ingress_listening") smtpPort = entry.port;
    return entry.event === "listening" ? entry.port : undefined;
  })) as number;
  const url = `http://127.0.0.1:${port}`;
  for (;;) {
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
  }
  return { child, url, readyMs: performance.now() - started, smtpPort, stop: stopper(child) };
}

/**
 * A database seeded by a checkout's own seed, in a process of its own: another
 * build (--compare) is measured over its own migrations and columns.
 */
export async function seedIn(checkout: string, url: string, options: Record<string, unknown>): Promise<Seeded> {
  const module = JSON.stringify(pathToFileURL(resolve(checkout, "scripts/bench/seed.ts")).href);
  const code = `const { seed } = await import(${module});
    const seeded = await seed(${JSON.stringify(url)}, ${JSON.stringify(options)});
    console.log("SEEDED " + JSON.stringify(seeded)); process.exit(0);`;
  const { stdout } = await promisify(execFile)(
    process.execPath,
    ["--import", "tsx", "--input-type=module", "-e", code],
    {
      cwd: checkout,
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return JSON.parse(stdout.slice(stdout.lastIndexOf("SEEDED ") + "SEEDED ".length)) as Seeded;
}

/** A floor server from scripts/bench/, by file name. */
export async function startFloor(script: string, args: string[] = []): Promise<Started> {
  const started = performance.now();
  const child = spawn(process.execPath, ["--import", "tsx", `scripts/bench/${script}`, ...args], {
    stdio: ["ignore", "pipe", "pipe"],
  });
  const port = (await waitForLine(child, (line) => (JSON.parse(line) as { port?: number }).port)) as number;
  return { child, url: `http://127.0.0.1:${port}`, readyMs: performance.now() - started, stop: stopper(child) };
}

/** Microseconds of CPU a process has used, user and system, from /proc (in clock ticks of 10 ms). */
export function cpuMicros(pid: number | undefined): number {
  const fields = (readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1] ?? "").split(" ");
  return (Number(fields[11]) + Number(fields[12])) * 10_000;
}

/** Resident memory of a process, from /proc. */
export function rssMiB(pid: number | undefined): number {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  return Number(/VmRSS:\s+(\d+) kB/.exec(status)?.[1] ?? 0) / 1024;
}

export interface Load {
  method: "GET" | "POST" | "PATCH";
  path: string;
  headers: Record<string, string>;
  body?: string;
}

export interface LoadResult {
  requests: number;
  requestsPerSecond: number;
  p50: number;
  p99: number;
  errors: number;
}

/** autocannon in its own process, at the given concurrency, for the given seconds. */
export async function runLoad(url: string, load: Load, connections: number, seconds: number): Promise<LoadResult> {
  const args = ["node_modules/autocannon/autocannon.js", "--json", "-c", String(connections), "-d", String(seconds)];
  args.push("-m", load.method);
  for (const [name, value] of Object.entries(load.headers)) args.push("-H", `${name}=${value}`);
  if (load.body !== undefined) args.push("-b", load.body);
  args.push(url + load.path);
  const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 });
  const report = JSON.parse(stdout) as {
    requests: { average: number; total: number };
    latency: { p50: number; p99: number };
    errors: number;
    non2xx: number;
  };
  return {
    requests: report.requests.total,
    requestsPerSecond: report.requests.average,
    p50: report.latency.p50,
    p99: report.latency.p99,
    errors: report.errors + report.non2xx,
  };
}

/** Jiffies this machine's cores have spent, in all and idle, from /proc/stat. */
function cpuTimes(): { all: number; idle: number } {
  const fields = (readFileSync("/proc/stat", "utf8").split("\n")[0] ?? "").trim().split(/\s+/).slice(1).map(Number);
  return { all: fields.reduce((sum, n) => sum + n, 0), idle: (fields[3] ?? 0) + (fields[4] ?? 0) };
}

export interface SendResult {
  /** Messages answered 250. */
  messages: number;
  messagesPerSecond: number;
  errors: number;
  /** How busy the machine's cores were meanwhile, 0 to 1: everything here shares them. */
  busy: number;
  /** DATA's end to the 250, for the probe's messages meanwhile. */
  dataEndTo250: number[];
}

/** The SMTP load (smtp-senders.ts) in its own process: `clients` nodemailer clients over the ports, for the given seconds. */
export async function runSends(ports: number[], to: string[], clients: number, seconds: number): Promise<SendResult> {
  const args = ["--import", "tsx", "scripts/bench/smtp-senders.ts", String(seconds), String(clients)];
  args.push(ports.join(","), to.join(","));
  const before = cpuTimes();
  const { stdout } = await promisify(execFile)(process.execPath, args, { maxBuffer: 64 * 1024 * 1024 });
  const after = cpuTimes();
  const report = JSON.parse(stdout) as { messages: number; errors: number; ms: number; dataEndTo250: number[] };
  return {
    messages: report.messages,
    messagesPerSecond: (report.messages / report.ms) * 1000,
    errors: report.errors,
    busy: 1 - (after.idle - before.idle) / (after.all - before.all),
    dataEndTo250: report.dataEndTo250,
  };
}
