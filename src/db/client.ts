import { mkdirSync } from "node:fs";
import { dirname } from "node:path";
import { PrismaPg } from "@prisma/adapter-pg";
import { POSTGRES_SCHEMA } from "../config.ts";
import { PrismaClient } from "../generated/prisma/sqlite/client.ts";
import { serializedSqlite } from "./sqlite-adapter.ts";

// Both generated clients come from the same models, so the SQLite client's
// type describes either one.
export type Db = PrismaClient;
export type Provider = "sqlite" | "postgresql";

/**
 * For every interactive transaction. On SQLite they take turns on the one
 * connection, so waiting for a start must allow for a poller's batch.
 */
export const TRANSACTION = { maxWait: 30_000, timeout: 60_000 };

/** What an interactive transaction's callback is handed. */
export type Tx = Parameters<Parameters<Db["$transaction"]>[0]>[0];

export interface Database {
  prisma: Db;
  provider: Provider;
  /** The PostgreSQL schema the tables live in. */
  schema?: string;
}

export async function openDatabase(url: string): Promise<Database> {
  if (url.startsWith("file:")) {
    mkdirSync(dirname(url.slice("file:".length)), { recursive: true });
    const prisma = new PrismaClient({ adapter: serializedSqlite(url) });
    // WAL lets readers go on beside the writer. NORMAL syncs at checkpoints only:
    // a power cut can lose the last commits, but each batch takes its mailbox
    // cursor with it, so that mail is read again, not lost.
    await prisma.$queryRawUnsafe("PRAGMA journal_mode = WAL");
    await prisma.$executeRawUnsafe("PRAGMA synchronous = NORMAL");
    return { provider: "sqlite", prisma };
  }
  // Loaded only when used: each generated client carries its own query compiler.
  const { PrismaClient: PostgresClient } = await import("../generated/prisma/postgresql/client.ts");
  const { connectionString, schema } = postgresTarget(url);
  const adapter = new PrismaPg({ connectionString, options: `-c search_path="${schema}"` }, { schema });
  return { provider: "postgresql", schema, prisma: new PostgresClient({ adapter }) as unknown as Db };
}

/** `?schema=` picks the PostgreSQL schema, as in Prisma's own URLs; pg itself does not know it. */
export function postgresTarget(url: string): { connectionString: string; schema: string } {
  const parsed = new URL(url);
  const schema = parsed.searchParams.get("schema") ?? "public";
  if (!POSTGRES_SCHEMA.test(schema)) throw new Error(`invalid PostgreSQL schema name ${schema}`);
  parsed.searchParams.delete("schema");
  return { connectionString: parsed.toString(), schema };
}
