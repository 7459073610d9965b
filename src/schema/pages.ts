import type { ObjectRef } from "@pothos/core";
import { queryFromInfo } from "@pothos/plugin-prisma";
import { resolveCursorConnection } from "@pothos/plugin-relay";
import type { GraphQLResolveInfo } from "graphql";
import { ServiceError } from "../errors.ts";
import { DEFAULT_PAGE_SIZE, MAX_PAGE_SIZE, type Page, type Position, type SliceRequest } from "../mailbox/pages.ts";
import { builder } from "./builder.ts";

// The spec's page ({data, total, limit, offset}) and cursor connections over
// the domain's keyset slices, with what each costs.

/** Pothos' default for a connection without first or last. */
const DEFAULT_CONNECTION_SIZE = 20;

/** The bounds of a list's limit, read by REST's and MCP's checks: more than the most is clamped, not refused. */
export const LIMIT_EXTENSIONS = { minimum: 1 };

/** A page's size and start, as every list takes them. */
export const pageArgs = builder.args((t) => ({
  limit: t.int({
    description: `At most this many (default ${DEFAULT_PAGE_SIZE}; more than ${MAX_PAGE_SIZE} gives ${MAX_PAGE_SIZE})`,
    extensions: LIMIT_EXTENSIONS,
  }),
  offset: t.int({ description: "Skip this many first (default 0)", extensions: { minimum: 0 } }),
}));

/** What a page costs: its items, as many as its limit lets through. */
export function pageCost(args: { limit?: number | null }) {
  return { field: 1, multiplier: Math.min(Math.max(args.limit ?? DEFAULT_PAGE_SIZE, 0), MAX_PAGE_SIZE) };
}

/** What a cursor connection costs: as many edges as first or last asks for. */
export function connectionCost(args: { first?: number | null; last?: number | null }) {
  const size = args.first ?? args.last ?? DEFAULT_CONNECTION_SIZE;
  return { field: 1, multiplier: Math.min(Math.max(size, 0), MAX_PAGE_SIZE) };
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

/** A position as the opaque cursor a client holds: base64url of "ms:id". */
const encodeCursor = ({ at, id }: Position) => Buffer.from(`${at.getTime()}:${id}`).toString("base64url");

function decodeCursor(cursor: string | undefined): Position | null {
  if (cursor === undefined) return null;
  const match = /^(\d{1,15}):(.+)$/s.exec(Buffer.from(cursor, "base64url").toString());
  if (!match) throw new ServiceError("BAD_REQUEST", "Invalid cursor: use a cursor this API handed out");
  return { at: new Date(Number(match[1])), id: match[2] as string };
}

/** A connection over keyset slices: the domain reads after or before a position. */
export function connectionOf<T>(
  args: { first?: number | null; last?: number | null; after?: string | null; before?: string | null },
  positionOf: (item: T) => Position,
  slice: (request: SliceRequest) => Promise<T[]>,
) {
  return resolveCursorConnection<Promise<T[]>>(
    { args, toCursor: (item) => encodeCursor(positionOf(item)), maxSize: MAX_PAGE_SIZE },
    ({ after, before, limit, inverted }) =>
      slice({ after: decodeCursor(after), before: decodeCursor(before), limit, inverted }),
  );
}

/** The Prisma selection beneath a page's items. */
export function pageQuery(context: object, info: GraphQLResolveInfo) {
  return queryFromInfo({ context, info, path: ["data"] });
}

/** The Prisma selection beneath a connection's nodes, however the client reaches them. */
export function nodesQuery(context: object, info: GraphQLResolveInfo) {
  return queryFromInfo({ context, info, paths: [["edges", "node"], ["nodes"]] });
}
