import { availableParallelism } from "node:os";
import { defineConfig } from "vitest/config";

// Every test of the running service runs twice: once on SQLite, once on
// PostgreSQL. Unit tests beside the code run once.
export default defineConfig({
  // Node loads graphql's CommonJS build for every package; Vite would hand our
  // own files the ES build, and graphql refuses to meet a second copy of itself.
  resolve: { alias: [{ find: /^graphql$/, replacement: "graphql/index.js" }] },
  test: {
    // The tests mostly wait on peers (Dovecot's IDLE, SMTP, timers), not on the CPU: more files at once
    // than cores. Each file has its own database, mailboxes and ports, so files never share state.
    maxWorkers: Math.max(3, availableParallelism()),
    // A test waits for conditions, each with a deadline of its own; this only ends one that hangs, and
    // is long enough that a 2-core machine running both databases' files at once never reaches it working.
    testTimeout: 90_000,
    hookTimeout: 90_000,
    isolate: false,
    projects: [
      // Files share their worker's modules (no isolation): each would otherwise load Prisma, the parsers,
      // the domain and the service anew (a fifth of the suite's time on two cores). No module of the service
      // or of test/support keeps state between files, but for the next port freePort tries: each file starts
      // its own services and peers.
      { extends: true, test: { name: "unit", include: ["src/**/*.test.ts", "scripts/**/*.test.ts"] } },
      { extends: true, test: { name: "sqlite", include: ["test/**/*.test.ts"], env: { TEST_DATABASE: "sqlite" } } },
      {
        extends: true,
        test: { name: "postgresql", include: ["test/**/*.test.ts"], env: { TEST_DATABASE: "postgresql" } },
      },
    ],
  },
});
