// Writes schema.graphql and the typed-operation introspection from the code;
// with --check, fails when either is stale.
import { readFileSync, writeFileSync } from "node:fs";
import { outputIntrospectionFile } from "@gql.tada/internal";
import { introspectionFromSchema } from "graphql";
import { printedSchema, schema } from "../src/schema/index.ts";

const files = {
  "schema.graphql": printedSchema(),
  "src/rest/graphql-env.d.ts": outputIntrospectionFile(introspectionFromSchema(schema), { fileType: ".d.ts" }),
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
