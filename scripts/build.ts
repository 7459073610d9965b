// Compiles the service to dist/ (run by npm install and npm test): one ES
// module bundle of our own code, with source maps, dependencies left to
// node_modules. npm start runs it, so start-up compiles no TypeScript. The
// inbound readers' thread is an entry of its own, beside the chunks that start it.
import { rmSync } from "node:fs";
import { build } from "esbuild";

rmSync("dist", { recursive: true, force: true });
await build({
  entryPoints: ["src/main.ts", "src/cli/main.ts", { in: "src/inbound/parse-worker.ts", out: "parse-worker" }],
  outdir: "dist",
  bundle: true,
  splitting: true,
  format: "esm",
  platform: "node",
  target: "node20",
  packages: "external",
  sourcemap: true,
  logLevel: "warning",
});
