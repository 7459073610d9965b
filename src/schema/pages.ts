import type { ObjectRef } from "@pothos/core";
import { ServiceError } from "../errors.ts";
import { builder } from "./builder.ts";

// The spec's paginated list: {data, total, limit, offset}, newest first.

const DEFAULT_PAGE_SIZE = 50;
const MAX_PAGE_SIZE = 100;

export interface Page<T> {
  data: T[];
  total: number;
  limit: number;
  offset: number;
}

/** limit defaults to 50 and is clamped to 100; below 1, or a negative offset, is a bad request. */
function pageWindow(limit?: number | null, offset?: number | null): { limit: number; offset: number } {
  if (limit != null && limit < 1) throw new ServiceError("BAD_REQUEST", "limit must be an integer of at least 1");
  if (offset != null && offset < 0) throw new ServiceError("BAD_REQUEST", "offset must be an integer of at least 0");
  return { limit: Math.min(limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE), offset: offset ?? 0 };
}

/** One page: the rows in the window and the count of all, read side by side. */
export async function loadPage<T>(
  args: { limit?: number | null; offset?: number | null },
  rows: (window: { skip: number; take: number }) => Promise<T[]>,
  count: () => Promise<number>,
): Promise<Page<T>> {
  const { limit, offset } = pageWindow(args.limit, args.offset);
  const [data, total] = await Promise.all([rows({ skip: offset, take: limit }), count()]);
  return { data, total, limit, offset };
}

export function pageType<T>(name: string, item: ObjectRef<typeof builder.$inferSchemaTypes, T>) {
  return builder.objectRef<Page<T>>(name).implement({
    fields: (t) => ({
      data: t.field({ type: [item], description: "Items of this page", resolve: (page) => page.data }),
      total: t.exposeInt("total", { description: "Items across all pages" }),
      limit: t.exposeInt("limit", { description: "Page size in effect" }),
      offset: t.exposeInt("offset", { description: "Items skipped" }),
    }),
  });
}
