import type { Row } from "./statements.ts";

// What a read of a page or a slice takes, whatever it reads: a window of an
// offset page, or a keyset slice from a position in newest-first order.

export interface Window {
  limit: number;
  offset: number;
}

/** Where an item stands in newest-first order: its time, then its id. */
export interface Position {
  at: Date;
  id: string;
}

/** A slice in keyset order: items after (or before) a position, newest first. */
export interface SliceRequest {
  after?: Position | null;
  before?: Position | null;
  limit: number;
  /** Read oldest first (for `last`), the caller turns them back. */
  inverted: boolean;
}

type Bound<V> = { lt?: V; gt?: V };

/** A slice's bounds as Prisma conditions on a time column and the id: (time, id) past the positions. */
function keysetWhere<T extends string>(time: T, { after, before }: SliceRequest) {
  const past = (position: Position, op: "lt" | "gt") => ({
    OR: [
      { [time]: { [op]: position.at } } as Record<T, Bound<Date>>,
      { [time]: position.at, id: { [op]: position.id } } as Record<T, Date> & { id: Bound<string> },
    ],
  });
  return [...(after ? [past(after, "lt")] : []), ...(before ? [past(before, "gt")] : [])];
}

/** A slice as Prisma reads it: the scope's items past the positions, in (time, id) order, newest first unless inverted. */
export function keysetArgs<T extends string, Scope>(time: T, scope: Scope, slice: SliceRequest) {
  const order: "asc" | "desc" = slice.inverted ? "asc" : "desc";
  const orderBy = [{ [time]: order } as Record<T, "asc" | "desc">, { id: order }];
  return { where: { AND: [scope, ...keysetWhere(time, slice)] }, orderBy, take: slice.limit };
}

/** An offset window as Prisma takes it. */
export function rangeOf({ limit, offset }: Window): { take: number; skip: number } {
  return { take: limit, skip: offset };
}

/** What a `SELECT COUNT(*) AS "n"` statement counted. */
export const countOf = (row: PromiseLike<Row | undefined>): PromiseLike<number> =>
  row.then((found) => Number(found?.n));

/** How many times a page and its count that disagree are read before the last reading is answered. */
const PAGE_READINGS = 3;

/**
 * Whether a page and a count can be of one moment: the page holds what the
 * count leaves past the offset, up to the window's limit.
 */
export function agree({ limit, offset }: Window, rows: number, total: number): boolean {
  return rows === Math.min(limit, Math.max(0, total - offset));
}

/**
 * An offset page: its rows and how many there are in all, read at once. They
 * are two statements, each with its own view of the store (on PostgreSQL, two
 * connections), so mail filed or deleted between them can make them disagree
 * (a count of 3 beside an empty page); then both are read again, a few times
 * at most. Two that agree cost nothing more.
 */
export async function pageOf<T>(window: Window, read: () => [PromiseLike<T[]>, PromiseLike<number>]) {
  for (let reading = 1; ; reading++) {
    const [data, total] = await Promise.all(read());
    if (reading === PAGE_READINGS || agree(window, data.length, total)) return { data, total };
  }
}
