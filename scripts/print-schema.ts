// Writes schema.graphql from the code; with --check, fails when it is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { printedSchema } from "../src/schema/index.ts";

const FILE = "schema.graphql";
const printed = printedSchema();
if (process.argv.includes("--check")) {
  if (readFileSync(FILE, "utf8") !== printed) {
    console.error(`${FILE} is stale: run npm run schema`);
    process.exit(1);
  }
} else {
  writeFileSync(FILE, printed);
}
