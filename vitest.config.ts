import { defineConfig } from "vitest/config";

// Every test file runs twice: once on SQLite, once on PostgreSQL.
export default defineConfig({
  // Node loads graphql's CommonJS build for every package; Vite would hand our
  // own files the ES build, and graphql refuses to meet a second copy of itself.
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    include: ["test/**/*.test.ts"],
    testTimeout: 30_000,
    hookTimeout: 60_000,
    projects: [
      { extends: true, test: { name: "sqlite", env: { TEST_DATABASE: "sqlite" } } },
      { extends: true, test: { name: "postgresql", env: { TEST_DATABASE: "postgresql" } } },
    ],
  },
});
