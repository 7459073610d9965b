import { expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { lease } from "./lease.ts";
import { processTakeover, type Takeover } from "./takeover.ts";

// Leases: one holder at a time, renewed while it lives, taken over when it
// expires or its holder's process is gone.

const memory = memoryOfFile();

const TTL = 30_000;
const leaseOf = (name: string, takeover: Takeover = processTakeover()) =>
  lease(memory.services.sql, memory.clock, name, takeover, TTL);

/** A holder whose process is not running (no pid is this high), which took a free lease. */
const deadHolder: Takeover = {
  holder: () => "2147483646:gone",
  mayTake: async (_lease, holder) => holder === null,
  close: async () => {},
};

/** A claimant that is not the live one (on PostgreSQL: another holds the lease's lock). */
const notLive: Takeover = { holder: () => "elsewhere", mayTake: async () => false, close: async () => {} };

test("one holder at a time; the holder renews; another takes it once it expires", async () => {
  const a = leaseOf("job");
  const b = leaseOf("job");
  expect(await a.acquire()).toBe(true);
  expect(await b.acquire()).toBe(false);
  memory.clock.advance(TTL - 1);
  expect(await a.acquire()).toBe(true);
  memory.clock.advance(TTL - 1);
  expect(await b.acquire()).toBe(false);
  memory.clock.advance(2);
  expect(await b.acquire()).toBe(true);
  expect(await a.acquire()).toBe(false);
});

test("confirming in a transaction extends the lease, and fails once it was lost", async () => {
  const a = leaseOf("confirmed");
  const b = leaseOf("confirmed");
  await a.acquire();
  memory.clock.advance(TTL - 1);
  expect(await memory.services.sql.transaction((tx) => a.confirm(tx))).toBe(true);
  memory.clock.advance(TTL - 1);
  expect(await b.acquire()).toBe(false);
  memory.clock.advance(TTL);
  expect(await b.acquire()).toBe(true);
  expect(await memory.services.sql.transaction((tx) => a.confirm(tx))).toBe(false);
});

test("a holder whose process is gone is taken over at once", async () => {
  expect(await leaseOf("orphaned", deadHolder).acquire()).toBe(true);
  expect(await leaseOf("orphaned").acquire()).toBe(true);
});

test("a released lease is free at once; a free lease goes to a live claimant only", async () => {
  const a = leaseOf("released");
  await a.acquire();
  await a.release();
  expect(await leaseOf("released", notLive).acquire()).toBe(false);
  expect(await leaseOf("released").acquire()).toBe(true);
});
