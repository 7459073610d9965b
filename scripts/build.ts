// Compiles the service to dist/ (run by npm install and npm test): ES module
// chunks with source maps, our code and the pure-JavaScript packages it
// imports bundled together, so start-up compiles no TypeScript and reads a
// few files rather than the thousand-odd that resolving each package's
// modules would open (about a third of start-up and of each CLI command).
// The inbound readers' thread is an entry of its own, beside the chunks that start it.
import { mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { createRequire } from "node:module";
import { join } from "node:path";
import { build, type Plugin } from "esbuild";
import { PATCHES, unapplied } from "./bundle-patches.ts";

/**
 * Left to node_modules: Prisma (its runtime loads its query compiler's
 * WebAssembly beside itself), the native better-sqlite3, pg (loaded only
 * for PostgreSQL, by src/db/pg.ts), and redoc (a browser bundle the docs
 * page serves as a file).
 */
const EXTERNAL = ["@prisma/*", "better-sqlite3", "pg", "redoc"];
const OUT = "dist";

/** The generated clients' loader of the query compiler, as Prisma writes it. */
const BASE64_LOADER =
  /const \{ wasm \} = await import\("@prisma\/client\/runtime\/(query_compiler_bg\.\w+)\.wasm-base64\.mjs"\)\s*return await decodeBase64AsWasm\(wasm\)/;

/**
 * Prisma's generated client imports its query compiler's WebAssembly as a
 * module holding one base64 string, which the process then keeps for good,
 * twice (the module's source and the string: some 5 MiB of heap). The build
 * decodes it once into a .wasm file beside the chunks, and the client
 * compiles that file instead.
 */
const wasmFromFile: Plugin = {
  name: "query-compiler-from-file",
  setup(build) {
    build.onLoad({ filter: /generated[\\/]prisma[\\/]\w+[\\/]internal[\\/]class\.ts$/ }, ({ path }) => {
      const source = readFileSync(path, "utf8");
      const loader = BASE64_LOADER.exec(source);
      if (!loader) throw new Error(`${path}: Prisma's query compiler loader is not the one scripts/build.ts rewrites`);
      const name = `${loader[1]}.wasm`;
      const require = createRequire(import.meta.url);
      const base64 = readFileSync(require.resolve(`@prisma/client/runtime/${loader[1]}.wasm-base64.js`), "utf8");
      const wasm = /"([A-Za-z0-9+/=]+)"/.exec(base64)?.[1] ?? "";
      writeFileSync(join(OUT, name), Buffer.from(wasm, "base64"));
      const fromFile = `const { readFile } = await import("node:fs/promises")
    return new WebAssembly.Module(await readFile(new URL(${JSON.stringify(`./${name}`)}, import.meta.url)))`;
      return { contents: source.replace(BASE64_LOADER, fromFile), loader: "ts" };
    });
  },
};

/**
 * Prisma's runtime as an ES module. Under Node its package's exports give
 * even an `import` the CommonJS build, which Node then scans for its export
 * names (and, its package having no "type", first tries as an ES module):
 * some 50-100 ms of every start and CLI command. The ES build beside it is
 * the same runtime, loaded directly.
 */
const prismaRuntimeAsModule: Plugin = {
  name: "prisma-runtime-as-module",
  setup(build) {
    build.onResolve({ filter: /^@prisma\/client\/runtime\/client$/ }, () => ({
      path: "@prisma/client/runtime/client.mjs",
      external: true,
    }));
  },
};

rmSync(OUT, { recursive: true, force: true });
mkdirSync(OUT);
await build({
  entryPoints: ["src/main.ts", "src/cli/main.ts", { in: "src/inbound/parse-worker.ts", out: "parse-worker" }],
  outdir: OUT,
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  plugins: [wasmFromFile, prismaRuntimeAsModule, ...PATCHES],
  // CommonJS packages in an ES module bundle still call require() for Node's own modules.
  banner: {
    js: 'import { createRequire as createRequireOfBundle } from "node:module"; const require = createRequireOfBundle(import.meta.url);',
  },
  // V8 keeps each module's source for as long as the process runs: without
  // indentation and comments it is a third smaller, and all ASCII (a comment
  // of one non-Latin-1 character would have a whole chunk kept at two bytes a
  // character). The source maps still lead to src/.
  minifyWhitespace: true,
  sourcemap: true,
  sourcesContent: false,
  logLevel: "warning",
});
if (unapplied().length > 0) throw new Error(`No module met these patches: ${unapplied().join(", ")}`);
// The compiler's file is read relative to the chunk that loads it: that chunk must sit beside it.
for (const file of readdirSync(OUT, { recursive: true, encoding: "utf8" })) {
  if (!file.endsWith(".js") || !readFileSync(join(OUT, file), "utf8").includes("query_compiler_bg.")) continue;
  if (file.includes("/")) throw new Error(`${file}: loads the query compiler from a folder of dist/ it is not in`);
}
