// Compiles the service to dist/ (run by npm install and npm test): ES module
// chunks with source maps, our code and the pure-JavaScript packages it
// imports bundled together, so start-up compiles no TypeScript and reads a
// few files rather than the thousand-odd that resolving each package's
// modules would open (about a third of start-up and of each CLI command).
// The inbound readers' thread is an entry of its own, beside the chunks that start it.
import { rmSync } from "node:fs";
import { build } from "esbuild";

/**
 * Left to node_modules: Prisma (its runtime loads its query compiler's
 * WebAssembly beside itself), the native better-sqlite3, pg (loaded only
 * for PostgreSQL, by src/db/pg.ts), and redoc (a browser bundle the docs
 * page serves as a file).
 */
const EXTERNAL = ["@prisma/*", "better-sqlite3", "pg", "redoc"];

rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: ["src/main.ts", "src/cli/main.ts", { in: "src/inbound/parse-worker.ts", out: "parse-worker" }],
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  external: EXTERNAL,
  // CommonJS packages in an ES module bundle still call require() for Node's own modules.
  banner: {
    js: 'import { createRequire as createRequireOfBundle } from "node:module"; const require = createRequireOfBundle(import.meta.url);',
  },
  sourcemap: true,
  sourcesContent: false,
  logLevel: "warning",
});
