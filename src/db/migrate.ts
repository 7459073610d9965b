import { existsSync, readdirSync, readFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { fileURLToPath } from "node:url";
import type { Database } from "./client.ts";
import { reindexPostgresSearch, reindexSqliteSearch } from "./search.ts";
import { numberedParams } from "./sql.ts";
import type { Statements } from "./statements.ts";

// Applies the committed migrations of the database's provider at start-up.
// Several instances may start at once: on PostgreSQL an advisory lock makes
// them take turns, and SQLite's write lock does the same for its one file.

/** prisma/migrations of the project this module belongs to, from src/db or from the build in dist. */
function migrationsDirectory(): string {
  for (let dir = dirname(fileURLToPath(import.meta.url)); dir !== dirname(dir); dir = dirname(dir)) {
    if (existsSync(join(dir, "package.json"))) return join(dir, "prisma", "migrations");
  }
  throw new Error("prisma/migrations not found");
}

const MIGRATIONS = migrationsDirectory();

type Step = (db: Pick<Statements, "all" | "run">) => Promise<void>;

/** What SQL cannot do, run after the migration of that name: search words are tagged by our code. */
const FOLLOW_UPS: Record<string, Record<string, Step>> = {
  sqlite: { "20261125030000_search_words_tagged": reindexSqliteSearch },
  postgresql: { "20261125040000_search_words_tagged": reindexPostgresSearch },
};
const LOCK_ID = 0x70696765; // "pige"

/**
 * The statements of a migration: each ends with a semicolon at the end of a
 * line, except inside a trigger's BEGIN … END or a function's $$ … $$ body.
 */
export function statementsOf(sql: string): string[] {
  const statements: string[] = [];
  let current: string[] = [];
  let dollarQuoted = false;
  let triggerBody = false;
  for (const line of sql.replace(/^--.*$/gm, "").split("\n")) {
    current.push(line);
    if ((line.match(/\$\$/g)?.length ?? 0) % 2 === 1) dollarQuoted = !dollarQuoted;
    else if (!dollarQuoted && /\bBEGIN\s*$/.test(line)) triggerBody = true;
    else if (triggerBody && /^END;\s*$/.test(line)) triggerBody = false;
    if (!dollarQuoted && !triggerBody && /;\s*$/.test(line)) {
      statements.push(current.join("\n").trim().replace(/;\s*$/, ""));
      current = [];
    }
  }
  const rest = current.join("\n").trim();
  return rest ? [...statements, rest] : statements;
}

export function migrationsOf(provider: string): { name: string; statements: string[] }[] {
  const dir = join(MIGRATIONS, provider);
  return readdirSync(dir)
    .sort()
    .map((name) => ({
      name,
      statements: statementsOf(readFileSync(`${dir}/${name}/migration.sql`, "utf8")),
    }));
}

/**
 * Prisma writes SQLite migrations for foreign keys off: a table it redefines
 * is dropped and copied, and with them on the drop would cascade into every
 * table that refers to it. The pragma does nothing inside a transaction, so
 * it is set around it, and the keys are checked before the commit.
 */
export async function migrate(database: Database): Promise<string[]> {
  const sqlite = database.provider === "sqlite";
  if (sqlite) await database.prisma.$executeRawUnsafe("PRAGMA foreign_keys=OFF");
  try {
    return await applyMigrations(database);
  } finally {
    if (sqlite) await database.prisma.$executeRawUnsafe("PRAGMA foreign_keys=ON");
  }
}

async function applyMigrations({ prisma, provider, schema }: Database): Promise<string[]> {
  return prisma.$transaction(
    async (tx) => {
      if (provider === "postgresql") {
        await tx.$executeRawUnsafe(`SELECT pg_advisory_xact_lock(${LOCK_ID})`);
        await tx.$executeRawUnsafe(`CREATE SCHEMA IF NOT EXISTS "${schema}"`);
      }
      await tx.$executeRawUnsafe(
        `CREATE TABLE IF NOT EXISTS "_pigeonhole_migrations" ("name" TEXT PRIMARY KEY, "appliedAt" TEXT NOT NULL)`,
      );
      const rows = await tx.$queryRawUnsafe<{ name: string }[]>(`SELECT "name" FROM "_pigeonhole_migrations"`);
      const done = new Set(rows.map((row) => row.name));
      const applied: string[] = [];
      for (const migration of migrationsOf(provider)) {
        if (done.has(migration.name)) continue;
        for (const statement of migration.statements) await tx.$executeRawUnsafe(statement);
        const numbered = (text: string) => (provider === "postgresql" ? numberedParams(text) : text);
        await FOLLOW_UPS[provider]?.[migration.name]?.({
          all: (text, params) => tx.$queryRawUnsafe(numbered(text), ...params),
          run: (text, params) => tx.$executeRawUnsafe(numbered(text), ...params),
        });
        await tx.$executeRaw`INSERT INTO "_pigeonhole_migrations" ("name", "appliedAt") VALUES (${migration.name}, ${new Date().toISOString()})`;
        applied.push(migration.name);
      }
      // A check of every row: only when a migration may have broken one.
      if (
        applied.length > 0 &&
        provider === "sqlite" &&
        (await tx.$queryRawUnsafe<unknown[]>("PRAGMA foreign_key_check")).length > 0
      ) {
        throw new Error("a migration left rows whose foreign keys point nowhere");
      }
      return applied;
    },
    // A follow-up rewrites every email's search entry, minutes for millions, while other instances wait their turn.
    { maxWait: 30_000, timeout: 60 * 60_000 },
  );
}

/** Migrations of this version not yet applied to the database; all of them on an empty one. */
export async function pendingMigrations({
  prisma,
  provider,
}: Pick<Database, "prisma" | "provider">): Promise<string[]> {
  const all = migrationsOf(provider).map((migration) => migration.name);
  const rows = await prisma
    .$queryRawUnsafe<{ name: string }[]>(`SELECT "name" FROM "_pigeonhole_migrations"`)
    .catch(() => []);
  const done = new Set(rows.map((row) => row.name));
  return all.filter((name) => !done.has(name));
}
