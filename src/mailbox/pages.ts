import type { Position, SliceRequest } from "../db/pages.ts";
import type { RankedSearch } from "../db/search.ts";
import type { Param, Row, Sql } from "../db/sql.ts";
import { ServiceError } from "../errors.ts";

// The spec's paginated list: {data, total, limit, offset}, newest first.

export const DEFAULT_PAGE_SIZE = 50;
export const MAX_PAGE_SIZE = 100;

export interface Page<T> {
  data: T[];
  total: number;
  limit: number;
  offset: number;
}

export interface PageRequest {
  limit?: number | null;
  offset?: number | null;
}

/** limit defaults to 50 and is clamped to 100; below 1, or a negative offset, is a bad request. */
export function pageWindow({ limit, offset }: PageRequest): { limit: number; offset: number } {
  if (limit != null && limit < 1) throw new ServiceError("BAD_REQUEST", "limit must be an integer of at least 1");
  if (offset != null && offset < 0) throw new ServiceError("BAD_REQUEST", "offset must be an integer of at least 0");
  return { limit: Math.min(limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE), offset: offset ?? 0 };
}

export type { Position, SliceRequest };

/** Which rows a page reads: a table (and what it joins), the rows' condition, and their order. */
export interface PageQuery {
  table: string;
  join?: string;
  columns: string;
  where: string;
  params: Param[];
  order: string;
  orderParams?: Param[];
}

/** One offset page: the rows in the window and the count of all, read side by side. */
export async function offsetPage(sql: Sql, query: PageQuery, request: PageRequest): Promise<Page<Row>> {
  const { limit, offset } = pageWindow(request);
  const { table, join = "", columns, where, params, order, orderParams = [] } = query;
  const from = `FROM "${table}" ${join} WHERE ${where}`;
  const [rows, count] = await Promise.all([
    sql.all(`SELECT ${columns} ${from} ORDER BY ${order} LIMIT ? OFFSET ?`, [...params, ...orderParams, limit, offset]),
    sql.one(`SELECT COUNT(*) AS "n" ${from}`, params),
  ]);
  return { data: rows, total: Number(count?.n), limit, offset };
}

/** One offset page found through a search index: its rows best first, and the count of every match. */
export async function rankedPage(sql: Sql, ranked: RankedSearch, columns: string, request: PageRequest) {
  const { limit, offset } = pageWindow(request);
  const page = ranked.page(columns, limit, offset);
  const [rows, count] = await Promise.all([
    sql.all(page.text, page.params),
    sql.one(ranked.count.text, ranked.count.params),
  ]);
  return { data: rows, total: Number(count?.n), limit, offset };
}

/** Which rows a slice reads from: the columns, the time column, and the rows' own condition. */
export interface Keyset {
  select: string;
  time: string;
  where: string;
  params: Param[];
}

/**
 * One slice by keyset: as fast on the thousandth page as on the first,
 * since the index takes it straight to the position.
 */
export function keysetSlice(
  sql: Sql,
  keyset: Keyset,
  { after, before, limit, inverted }: SliceRequest,
): Promise<Row[]> {
  const key = `("${keyset.time}", "id")`;
  const conditions = [keyset.where];
  const params = [...keyset.params];
  if (after) {
    conditions.push(`${key} < (?, ?)`);
    params.push(sql.at(after.at), after.id);
  }
  if (before) {
    conditions.push(`${key} > (?, ?)`);
    params.push(sql.at(before.at), before.id);
  }
  const direction = inverted ? "ASC" : "DESC";
  const order = `ORDER BY "${keyset.time}" ${direction}, "id" ${direction}`;
  return sql.all(`${keyset.select} WHERE ${conditions.join(" AND ")} ${order} LIMIT ?`, [...params, limit]);
}
