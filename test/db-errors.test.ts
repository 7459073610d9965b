import { afterAll, beforeAll, expect, test } from "vitest";
import { type Database, openDatabase } from "../src/db/client.ts";
import { isUniqueViolation, isVanishedRow } from "../src/db/errors.ts";
import { migrate } from "../src/db/migrate.ts";
import { freshDatabase, type TestDatabase } from "./support/service.ts";

// What each database's driver says when a write meets a row deleted
// meanwhile, or a taken key: the codes the doors turn into 404 and 409.

let target: TestDatabase;
let database: Database;

beforeAll(async () => {
  target = freshDatabase();
  database = await openDatabase(target.url);
  await migrate(database);
});
afterAll(async () => {
  await database.close();
  await target.drop();
});

const refusal = (write: Promise<unknown>) =>
  write.then(
    () => null,
    (error: unknown) => error,
  );

test("a row pointing at an agent deleted meanwhile is a vanished row, not a fault", async () => {
  const error = await refusal(
    database.sql.run(`INSERT INTO "SendCounter" ("agentId", "day", "count") VALUES (?, ?, ?)`, [
      "gone",
      "2026-11-24",
      1,
    ]),
  );
  expect(error).not.toBeNull();
  expect(isVanishedRow(error)).toBe(true);
  expect(isUniqueViolation(error)).toBe(false);
});
