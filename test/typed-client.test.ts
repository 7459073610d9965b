import { execFile, spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { resolve } from "node:path";
import { promisify } from "node:util";
import { buildSchema, type DocumentNode, validate } from "graphql";
import { expect, test } from "vitest";
import * as operations from "../examples/typed-client/operations.ts";
import { publishPost, uniqueAuthor } from "./support/api.ts";
import { served } from "./support/served.ts";

// The example typed client (examples/typed-client): compiled against the
// committed schema.graphql, its operations valid there, and run as its own
// process against the running service while a person verifies its agent.

const EXAMPLE = resolve("examples/typed-client");

const { svc, api, x, provider } = served({ smtp: true });

test("it type-checks against schema.graphql, and each of its operations is valid there", async () => {
  const tsc = await promisify(execFile)(resolve("node_modules/.bin/tsc"), ["-p", EXAMPLE]).catch((error) => error);
  expect(tsc.stdout ?? "").toBe("");
  const schema = buildSchema(readFileSync(resolve("schema.graphql"), "utf8"));
  const documents = Object.entries(operations) as [string, DocumentNode][];
  expect(documents.map(([name]) => name).sort()).toEqual(["CreateAgent", "Mailbox", "SendEmail", "VerificationStatus"]);
  for (const [name, document] of documents) expect(validate(schema, document), name).toEqual([]);
});

test("run against the service: registers, waits for its human, reads its mailbox and sends", async () => {
  const child = spawn(resolve("node_modules/.bin/tsx"), [`${EXAMPLE}/main.ts`, svc.url, "pat@elsewhere.example"], {
    stdio: ["ignore", "pipe", "inherit"],
  });
  const steps: Record<string, Record<string, unknown>> = {};
  let pending = "";
  const registered = new Promise<Record<string, unknown>>((done) => {
    child.stdout.on("data", (chunk: Buffer) => {
      const lines = (pending + chunk.toString()).split("\n");
      pending = lines.pop() ?? "";
      for (const line of lines) {
        const step = JSON.parse(line);
        steps[step.step] = step;
        if (step.step === "registered") done(step);
      }
    });
  });
  const exited = new Promise<number | null>((done) => child.once("exit", done));

  // The person behind the agent opens its link and posts on X.
  const token = String((await registered).verifyUrl).split("/verify/")[1];
  const start = await api.post(`/verify/${token}/start`);
  const tweetUrl = publishPost(x, uniqueAuthor(), start.body.tweetText);
  expect((await api.post(`/verify/${token}/complete`, { body: { tweetUrl } })).status).toBe(200);

  expect(await exited).toBe(0);
  expect(steps.registered?.email).toMatch(/^typed-[0-9a-z]+@mail\.example$/);
  expect(steps.verified?.verifiedAt).toEqual(expect.any(Number));
  expect(steps.mailbox).toEqual({
    step: "mailbox",
    folders: [
      { name: "inbox", total: 0, unread: 0 },
      { name: "archive", total: 0, unread: 0 },
      { name: "trash", total: 0, unread: 0 },
      { name: "junk", total: 0, unread: 0 },
    ],
    inbox: 0,
  });
  expect(steps.sent).toMatchObject({ id: expect.any(String), subject: "Hello from a typed client" });
  expect(provider.deliveries.map((delivery) => delivery.parsed.subject)).toEqual(["Hello from a typed client"]);
});
