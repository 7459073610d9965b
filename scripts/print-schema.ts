// Writes schema.graphql and the typed-operation introspections (ours, and the
// example client's from schema.graphql);
// with --check, fails when either is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { outputIntrospectionFile } from "@gql.tada/internal";
import { buildSchema, introspectionFromSchema } from "graphql";
import { printedSchema, schema } from "../src/schema/index.ts";

const printed = printedSchema();
const typesOf = (from: typeof schema) => outputIntrospectionFile(introspectionFromSchema(from), { fileType: ".d.ts" });
const files = {
  "schema.graphql": printed,
  "src/rest/graphql-env.d.ts": typesOf(schema),
  // The example client types itself by the committed SDL, as any client would.
  "examples/typed-client/graphql-env.d.ts": typesOf(buildSchema(printed)),
};

if (process.argv.includes("--check")) {
  const stale = Object.entries(files).filter(([file, text]) => readFileSync(file, "utf8") !== text);
  if (stale.length > 0) {
    console.error(`${stale.map(([file]) => file).join(" and ")} stale: run npm run schema`);
    process.exit(1);
  }
} else {
  for (const [file, text] of Object.entries(files)) writeFileSync(file, text);
}
