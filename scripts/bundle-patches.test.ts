import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { pathToFileURL } from "node:url";
import { build } from "esbuild";
import { afterAll, expect, test } from "vitest";
import { testPatchedVersions } from "../src/testing/pins.ts";
import { PATCHED, PATCHES } from "./bundle-patches.ts";

// What the build changes in the packages it bundles, bundled here as the build
// bundles them: Pothos' context caches are ours, a one-field mutation runs
// without graphql-jit's queue, and two fields still run one after another.

const root = new URL("../", import.meta.url);
const dir = mkdtempSync(join(tmpdir(), "pigeonhole-patches-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** An ES module of `contents` bundled with the patches, loaded. */
async function bundled(name: string, contents: string) {
  const { outputFiles } = await build({
    stdin: { contents, resolveDir: root.pathname, loader: "ts" },
    bundle: true,
    format: "esm",
    platform: "node",
    write: false,
    plugins: PATCHES,
    logLevel: "silent",
  });
  const file = join(dir, `${name}.mjs`);
  writeFileSync(file, outputFiles[0]?.text ?? "");
  return import(pathToFileURL(file).href);
}

testPatchedVersions(PATCHED, "scripts/bundle-patches.ts");

test("Pothos' context caches keep their entries on the context", async () => {
  const { createContextCache } = await bundled("pothos", `export { createContextCache } from "@pothos/core";`);
  const context = {};
  const entry = createContextCache(() => ({}))(context);
  expect(Object.getOwnPropertySymbols(context).map((symbol) => context[symbol as never])).toEqual([entry]);
});

const SCHEMA = `
  type Query { ok: Boolean }
  type Mutation { step(name: String!): String }
`;

/** graphql-jit as bundled, over a schema whose `step` logs when it starts and ends, a turn apart. */
async function jit() {
  const { compileQuery, buildSchema, parse } = await bundled(
    "jit",
    `export { compileQuery } from "graphql-jit"; export { buildSchema, parse } from "graphql";`,
  );
  const log: string[] = [];
  const schema = buildSchema(SCHEMA);
  schema.getMutationType().getFields().step.resolve = async (_: unknown, { name }: { name: string }) => {
    log.push(`start ${name}`);
    await new Promise((resolve) => setImmediate(resolve));
    log.push(`end ${name}`);
    return name;
  };
  const run = async (document: string) => {
    const compiled = compileQuery(schema, parse(document), undefined, { debug: true });
    const result = await compiled.query(undefined, {}, {});
    return { result, code: compiled.__DO_NOT_USE_THIS_OR_YOU_WILL_BE_FIRED_compilation as string };
  };
  return { run, log };
}

test("a mutation of one root field runs without the queue, with the same answer", async () => {
  const { run, log } = await jit();
  const { result, code } = await run(`mutation { step(name: "a") }`);
  expect(result).toEqual({ data: { step: "a" } });
  expect(log).toEqual(["start a", "end a"]);
  expect(code).not.toContain(".queue");
});

test("a mutation of two root fields still runs them one after another", async () => {
  const { run, log } = await jit();
  const { result, code } = await run(`mutation { a: step(name: "a") b: step(name: "b") }`);
  expect(result).toEqual({ data: { a: "a", b: "b" } });
  expect(log).toEqual(["start a", "end a", "start b", "end b"]);
  expect(code).toContain(".queue");
});
