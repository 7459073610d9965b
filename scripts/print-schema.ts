// The GraphQL schema as files:
//   tsx scripts/print-schema.ts                  schema.graphql from the code (committed), then the introspection
//   tsx scripts/print-schema.ts --introspection  only the introspection, from schema.graphql (run by npm install)
//   tsx scripts/print-schema.ts --check          fails when either is stale
// The introspection (src/generated/graphql-env.d.ts) types gql.tada's
// operations, ours and the example client's; like the rest of src/generated
// it is not committed. It is read from schema.graphql, as any client would.
import { mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { dirname } from "node:path";
import { outputIntrospectionFile } from "@gql.tada/internal";
import { buildSchema, introspectionFromSchema } from "graphql";

const SDL = "schema.graphql";
const INTROSPECTION = "src/generated/graphql-env.d.ts";

const introspectionOf = (sdl: string) =>
  outputIntrospectionFile(introspectionFromSchema(buildSchema(sdl)), { fileType: ".d.ts" });

const readOrNull = (file: string) => {
  try {
    return readFileSync(file, "utf8");
  } catch {
    return null;
  }
};

function write(file: string, text: string): void {
  mkdirSync(dirname(file), { recursive: true });
  writeFileSync(file, text);
}

/** The SDL the code gives; loaded only when asked, since npm install writes the introspection before anything else. */
async function printedFromCode(): Promise<string> {
  const { printedSchema } = await import("../src/schema/index.ts");
  return printedSchema();
}

if (process.argv.includes("--introspection")) {
  write(INTROSPECTION, introspectionOf(readFileSync(SDL, "utf8")));
} else if (process.argv.includes("--check")) {
  const printed = await printedFromCode();
  const stale = [
    readOrNull(SDL) === printed ? [] : [SDL],
    readOrNull(INTROSPECTION) === introspectionOf(printed) ? [] : [INTROSPECTION],
  ].flat();
  if (stale.length > 0) {
    console.error(`${stale.join(" and ")} stale: run npm run schema`);
    process.exit(1);
  }
} else {
  const printed = await printedFromCode();
  write(SDL, printed);
  write(INTROSPECTION, introspectionOf(printed));
}
