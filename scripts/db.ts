// Prisma housekeeping for both databases from the one data model in
// prisma/schema.prisma:
//   tsx scripts/db.ts generate          both clients (run by npm install)
//   tsx scripts/db.ts migration <name>  a new migration for each provider
import { execFileSync } from "node:child_process";
import { existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import { join } from "node:path";

const SQLITE_SCHEMA = "prisma/schema.prisma";
const POSTGRES_SCHEMA = "src/generated/postgresql.prisma";
const providers = [
  { name: "sqlite", schema: SQLITE_SCHEMA },
  { name: "postgresql", schema: POSTGRES_SCHEMA },
] as const;

/** The PostgreSQL twin: same models, another provider, no second Pothos type file. */
function writePostgresSchema(): void {
  const twin = readFileSync(SQLITE_SCHEMA, "utf8")
    .replace(/generator pothos \{[^}]*\}\n\n/, "")
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace('url      = "file:./unused.db"', 'url      = "postgresql://unused"')
    .replace('output     = "../src/generated/prisma/sqlite"', 'output     = "./prisma/postgresql"');
  mkdirSync("src/generated", { recursive: true });
  writeFileSync(POSTGRES_SCHEMA, twin);
}

function prisma(args: string[]): string {
  return execFileSync("prisma", args, {
    encoding: "utf8",
    stdio: ["ignore", "pipe", "inherit"],
  });
}

function generate(): void {
  writePostgresSchema();
  for (const p of providers) prisma(["generate", "--schema", p.schema]);
}

/** Writes the first migration of each provider; later ones diff against it. */
function migration(name: string): void {
  writePostgresSchema();
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  for (const p of providers) {
    const dir = join("prisma/migrations", p.name);
    if (existsSync(dir)) throw new Error(`${dir} exists: diff new migrations against it`);
    const sql = prisma(["migrate", "diff", "--from-empty", "--to-schema-datamodel", p.schema, "--script"]);
    mkdirSync(join(dir, `${stamp}_${name}`), { recursive: true });
    writeFileSync(join(dir, `${stamp}_${name}`, "migration.sql"), sql);
  }
}

const [command, arg] = process.argv.slice(2);
if (command === "generate") generate();
else if (command === "migration" && arg) migration(arg);
else throw new Error("usage: tsx scripts/db.ts generate | migration <name>");
