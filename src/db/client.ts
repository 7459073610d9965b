import { mkdirSync } from "node:fs";
import { dirname, resolve } from "node:path";
import type { Pool } from "pg";
import { POSTGRES_SCHEMA } from "../config.ts";
import { PrismaClient } from "../generated/prisma/sqlite/client.ts";
import { postgresSql, type Sql, sqliteSql } from "./sql.ts";
import { Lock, serializedSqlite } from "./sqlite-adapter.ts";
import { countingFactory } from "./statements.ts";
import { advisoryTakeover, processTakeover, type Takeover } from "./takeover.ts";
import { listeningWakeups, localWakeups, type Wakeups } from "./wakeups.ts";

// Both generated clients come from the same models, so the SQLite client's
// type describes either one; Prisma generates one class per provider, and
// they meet in this one cast.
export type Db = PrismaClient;
export type Provider = "sqlite" | "postgresql";

/** What the store's functions read and write through: Prisma, and our own statements. */
export interface Store {
  prisma: Db;
  sql: Sql;
}

export interface Database {
  prisma: Db;
  /** Prepared statements of our own, for the hottest reads. */
  sql: Sql;
  provider: Provider;
  /** The PostgreSQL schema the tables live in. */
  schema?: string;
  /** PostgreSQL: the pool the statements use, for what shares it (rate limits). */
  pool?: Pool;
  /** PostgreSQL: where connections of our own (beside the pool) go. */
  connectionString?: string;
  /** SQLite: a consistent copy through its online backup API, while the service goes on writing. */
  backup?(file: string): Promise<void>;
  close(): Promise<void>;
}

/** How waiters on events hear of them on this database. */
export function wakeupsFor(database: Database, onError: (error: Error) => void): Wakeups {
  if (database.provider === "sqlite") return localWakeups();
  // NOTIFY reaches the whole database; a channel per schema keeps instances of other schemas out.
  const channel = `events_${database.schema ?? "public"}`.slice(0, 63);
  return listeningWakeups(database.connectionString ?? "", channel, onError);
}

/** How a lease holder that died is known to be gone on this database. */
export function takeoverFor(database: Database): Takeover {
  if (database.provider === "sqlite") return processTakeover();
  return advisoryTakeover(database.connectionString ?? "", database.schema ?? "public");
}

/**
 * One lock per database file in this process, whichever instance opened it:
 * SQLite waits for a busy lock synchronously, so a second instance in the
 * same process (as the tests run them) that met another's open transaction
 * would stop the event loop that transaction needs to finish.
 */
const fileLocks = new Map<string, Lock>();

async function openSqlite(file: string): Promise<Database> {
  mkdirSync(dirname(file), { recursive: true });
  const path = resolve(file);
  const lock = fileLocks.get(path) ?? new Lock();
  fileLocks.set(path, lock);
  const prisma = new PrismaClient({ adapter: serializedSqlite(`file:${file}`, lock) });
  // WAL lets readers go on beside the writer. NORMAL syncs at checkpoints only:
  // a power cut can lose the last commits, but each batch takes its mailbox
  // cursor with it, so that mail is read again, not lost.
  await prisma.$queryRawUnsafe("PRAGMA journal_mode = WAL");
  await prisma.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
  const { default: BetterSqlite } = await import("better-sqlite3");
  const reader = new BetterSqlite(file, { readonly: true, timeout: 5_000 });
  const writer = new BetterSqlite(file, { timeout: 5_000 });
  writer.pragma("synchronous = NORMAL");
  const sql = sqliteSql(reader, writer, lock);
  return {
    provider: "sqlite",
    prisma,
    sql,
    backup: async (target) => {
      await reader.backup(target);
    },
    close: async () => {
      await prisma.$disconnect();
      await sql.close();
    },
  };
}

async function openPostgres(url: string): Promise<Database> {
  // Loaded only when used: each generated client carries its own query compiler, and pg is PostgreSQL's alone.
  const { PrismaClient: PostgresClient } = await import("../generated/prisma/postgresql/client.ts");
  const { default: pg } = await import("pg");
  const { PrismaPg } = await import("@prisma/adapter-pg");
  const { connectionString, schema } = postgresTarget(url);
  const pool = new pg.Pool({ connectionString, options: `-c search_path="${schema}"` });
  const adapter = countingFactory(new PrismaPg(pool, { schema }));
  const prisma = new PostgresClient({ adapter }) as unknown as Db;
  const sql = postgresSql(pool, pg.types, schema);
  return {
    pool,
    provider: "postgresql",
    schema,
    connectionString,
    prisma,
    sql,
    close: async () => {
      await prisma.$disconnect();
      await sql.close();
    },
  };
}

/** Which database a DATABASE_URL names: a SQLite file (`file:`), else PostgreSQL. */
export const providerOf = (url: string): Provider => (url.startsWith("file:") ? "sqlite" : "postgresql");

export function openDatabase(url: string): Promise<Database> {
  return providerOf(url) === "sqlite" ? openSqlite(url.slice("file:".length)) : openPostgres(url);
}

/** `?schema=` picks the PostgreSQL schema, as in Prisma's own URLs; pg itself does not know it. */
export function postgresTarget(url: string): { connectionString: string; schema: string } {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get("schema") ?? "public";
  if (!POSTGRES_SCHEMA.test(schema)) throw new Error(`invalid PostgreSQL schema name ${schema}`);
  parsed.searchParams.delete("schema");
  return { connectionString: parsed.toString(), schema };
}
