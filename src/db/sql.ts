import type { Database as SqliteDatabase } from "better-sqlite3";
import type pg from "pg";
import { advisoryKey } from "./advisory.ts";
import type { MailOwner } from "./emails.ts";
import {
  indexPostgresEmails,
  indexSqliteEmails,
  postgresSearch,
  type SearchClause,
  type SearchTerms,
  sqliteSearch,
} from "./search.ts";
import type { Lock } from "./sqlite-adapter.ts";
import { countStatement, type Dialect, type Param, type Row, type Tx } from "./statements.ts";

// Plain statements beside Prisma, for the reads every request makes (the
// caller's key, a page of mail, one email) and a few single-statement writes.
// Prisma compiles each model query anew; a prepared statement is a lookup.
// One SQL text serves both databases: `?` placeholders, double-quoted names.

/** The work that takes turns: appending events, claiming webhook deliveries, scheduled sends and review notices. */
export type TurnName = "events" | "webhook-claims" | "scheduled-sends" | "review-notices";

/** LIKE text (in lower case) for a literal piece, with its wildcards escaped: compared with ESCAPE '\\'. */
export const likeLiteral = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

export interface Sql extends Tx {
  /** Runs the work in one transaction: all of its writes or none. */
  transaction<T>(work: (tx: Tx) => Promise<T>): Promise<T>;
  /**
   * Inside a transaction, first: makes the transactions that take turns on
   * this name wait for each other until each commits, across instances.
   */
  takeTurns(tx: Tx, name: TurnName): Promise<void>;
  /** Full-text search over one agent's "Email" rows (or several agents'), as this database does it. */
  search(terms: SearchTerms, owner: MailOwner): SearchClause;
  /** Inside the transaction that files them: makes received emails searchable. */
  indexForSearch(tx: Tx, emails: Row[]): Promise<void>;
  /**
   * Leaves no copy of a value the table no longer holds in the database's own
   * files (its old rows, free pages, write-ahead log); false when part of that
   * could not be done (a reader held the SQLite log, or a PostgreSQL
   * transaction that might still read the old rows stayed open). Not in a transaction.
   */
  compact(table: string): Promise<boolean>;
  close(): Promise<void>;
}

/** A prepared statement, its parameters bound as SQLite takes them. */
interface Prepared {
  get(params: Param[]): Row | undefined;
  all(params: Param[]): Row[];
  run(params: Param[]): number;
}

const bind = (params: Param[]) => params.map((value) => (typeof value === "boolean" ? Number(value) : value));

/**
 * Rows come back as arrays and are made objects by a function of the
 * statement's own columns: better-sqlite3 builds each row object property
 * by property (a third of the key lookup's time), an object literal gives
 * every row of the statement one shape at once.
 */
function prepare(db: SqliteDatabase, text: string): Prepared {
  const statement = db.prepare(text);
  // One that returns no rows refuses get and all before a row is made.
  const columns = statement.reader ? statement.raw(true).columns() : [];
  const rowOf = rowMaker(columns.map(({ name }) => name));
  return {
    get: (params) => {
      const values = statement.get(...bind(params)) as unknown[] | undefined;
      return values && rowOf(values);
    },
    all: (params) => (statement.all(...bind(params)) as unknown[][]).map(rowOf),
    run: (params) => statement.run(...bind(params)).changes,
  };
}

/**
 * A row from its values in column order, as one object literal; a name given twice keeps its last value, as
 * before. The names are our columns and aliases (never `__proto__`, which a literal would take as the prototype).
 */
function rowMaker(columns: string[]): (values: unknown[]) => Row {
  const fields = columns.map((name, n) => `${JSON.stringify(name)}: values[${n}]`);
  return new Function("values", `return { ${fields.join(", ")} };`) as (values: unknown[]) => Row;
}

/** Each text prepared once per connection; each use counted for the request under way. */
function statementCache(db: SqliteDatabase) {
  const statements = new Map<string, Prepared>();
  return (text: string) => {
    countStatement(text);
    let statement = statements.get(text);
    if (!statement) {
      statement = prepare(db, text);
      statements.set(text, statement);
    }
    return statement;
  };
}

/**
 * SQLite: reads on a read-only connection of their own, which WAL lets run
 * beside the writer. Writes on a connection of their own too, but only while
 * holding the lock Prisma's statements and transactions take: a write that
 * met an open Prisma transaction would wait on SQLite's lock synchronously,
 * holding up the very event loop that transaction needs to finish.
 */
export function sqliteSql(reader: SqliteDatabase, writer: SqliteDatabase, lock: Lock): Sql {
  const read = statementCache(reader);
  const write = statementCache(writer);
  const dialect: Dialect = {
    // Prisma stores DateTime as ISO 8601 text, in UTC written +00:00.
    date: (value) => new Date(value as string),
    at: (date) => date.toISOString().replace("Z", "+00:00"),
    flag: (value) => value === 1,
    // Writers take turns already: a transaction holds the database's one write lock.
    forUpdate: "",
    forShare: "",
  };
  /** Reads inside a transaction go to the writer, which sees the transaction's own writes. */
  const inTransaction: Tx = {
    ...dialect,
    one: async (text, params) => write(text).get(params),
    all: async (text, params) => write(text).all(params),
    run: async (text, params) => write(text).run(params),
  };
  return {
    ...dialect,
    one: async (text, params) => read(text).get(params),
    all: async (text, params) => read(text).all(params),
    run: (text, params) => lock.run(async () => write(text).run(params)),
    transaction: (work) =>
      lock.run(async () => {
        write("BEGIN IMMEDIATE").run([]);
        try {
          const result = await work(inTransaction);
          write("COMMIT").run([]);
          return result;
        } catch (error) {
          write("ROLLBACK").run([]);
          throw error;
        }
      }),
    // Writers already take turns on SQLite.
    takeTurns: async () => {},
    search: sqliteSearch,
    indexForSearch: indexSqliteEmails,
    // SQLite rewrites the whole file: VACUUM writes every page anew, through
    // the log, and a TRUNCATE checkpoint moves them into the file and empties
    // the log. Deleted rows are gone from both.
    compact: () =>
      lock.run(async () => {
        writer.exec("VACUUM");
        const [result] = writer.pragma("wal_checkpoint(TRUNCATE)") as { busy: number }[];
        return result?.busy === 0;
      }),
    close: async () => {
      reader.close();
      writer.close();
    },
  };
}

