import { PrismaBetterSQLite3 } from "@prisma/adapter-better-sqlite3";
import { defineConfig } from "prisma/config";

// The CLI only generates clients and diffs schemas here; it never touches a
// real database, so an in-memory SQLite adapter lets it run offline through
// the WebAssembly schema engine.
export default defineConfig({
  engine: "js",
  experimental: { adapter: true },
  schema: "prisma/schema.prisma",
  adapter: async () => new PrismaBetterSQLite3({ url: ":memory:" }),
});
