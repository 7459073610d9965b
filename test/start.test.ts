import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, onTestFinished, test } from "vitest";
import { freePort, startCommand } from "./support/process.ts";

// `npm start` as an operator runs it: stopped by a signal sent to npm, and
// started a second time on a port already taken.

const envFor = (port: number, dir: string) => ({
  PATH: process.env.PATH ?? "",
  PORT: String(port),
  HOST: "127.0.0.1",
  DATABASE_URL: `file:${join(dir, "pigeonhole.db")}`,
});

/** What the process wrote to stderr, once it has exited, and its exit code. */
function ended(child: ChildProcess): Promise<{ code: number | null; stderr: string }> {
  let stderr = "";
  child.stdout?.resume();
  child.stderr?.on("data", (chunk: Buffer) => (stderr += chunk));
  return new Promise((done) => child.once("exit", (code) => done({ code, stderr })));
}

async function answers(port: number): Promise<boolean> {
  return fetch(`http://127.0.0.1:${port}/healthz`).then(
    (reply) => reply.ok,
    () => false,
  );
}

async function until(condition: () => Promise<boolean>): Promise<void> {
  while (!(await condition())) await new Promise((resolve) => setTimeout(resolve, 50));
}

describe.runIf(process.env.TEST_DATABASE === "sqlite")("npm start", () => {
  test("SIGTERM sent to npm stops the service; a second start on its port says so in one sentence and exits 1", async () => {
    // Made here, not when the file loads: on PostgreSQL its test is skipped, and with it every hook.
    const dir = mkdtempSync(join(tmpdir(), "pigeonhole-start-"));
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    const port = await freePort();
    const npm = spawn("npm", ["start"], { env: envFor(port, dir), stdio: ["ignore", "pipe", "pipe"] });
    const npmEnded = ended(npm);
    await until(() => answers(port));

    const { command, args } = startCommand();
    const second = spawn(command, args, { env: envFor(port, dir), stdio: ["ignore", "pipe", "pipe"] });
    const { code, stderr } = await ended(second);
    expect(code).toBe(1);
    expect(stderr.trim()).toBe(
      `Configuration error: PORT ${port} is taken: another program listens on 127.0.0.1:${port}; stop it, or set PORT`,
    );

    npm.kill("SIGTERM");
    await npmEnded;
    await until(async () => !(await answers(port)));
  });
});
