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

/** The PostgreSQL twin: same models, another provider (and the GraphQL types only once, from the original). */
function postgresTwin(schema: string): string {
  return schema
    .replace(/\ngenerator pothos \{[^}]*\}\n/, "\n")
    .replace('provider = "sqlite"', 'provider = "postgresql"')
    .replace('url      = "file:./unused.db"', 'url      = "postgresql://unused"')
    .replace('output     = "../src/generated/prisma/sqlite"', 'output     = "./prisma/postgresql"');
}

function writePostgresSchema(): void {
  mkdirSync("src/generated", { recursive: true });
  writeFileSync(POSTGRES_SCHEMA, postgresTwin(readFileSync(SQLITE_SCHEMA, "utf8")));
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

/**
 * The models as the last committed migration left them: the schema file of
 * the commit that last changed prisma/migrations. New migrations diff from it.
 */
function lastMigratedSchema(): string | null {
  if (execFileSync("git", ["status", "--porcelain", "prisma/migrations"], { encoding: "utf8" }).trim()) {
    throw new Error("commit prisma/migrations first: a new migration diffs from the last committed one");
  }
  const commit = execFileSync("git", ["log", "-1", "--format=%H", "--", "prisma/migrations"], {
    encoding: "utf8",
  }).trim();
  if (!commit || !existsSync("prisma/migrations")) return null;
  return execFileSync("git", ["show", `${commit}:${SQLITE_SCHEMA}`], { encoding: "utf8" });
}

function migration(name: string): void {
  const previous = lastMigratedSchema();
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const from = (provider: string) => {
    if (previous === null) return ["--from-empty"];
    const file = `src/generated/previous.${provider}.prisma`;
    writeFileSync(file, provider === "sqlite" ? previous : postgresTwin(previous));
    return ["--from-schema-datamodel", file];
  };
  writePostgresSchema();
  for (const p of providers) {
    const sql = prisma(["migrate", "diff", ...from(p.name), "--to-schema-datamodel", p.schema, "--script"]);
    const dir = join("prisma/migrations", p.name, `${stamp}_${name}`);
    mkdirSync(dir, { recursive: true });
    writeFileSync(join(dir, "migration.sql"), sql);
  }
}

const [command, arg] = process.argv.slice(2);
if (command === "generate") generate();
else if (command === "migration" && arg) migration(arg);
else throw new Error("usage: tsx scripts/db.ts generate | migration <name>");
