// Two changes the build makes to packages it bundles, each for the same
// reason: it kept every request's objects alive through V8's minor
// collections. The young generation's collector treats a WeakMap that has
// grown old, and the structures a closure reaches through them, as strong:
// what a request hangs there is copied out of the young generation, promoted,
// and freed only by a full collection (every few hundred requests under
// `npm start`'s --heap-growing-percent=50). Measured with --trace-gc-nvp: some
// 475 KB promoted per minor collection under `GET /agents/{id}`, 12 KB without.
// Each plugin refuses a package that is not the one it was written for
// (bundle-patches.test.ts also checks the versions).

import { readFileSync } from "node:fs";
import type { OnLoadResult, Plugin } from "esbuild";

/** The versions these patches were written against. */
export const PATCHED = { "@pothos/core": "4.15.1", "graphql-jit": "0.8.7" };

/** The patches that changed a module in this process's builds. */
const applied = new Set<string>();

/** A plugin that rewrites the module `filter` names, given its path and source, and notes that it did. */
function patch(name: string, filter: RegExp, rewrite: (path: string, source: string) => OnLoadResult): Plugin {
  return {
    name,
    setup(build) {
      build.onLoad({ filter }, ({ path }) => {
        const result = rewrite(path, readFileSync(path, "utf8"));
        applied.add(name);
        return result;
      });
    },
  };
}

/** Pothos' per-request caches, as @pothos/core writes them (its ES build). */
const POTHOS_CONTEXT_CACHE = /[\\/]@pothos[\\/]core[\\/]esm[\\/]utils[\\/]context-cache\.js$/;

/**
 * Pothos keeps each request's caches (scope-auth's answers, the Prisma
 * plugin's loader mappings) in WeakMaps keyed by its context.
 * src/schema/context-cache.ts takes that module's place with the same
 * exports, keeping each entry on the context itself.
 */
const pothosContextCache = patch("pothos-context-cache", POTHOS_CONTEXT_CACHE, (path, original) => {
  const exported = [...original.matchAll(/^export (?:const|function) (\w+)/gm)].map((m) => m[1]).join(",");
  if (exported !== "contextCacheSymbol,initContextCache,createContextCache" || !original.includes("new WeakMap")) {
    throw new Error(`${path}: not the module src/schema/context-cache.ts replaces`);
  }
  const replacement = new URL("../src/schema/context-cache.ts", import.meta.url);
  return { contents: readFileSync(replacement, "utf8"), loader: "ts" };
});

/** graphql-jit's choice of serial execution, as its build writes it (its ES index imports this one). */
const JIT_EXECUTION = /[\\/]graphql-jit[\\/]dist[\\/]execution\.js$/;
const SERIAL_WHEN = 'const serialExecution = context.operation.operation === "mutation";';

/**
 * graphql-jit runs every mutation through a queue of its root fields, one
 * after another, and a request run through that queue stayed alive across
 * minor collections (some 500 KB promoted per collection under
 * `PATCH …/emails/{id}`; 18 KB without). A mutation of one root field (every
 * REST route's and MCP tool's) needs no queue: it runs as a query's field
 * does. Two root fields or more still run one after another.
 */
const singleMutationInline = patch("single-mutation-inline", JIT_EXECUTION, (path, source) => {
  if (source.split(SERIAL_WHEN).length !== 2) throw new Error(`${path}: not the graphql-jit this patch changes`);
  const serialWhen = SERIAL_WHEN.replace(";", " && Object.keys(fieldMap).length > 1;");
  return { contents: source.replace(SERIAL_WHEN, serialWhen), loader: "js" };
});

export const PATCHES = [pothosContextCache, singleMutationInline];

/** The patches no module met in this process's builds: a package that moved the file one changes. */
export const unapplied = () => PATCHES.map(({ name }) => name).filter((name) => !applied.has(name));
