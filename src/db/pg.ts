import { createRequire } from "node:module";
import type pg from "pg";

// pg, loaded when PostgreSQL's first connection of our own is made: an
// instance on SQLite never loads it. Required rather than imported, so that
// the connection is still made in the same turn as before.

const require = createRequire(import.meta.url);

export function pgModule(): typeof pg {
  return require("pg") as typeof pg;
}
