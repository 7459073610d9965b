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

/** A slice's bounds as Prisma conditions on a time column and the id: (time, id) past the positions. */
export function keysetWhere<T extends string>(time: T, { after, before }: SliceRequest) {
  const past = (position: Position, op: "lt" | "gt") => ({
    OR: [{ [time]: { [op]: position.at } }, { [time]: position.at, id: { [op]: position.id } }],
  });
  return [...(after ? [past(after, "lt")] : []), ...(before ? [past(before, "gt")] : [])];
}