/** timestamp(3) columns hold UTC; pg would read them as local time. */
function utcTimestamps(types: typeof pg.types) {
  return {
    getTypeParser: (oid: number, format?: "text" | "binary") =>
      oid === types.builtins.TIMESTAMP
        ? (value: string) => new Date(`${value.replace(" ", "T")}Z`)
        : types.getTypeParser(oid, format as "text"),
  };
}

/** Our statements' `?` as PostgreSQL's `$1`, `$2`, … */
export function numberedParams(text: string): string {
  let n = 0;
  return text.replace(/\?/g, () => `$${++n}`);
}

/** PostgreSQL: named prepared statements on the pool Prisma shares. */
export function postgresSql(pool: pg.Pool, types: typeof pg.types, schema: string): Sql {
  const names = new Map<string, { name: string; text: string }>();
  const statement = (text: string) => {
    let named = names.get(text);
    if (!named) {
      named = { name: `ph_${names.size}`, text: numberedParams(text) };
      names.set(text, named);
    }
    return named;
  };
  const parsers = utcTimestamps(types);
  const turnKeys: Record<TurnName, string> = {
    events: advisoryKey(schema, "events"),
    "webhook-claims": advisoryKey(schema, "webhook-claims"),
    "scheduled-sends": advisoryKey(schema, "scheduled-sends"),
    "review-notices": advisoryKey(schema, "review-notices"),
  };
  const dialect: Dialect = {
    date: (value) => value as Date,
    // timestamp without time zone takes the UTC digits and ignores the Z.
    at: (date) => date.toISOString(),
    flag: (value) => value === true,
    forUpdate: " FOR UPDATE",
    forShare: " FOR SHARE",
  };
  const on = (client: pg.Pool | pg.PoolClient): Tx => {
    const query = (text: string, params: Param[]) => {
      countStatement(text);
      // The spread last, as in createContext: a property added after one takes V8's slow path.
      return client.query<Row>({ values: params, types: parsers, ...statement(text) });
    };
    return {
      one: async (text, params) => (await query(text, params)).rows[0],
      all: async (text, params) => (await query(text, params)).rows,
      run: async (text, params) => (await query(text, params)).rowCount ?? 0,
      ...dialect,
    };
  };
  return {
    ...on(pool),
    async transaction(work) {
      const client = await pool.connect();
      try {
        await client.query("BEGIN");
        const result = await work(on(client));
        await client.query("COMMIT");
        return result;
      } catch (error) {
        await client.query("ROLLBACK").catch(() => {});
        throw error;
      } finally {
        client.release();
      }
    },
    // A lock held until commit; taking it again in the same transaction costs nothing.
    takeTurns: async (tx, name) => {
      await tx.one("SELECT pg_advisory_xact_lock(?::bigint)", [turnKeys[name]]);
    },
    search: postgresSearch,
    indexForSearch: indexPostgresEmails,
    // VACUUM FULL writes the table (its TOAST and indexes too) into new files and drops the old ones,
    // but copies the old versions of rows that a transaction still open in the database may read:
    // it runs once every transaction older than the change has ended, or the wait is over.
    compact: async (table) => {
      const ended = await olderTransactionsEnded(pool);
      await pool.query(`VACUUM FULL "${table}"`);
      return ended;
    },
    close: () => pool.end(),
  };
}

/** How long compacting waits for the database's older transactions to end. */
const COMPACT_WAIT_MS = 10_000;

/**
 * Waits until no other session of the database holds a snapshot or a
 * transaction id older than now (pg_stat_activity's backend_xmin, and
 * backend_xid: a READ COMMITTED transaction that has written and waits
 * between statements has no snapshot, yet VACUUM keeps what it may still
 * see; age() compares transaction ids across their wraparound); false when
 * one still did at the end of the wait.
 */
async function olderTransactionsEnded(pool: pg.Pool): Promise<boolean> {
  const now = await pool.query<{ xid: string }>(`SELECT (txid_current() % 4294967296)::text AS "xid"`);
  const deadline = Date.now() + COMPACT_WAIT_MS;
  for (;;) {
    const older = await pool.query<{ count: number }>(
      `SELECT count(*)::int AS "count" FROM pg_stat_activity WHERE datname = current_database()
        AND pid <> pg_backend_pid()
        AND (age(backend_xmin) > age($1::xid) OR age(backend_xid) > age($1::xid))`,
      [now.rows[0]?.xid],
    );
    if (older.rows[0]?.count === 0) return true;
    if (Date.now() >= deadline) return false;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/**
 * Deletes a table's matching rows a thousand at a time, so that no statement
 * holds the table for long; how many. Raw: Prisma's deleteMany cannot bound
 * how many rows one statement deletes.
 */
export async function deleteInBatches(sql: Sql, table: string, where: string, params: Param[]): Promise<number> {
  let deleted = 0;
  for (;;) {
    const count = await sql.run(
      `DELETE FROM "${table}" WHERE "id" IN (SELECT "id" FROM "${table}" WHERE ${where} LIMIT 1000)`,
      params,
    );
    deleted += count;
    if (count < 1000) return deleted;
  }
}
