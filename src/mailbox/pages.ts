import type { Position, SliceRequest } from "../db/pages.ts";
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

/** A limit below 1, in the words a limit that is no integer is refused with. */
export const LIMIT_PROBLEM = "Invalid limit: expected an integer of at least 1";

/** limit defaults to 50 and is clamped to 100; below 1, or a negative offset, is a bad request. */
function pageWindow({ limit, offset }: PageRequest): { limit: number; offset: number } {
  if (limit != null && limit < 1) throw new ServiceError("BAD_REQUEST", LIMIT_PROBLEM);
  if (offset != null && offset < 0)
    throw new ServiceError("BAD_REQUEST", "Invalid offset: expected an integer of at least 0");
  return { limit: Math.min(limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE), offset: offset ?? 0 };
}

export type { Position, SliceRequest };

/** A page the store reads in the request's window, once the window is checked; answered with that window. */
export async function readPage<T>(
  request: PageRequest,
  read: (window: { limit: number; offset: number }) => Promise<{ data: T[]; total: number }>,
): Promise<Page<T>> {
  const window = pageWindow(request);
  return { ...(await read(window)), ...window };
}
