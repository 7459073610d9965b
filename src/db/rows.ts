import type PrismaTypes from "../generated/pothos-types.ts";
import { getDatamodel } from "../generated/pothos-types.ts";
import type { Prisma } from "../generated/prisma/sqlite/client.ts";
import type { Dialect, Param, Row, Tx } from "./statements.ts";

// Our own statements' rows as Prisma hands the same rows back. The data
// model says which columns to name and which need converting (a date is
// text on SQLite, a flag 0 or 1, a big integer text on PostgreSQL), so a
// new column is read, converted, by every statement that reads its table.

export type Model = keyof PrismaTypes;
export type Shape<M extends Model> = PrismaTypes[M]["Shape"];

const { models } = getDatamodel().datamodel;

const scalarFields = (model: Model) =>
  (models[model]?.fields ?? []).filter((field) => field.kind === "scalar" || field.kind === "enum");

/** The model's columns, quoted, in the data model's order; with `table`, each named with it, for statements that join. */
export function columnsOf(model: Model, { table = false, omit = [] as string[] } = {}): string {
  return scalarFields(model)
    .filter((field) => !omit.includes(field.name))
    .map((field) => (table ? `"${model}"."${field.name}"` : `"${field.name}"`))
    .join(", ");
}

type Convert = (value: unknown, dialect: Dialect) => unknown;

const CONVERT: Record<string, Convert> = {
  DateTime: (value, dialect) => dialect.date(value),
  Boolean: (value, dialect) => dialect.flag(value),
  BigInt: (value) => BigInt(value as number | string),
  // JSON comes back as text: SQLite keeps it so, and Prisma's PostgreSQL adapter leaves jsonb unparsed.
  Json: (value) => (typeof value === "string" ? JSON.parse(value) : value),
};

const conversions = new Map<Model, [string, Convert][]>();

function conversionsOf(model: Model): [string, Convert][] {
  let found = conversions.get(model);
  if (!found) {
    found = scalarFields(model).flatMap((field): [string, Convert][] => {
      const convert = CONVERT[field.type];
      return convert ? [[field.name, convert]] : [];
    });
    conversions.set(model, found);
  }
  return found;
}

/** A Bytes column as the drivers read it (a Buffer on both), as a Buffer without copying it. */
export function bytesOf(value: unknown): Buffer {
  return Buffer.isBuffer(value) ? value : Buffer.from(value as Uint8Array);
}

/**
 * A row of the model as Prisma would hand it back; a column the statement did
 * not read stays out. A copy, not the driver's own object: better-sqlite3
 * hands rows in V8's dictionary mode, where every field read that follows is
 * a hash lookup; the copy is an ordinary object, one shape for every row.
 */
export function rowOf<M extends Model>(dialect: Dialect, model: M, row: Row): Shape<M> {
  const converted: Row = { ...row };
  for (const [name, convert] of conversionsOf(model)) {
    const value = row[name];
    if (value !== undefined && value !== null) converted[name] = convert(value, dialect);
  }
  return converted as Shape<M>;
}

/** Every row of the model, converted. */
export const rowsOf = <M extends Model>(dialect: Dialect, model: M, rows: Row[]): Shape<M>[] =>
  rows.map((row) => rowOf(dialect, model, row));

const jsonFields = new Map<Model, Set<string>>();

/** The model's Json fields, which a statement writes as JSON text (PostgreSQL casts it to jsonb). */
function jsonFieldsOf(model: Model): Set<string> {
  let found = jsonFields.get(model);
  if (!found) {
    found = new Set(scalarFields(model).flatMap((field) => (field.type === "Json" ? [field.name] : [])));
    jsonFields.set(model, found);
  }
  return found;
}

/** A value as a statement writes it to the model's column: a date as this database compares it, JSON as text. */
export function written(dialect: Dialect, model: Model, name: string, value: unknown): Param {
  if (value instanceof Date) return dialect.at(value);
  if (value !== null && value !== undefined && jsonFieldsOf(model).has(name)) return JSON.stringify(value);
  return value as Param;
}

/** Inserts a row of the model, naming each column the row has, each value as written() makes it. */
export const insertRow = <M extends Model>(tx: Tx, model: M, row: Partial<Shape<M>>): Promise<void> =>
  insertRows(tx, model, [row]);

/** The most rows one statement of insertRows writes. */
const MOST_ROWS = 64;

/**
 * Row counts of the statements that write `count` rows: powers of two, the
 * largest first, so that a table's statements have at most seven texts, each
 * prepared once per connection however batches vary.
 */
export function statementSizes(count: number): number[] {
  const sizes: number[] = [];
  for (let left = count; left > 0; ) {
    const size = Math.min(MOST_ROWS, 2 ** Math.floor(Math.log2(left)));
    sizes.push(size);
    left -= size;
  }
  return sizes;
}

/** The items in order, cut in the sizes statementSizes gives: one statement's rows each. */
export function* statementChunks<T>(items: T[]): Generator<T[]> {
  let at = 0;
  for (const size of statementSizes(items.length)) {
    yield items.slice(at, at + size);
    at += size;
  }
}

/**
 * Inserts rows of the model, all naming the columns of the first, in as few
 * statements as statementChunks cuts them. Raw: Prisma's createMany is a
 * statement of its own outside our transactions, and hands back no rows on SQLite.
 */
export async function insertRows<M extends Model>(tx: Tx, model: M, rows: Partial<Shape<M>>[]): Promise<void> {
  const [first] = rows;
  if (!first) return;
  const names = Object.keys(first);
  const columns = names.map((name) => `"${name}"`).join(", ");
  const tuple = `(${names.map(() => "?").join(", ")})`;
  for (const chunk of statementChunks(rows)) {
    const values = chunk.flatMap((row) => names.map((name) => written(tx, model, name, row[name as keyof typeof row])));
    await tx.run(`INSERT INTO "${model}" (${columns}) VALUES ${chunk.map(() => tuple).join(", ")}`, values);
  }
}

/**
 * A value for a Json field, as Prisma takes it: its input type asks for index
 * signatures, which the domain's interfaces (a record check, a kept answer) do
 * not declare.
 */
export const jsonInput = (value: object): Prisma.InputJsonValue => value as Prisma.InputJsonValue;
