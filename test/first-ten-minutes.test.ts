import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { afterAll, expect, test } from "vitest";
import { spawnService } from "./support/process.ts";
import { freshDatabase } from "./support/service.ts";

// The README's first ten minutes, run as a new user would paste them: the
// service as `npm start` runs it with the README's variable, and the
// commands of its shell block, verbatim but for the port.

const database = freshDatabase();
afterAll(() => database.drop());

/** The shell blocks of the README's section, in order. */
function blocksOfFirstTenMinutes(): string[] {
  const section = readFileSync("README.md", "utf8").split("## The first ten minutes")[1]?.split("\n## ")[0] ?? "";
  return [...section.matchAll(/```sh\n([\s\S]*?)```/g)].map((match) => match[1] ?? "");
}

/** The JSON answers curl printed one after another (without newlines between them). */
function jsonAnswers(text: string): unknown[] {
  const values: unknown[] = [];
  let start = 0;
  for (let end = text.indexOf("}"); end >= 0; end = text.indexOf("}", end + 1)) {
    try {
      values.push(JSON.parse(text.slice(start, end + 1)));
      start = end + 1;
    } catch {}
  }
  return values;
}

function runShell(script: string): Promise<{ code: number | null; stdout: string; stderr: string }> {
  const child = spawn("sh", ["-c", script], { env: { PATH: process.env.PATH ?? "" } });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  return new Promise((done) => child.once("close", (code) => done({ code, stdout, stderr })));
}

test("the README's first ten minutes work as written: two agents write to each other with no mail server", async () => {
  const [start, commands = ""] = blocksOfFirstTenMinutes();
  expect(start?.trim()).toMatch(/^VERIFICATION_MODE=none npm start\b/);
  const service = await spawnService({ DATABASE_URL: database.url, VERIFICATION_MODE: "none" });
  try {
    const run = await runShell(commands.replaceAll("localhost:3000", new URL(service.url).host));
    expect(run.stderr).toBe("");
    expect(run.code).toBe(0);
    // biome-ignore lint/suspicious/noExplicitAny: curl's answers, read by path
    const answers = jsonAnswers(run.stdout) as any[];
    expect(answers[0]).toMatchObject({ id: "scout", email: "scout@localhost", verified: true });
    expect(answers[1]).toMatchObject({ to: "ranger@localhost", subject: "Hello" });
    expect(answers[2].data).toMatchObject([
      {
        from: { address: "scout@localhost" },
        subject: "Hello",
        bodyText: expect.stringMatching(/^Can you hear me\?\s*$/),
      },
    ]);
  } finally {
    await service.kill();
  }
}, 90_000);
