import { readdirSync, readFileSync } from "node:fs";
import { join, relative } from "node:path";
import { expect, test } from "vitest";
import { getDatamodel } from "./generated/pothos-types.ts";

// How the database keeps a list is the store's business: src/db (with Prisma)
// turns JSON into arrays and objects and back, and no code above it parses or
// writes a model field's JSON. The types catch a parse (a Json field is not
// text); a JSON.stringify into a Json field would type-check and store a JSON
// string, so this scan finds every JSON.parse and JSON.stringify outside
// src/db and holds each to a use below that says what it handles instead.

const SRC = import.meta.dirname;

/** Where JSON text is the thing itself, not a model field: whole files, or one line matched within a file. */
const ALLOWED: { file: string; line?: RegExp; why: string }[] = [
  { file: "config.ts", why: "quotes an environment variable's value in its error" },
  { file: "cli/main.ts", why: "the CLI's log lines" },
  { file: "cli/output.ts", why: "the CLI's --json output" },
  { file: "cli/doctor.ts", line: /JSON\.stringify\(greeting\)/, why: "quotes the SMTP door's greeting" },
  { file: "inbound/readers.ts", why: "the worker's entry URL, written into its source" },
  { file: "inbound/scanners/rspamd.ts", why: "Rspamd's answer, read off the wire" },
  { file: "inbound/scanners/clamav.ts", line: /not PONG/, why: "quotes what clamd answered to PING" },
  { file: "mailbox/screening/fence.ts", why: "quotes the sender's address in the fence's label" },
  { file: "mcp/server.ts", why: "the MCP wire: requests and answers" },
  { file: "rest/openapi.ts", why: "compares two JSON Schemas" },
  { file: "rest/router.ts", why: "a REST request's body" },
  { file: "server/app.ts", why: "the OpenAPI document served" },
  { file: "server/client-errors.ts", why: "a refusal's body" },
  { file: "server/graphiql.ts", why: "GraphiQL's default headers" },
  { file: "schema/plan-cache.ts", why: "a kept plan's key: the values of a document's variables" },
  { file: "server/graphql-json.ts", why: "GraphQL over HTTP: requests and answers" },
  { file: "server/review-page.ts", why: "the page's script posts the decision" },
  { file: "server/skill.ts", why: "the skill file's facts" },
  { file: "server/verify-page.ts", why: "the page's script and its messages" },
  { file: "testing/pins.ts", why: "reads the installed packages' manifests and package.json" },
  {
    file: "testing/memory.ts",
    line: /JSON\.stringify\(\[BASE_ENV/,
    why: "names the unit tests' template database by its inputs",
  },
  {
    file: "mailbox/agents.ts",
    line: /JSON\.stringify\(metadata\)/,
    why: "a client's metadata, measured before it is kept",
  },
  { file: "mailbox/idempotency.ts", line: /canonical|JSON\.stringify\((k|value)\)/, why: "a request's fingerprint" },
  {
    file: "mailbox/review-notices.ts",
    line: /seal\(JSON\.stringify\(told\)|JSON\.parse\(unseal\(notice\.payload/,
    why: "a notice is sealed with SECRETS_KEY before the store sees it: the store keeps ciphertext",
  },
  { file: "mailbox/review-notices.ts", line: /const body = JSON\.stringify/, why: "the reviewer webhook's POST body" },
];

/** Quoting a client's value in an error message, anywhere. */
const QUOTED = /JSON\.stringify\(excerpt\(/;

const JSON_CALL = /JSON\.(parse|stringify)\(/;

function sourceFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return ["db", "generated"].includes(entry.name) && dir === SRC ? [] : sourceFiles(path);
    return entry.name.endsWith(".ts") && !entry.name.endsWith(".test.ts") ? [path] : [];
  });
}

const calls = sourceFiles(SRC).flatMap((path) =>
  readFileSync(path, "utf8")
    .split("\n")
    .flatMap((text, index) => (JSON_CALL.test(text) ? [{ file: relative(SRC, path), line: index + 1, text }] : [])),
);

const allowedBy = (call: { file: string; text: string }) =>
  ALLOWED.find((use) => use.file === call.file && (use.line === undefined || use.line.test(call.text)));

test("no JSON.parse or JSON.stringify outside src/db but the uses listed", () => {
  const unlisted = calls.filter((call) => !QUOTED.test(call.text) && !allowedBy(call));
  expect(unlisted.map(({ file, line, text }) => `${file}:${line}: ${text.trim()}`)).toEqual([]);
});

test("each listed use is still there", () => {
  const stale = ALLOWED.filter((use) => !calls.some((call) => allowedBy(call) === use));
  expect(stale.map((use) => `${use.file} ${use.line ?? ""}`)).toEqual([]);
});

test("no listed use reads a model field that holds JSON", () => {
  const { models } = getDatamodel().datamodel;
  const jsonFields = Object.values(models).flatMap((model) =>
    model.fields.filter((field) => field.type === "Json").map((field) => field.name),
  );
  // Text the store keeps as JSON: a webhook delivery's body, as signed; a sealed review notice.
  const fields = [...jsonFields, "payload"];
  const reads = new RegExp(`JSON\\.(parse|stringify)\\([^;]*\\.(${fields.join("|")})\\b`);
  const sealed = /JSON\.parse\(unseal\(notice\.payload/;
  const found = calls.filter((call) => reads.test(call.text) && !sealed.test(call.text));
  expect(found.map(({ file, line, text }) => `${file}:${line}: ${text.trim()}`)).toEqual([]);
});
