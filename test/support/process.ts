import { type ChildProcess, spawn } from "node:child_process";
import { randomInt } from "node:crypto";
import { readFileSync, rmSync } from "node:fs";
import { createServer } from "node:net";
import { resolve } from "node:path";
import { emptyZone } from "./dns-server.ts";

// The service as its own process, for what an in-process instance cannot
// show: being killed outright.

export interface ServiceProcess {
  url: string;
  output: () => string;
  kill(): Promise<void>;
  /** SIGTERM: asks it to stop; `exited` tells how it ended. */
  terminate(): void;
  /** Its exit code once it has exited. */
  exited: Promise<number | null>;
}

/**
 * The command `npm start` runs, read from package.json so the two never
 * differ, with the project's files as absolute paths: it runs from any
 * directory, as one process, so that a signal reaches the service itself.
 * `checkout`: another build's directory (the bench's --compare).
 */
export function startCommand(checkout = "."): { command: string; args: string[] } {
  const { scripts } = JSON.parse(readFileSync(resolve(checkout, "package.json"), "utf8")) as {
    scripts: { start: string };
  };
  // `exec` makes the shell npm runs the script in become node (through `env`,
  // which sets the allocator's variables and becomes node in turn), so that
  // npm's forwarded SIGTERM reaches it.
  const words = scripts.start.replace(/^exec\s+/, "").split(/\s+/);
  const node = words.indexOf("node");
  const args = words.slice(node + 1).map((arg) => (arg.startsWith("-") ? arg : resolve(checkout, arg)));
  const [command = "", ...before] = words.slice(0, node);
  return node === 0 ? { command: process.execPath, args } : { command, args: [...before, process.execPath, ...args] };
}

async function answering(port: number): Promise<number> {
  for (;;) {
    const up = await fetch(`http://127.0.0.1:${port}/healthz`).then(
      (reply) => reply.ok,
      () => false,
    );
    if (up) return port;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** Ports each test worker chooses from, and the next it tries: a place of its own in each run on this machine. */
const BLOCK = 200;
let nextInBlock = randomInt(BLOCK);

/** Whether a server could listen on the port now. */
function bindable(port: number): Promise<boolean> {
  const server = createServer();
  return new Promise((resolve) => {
    server.once("error", () => resolve(false));
    server.listen(port, "127.0.0.1", () => server.close(() => resolve(true)));
  });
}

/** The first port of this worker's block: below the kernel's ephemeral range, or above it when that starts low. */
function workerBlock(): number {
  const range = readFileSync("/proc/sys/net/ipv4/ip_local_port_range", "utf8");
  const [low = 32768, high = 60999] = range.trim().split(/\s+/).map(Number);
  const worker = Number(process.env.VITEST_POOL_ID ?? 0);
  const below = low - (worker + 1) * BLOCK;
  return below >= 1024 ? below : high + 1 + worker * BLOCK;
}

/**
 * A port nothing listens on, for a server started later (a daemon, or the service told its port). It lies
 * outside the kernel's ephemeral range, where no server on port 0 and no outgoing connection lands, in a block
 * of this worker's own (VITEST_POOL_ID: no two workers at once share one), so nothing else can take it
 * before the server binds it, as a port the kernel handed out could be.
 */
export async function freePort(): Promise<number> {
  const first = workerBlock();
  for (let tried = 0; tried < BLOCK; tried++) {
    const port = first + (nextInBlock++ % BLOCK);
    if (await bindable(port)) return port;
  }
  throw new Error(`Every port from ${first} to ${first + BLOCK - 1} is in use`);
}

export async function spawnService(env: Record<string, string>): Promise<ServiceProcess> {
  const { command, args } = startCommand();
  const child: ChildProcess = spawn(command, args, {
    env: {
      PATH: process.env.PATH ?? "",
      PORT: "0",
      HOST: "127.0.0.1",
      DNS_SERVERS: await emptyZone(),
      RATE_LIMIT_REQUESTS_PER_SECOND: "0",
      RATE_LIMIT_REGISTRATIONS_PER_HOUR: "0",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let output = "";
  const port = await new Promise<number>((done, fail) => {
    const read = (chunk: Buffer) => {
      output += chunk;
      const line = output.split("\n").find((l) => l.includes('"event":"listening"'));
      if (line) done(JSON.parse(line).port);
    };
    child.stdout?.on("data", read);
    child.stderr?.on("data", read);
    child.once("exit", (code) => fail(new Error(`service exited (${code}): ${output}`)));
    // Told its port, it may log too little to say it listens (LOG_LEVEL=warn): ask it.
    if (env.PORT && env.PORT !== "0") void answering(Number(env.PORT)).then(done);
  });
  const exited = new Promise<number | null>((done) => child.once("exit", (code) => done(code)));
  return {
    url: `http://127.0.0.1:${port}`,
    output: () => output,
    async kill() {
      child.kill("SIGKILL");
      await exited;
    },
    terminate: () => child.kill("SIGTERM"),
    exited,
  };
}

/** A scanner daemon the tests run: started in a directory of its own, stopped with it gone. */
export interface Daemon {
  child: ChildProcess;
  exited: Promise<void>;
  stop(): Promise<void>;
}

/**
 * Starts a daemon and waits until `answering` says it serves, polling every
 * `pollMs`; its directory is removed when it stops, or when it exits first
 * (then with the end of what it printed).
 */
export async function startDaemon(
  command: string,
  args: string[],
  dir: string,
  answering: () => Promise<boolean>,
  pollMs: number,
): Promise<Daemon> {
  const child = spawn(command, args, { stdio: ["ignore", "pipe", "pipe"] });
  let output = "";
  child.stdout?.on("data", (chunk) => (output += chunk));
  child.stderr?.on("data", (chunk) => (output += chunk));
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  let gone = false;
  void exited.then(() => (gone = true));
  while (!(await answering())) {
    if (gone) {
      rmSync(dir, { recursive: true, force: true });
      throw new Error(`${command} exited before answering: ${output.slice(-2000)}`);
    }
    await new Promise((resolve) => setTimeout(resolve, pollMs));
  }
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  return { child, exited, stop };
}
