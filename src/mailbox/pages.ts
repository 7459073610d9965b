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

/** limit defaults to 50 and is clamped to 100; below 1, or a negative offset, is a bad request. */
export function pageWindow({ limit, offset }: PageRequest): { limit: number; offset: number } {
  if (limit != null && limit < 1) throw new ServiceError("BAD_REQUEST", "limit must be an integer of at least 1");
  if (offset != null && offset < 0) throw new ServiceError("BAD_REQUEST", "offset must be an integer of at least 0");
  return { limit: Math.min(limit ?? DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE), offset: offset ?? 0 };
}

export type { Position, SliceRequest };
