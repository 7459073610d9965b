import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, test } from "vitest";
import { startCommand } from "./support/process.ts";

// npm start as an operator meets it: a bad variable, and no configuration at
// all. What loadConfig makes of each variable is tested beside src/config.ts.

function run(env: Record<string, string>, cwd: string): ChildProcess {
  const { command, args } = startCommand();
  return spawn(command, args, {
    cwd,
    env: { PATH: process.env.PATH ?? "", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
}

function output(child: ChildProcess, stream: "stdout" | "stderr", until: RegExp): Promise<string> {
  return new Promise((done, fail) => {
    let text = "";
    child[stream]?.on("data", (chunk: Buffer) => {
      text += chunk;
      if (until.test(text)) done(text);
    });
    child.on("exit", () => (until.test(text) ? done(text) : fail(new Error(`exited with: ${text}`))));
  });
}

describe.runIf(process.env.TEST_DATABASE === "sqlite")("npm start", () => {
  test("a bad variable stops start-up with a clear message and exit code 1", async () => {
    const child = run({ PORT: "eighty" }, tmpdir());
    const stderr = await output(child, "stderr", /Configuration error/);
    expect(stderr).toContain('PORT must be an integer from 0 to 65535, got "eighty"');
    expect(await new Promise((done) => child.on("exit", done))).toBe(1);
  });

  test("with no configuration it creates ./data/pigeonhole.db, migrates and serves", async () => {
    const cwd = mkdtempSync(join(tmpdir(), "pigeonhole-start-"));
    const child = run({ PORT: "0" }, cwd);
    try {
      const stdout = await output(child, "stdout", /"event":"listening".*\n/);
      const port = JSON.parse(stdout.split("\n").find((line) => line.includes('"listening"')) ?? "{}").port;
      const health = await fetch(`http://127.0.0.1:${port}/healthz`);
      expect(health.status).toBe(200);
      expect(existsSync(join(cwd, "data/pigeonhole.db"))).toBe(true);
      expect(stdout).toContain('"migrations_applied"');
    } finally {
      child.kill("SIGTERM");
      await new Promise((done) => child.on("exit", done));
      rmSync(cwd, { recursive: true, force: true });
    }
  });
});
