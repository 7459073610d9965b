import type {
  IsolationLevel,
  SqlDriverAdapter,
  SqlDriverAdapterFactory,
  SqlQuery,
  Transaction,
} from "@prisma/driver-adapter-utils";
import { requestScope } from "../log.ts";

// The one count of the statements a request sends to the database: Prisma's,
// as they pass through its driver adapter, and our own (sql.ts). Each request's
// log line carries it; tests hold GraphQL's nested reads to it. Opening and
// ending a transaction does not count.

const TRANSACTION_CONTROL = /^\s*(?:BEGIN|COMMIT|ROLLBACK)\b/i;

/** One statement, counted for the request under way (none is under way for the poller or the jobs). */
export function countStatement(text: string): void {
  const scope = requestScope.getStore();
  if (scope && !TRANSACTION_CONTROL.test(text)) scope.statements++;
}

export type Param = string | number | boolean | null | Uint8Array;
export type Row = Record<string, unknown>;

/**
 * The condition that a column holds one of the values: `= ?` for one, never true for none, else an IN list
 * padded as inList pads it (a batch's lists of any length make a few texts).
 */
export function oneOf(column: string, values: string | readonly string[]): { where: string; params: Param[] } {
  if (typeof values === "string") return { where: `${column} = ?`, params: [values] };
  if (values.length === 0) return { where: "1 = 0", params: [] };
  const { list, params } = inList(values);
  return { where: `${column} IN (${list})`, params };
}

/** The longest IN list padded: longer ones are rare, and doubled they would near SQLite's 32,766 parameters. */
const PADDED_UP_TO = 1024;

/**
 * An IN list's placeholders and values for a list of any length: padded to a
 * power of two with its last value (IN is the same with it twice), so that
 * lists of a batch's length make a few texts, each prepared once per connection.
 */
export function inList(values: readonly string[]): { list: string; params: string[] } {
  const n = values.length;
  const size = n <= 1 || n > PADDED_UP_TO ? n : 2 ** Math.ceil(Math.log2(n));
  const params = [...values, ...Array<string>(size - values.length).fill(values.at(-1) as string)];
  return { list: params.map(() => "?").join(", "), params };
}

/** Statements: alone, or inside one transaction. */
export interface Statements {
  /** The first row, or undefined. */
  one(text: string, params: Param[]): Promise<Row | undefined>;
  all(text: string, params: Param[]): Promise<Row[]>;
  /** A write; the number of rows it changed. */
  run(text: string, params: Param[]): Promise<number>;
}

/** How this database writes and hands back what SQL text alone does not say. */
export interface Dialect {
  /** A DateTime column as this database hands it back. */
  date(value: unknown): Date;
  /** A DateTime as a parameter this database compares with its column. */
  at(date: Date): string;
  /** A Boolean column as this database hands it back. */
  flag(value: unknown): boolean;
  /** Appended to a SELECT in a transaction: locks its rows until commit, so that checks made under it hold. */
  forUpdate: string;
  /**
   * Appended to a SELECT in a transaction: keeps its rows from being changed until commit, while other
   * transactions may read them so too; a change already under way is waited for, and read once committed.
   */
  forShare: string;
}

/** Statements with the dialect they are written in: alone, or one transaction's. */
export interface Tx extends Statements, Dialect {}

type Queries = Pick<SqlDriverAdapter, "queryRaw" | "executeRaw">;

function counting(queries: Queries): Queries {
  return {
    queryRaw: (query: SqlQuery) => {
      countStatement(query.sql);
      return queries.queryRaw(query);
    },
    executeRaw: (query: SqlQuery) => {
      countStatement(query.sql);
      return queries.executeRaw(query);
    },
  };
}

function countingTransaction(transaction: Transaction): Transaction {
  return {
    provider: transaction.provider,
    adapterName: transaction.adapterName,
    options: transaction.options,
    ...counting(transaction),
    commit: () => transaction.commit(),
    rollback: () => transaction.rollback(),
  };
}

function countingAdapter(adapter: SqlDriverAdapter): SqlDriverAdapter {
  return {
    provider: adapter.provider,
    adapterName: adapter.adapterName,
    ...counting(adapter),
    executeScript: (script: string) => adapter.executeScript(script),
    startTransaction: async (isolationLevel?: IsolationLevel) =>
      countingTransaction(await adapter.startTransaction(isolationLevel)),
    getConnectionInfo: adapter.getConnectionInfo?.bind(adapter),
    dispose: () => adapter.dispose(),
  };
}

/** A driver adapter factory whose connections count what they send. */
export function countingFactory(factory: SqlDriverAdapterFactory): SqlDriverAdapterFactory {
  return {
    provider: factory.provider,
    adapterName: factory.adapterName,
    connect: async () => countingAdapter(await factory.connect()),
  };
}
