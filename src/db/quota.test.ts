import { describe, expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import {
  deleteSendCountersBefore,
  giveSendBack,
  giveStorageBack,
  nextUtcMidnight,
  QUOTA_MAX,
  sendsOn,
  storageUsed,
  takeSend,
  takeStorage,
  utcDay,
} from "./quota.ts";

// The quota counters' conditional statements: a limit is never passed, by
// one request or by many at once, and nothing goes below zero.

const memory = memoryOfFile();

const DAY = "2026-11-20";

describe("the daily send counter", () => {
  test("takes up to the limit exactly, then refuses", async () => {
    const { sql } = memory.services;
    const agent = await memory.agent("counter");
    expect(await takeSend(sql, agent.id, DAY, 2)).toBe(true);
    expect(await takeSend(sql, agent.id, DAY, 2)).toBe(true);
    expect(await takeSend(sql, agent.id, DAY, 2)).toBe(false);
    expect(await sendsOn(sql, agent.id, DAY)).toBe(2);
    expect(await sendsOn(sql, agent.id, "2026-11-21")).toBe(0);
  });

  test("many sends at once take no more than the limit", async () => {
    const { sql } = memory.services;
    const agent = await memory.agent("racer");
    const taken = await Promise.all(Array.from({ length: 10 }, () => takeSend(sql, agent.id, DAY, 3)));
    expect(taken.filter(Boolean)).toHaveLength(3);
    expect(await sendsOn(sql, agent.id, DAY)).toBe(3);
  });

  test("a send given back frees its place; the count never goes below zero", async () => {
    const { sql } = memory.services;
    const agent = await memory.agent("giver");
    await takeSend(sql, agent.id, DAY, 1);
    await giveSendBack(sql, agent.id, DAY);
    await giveSendBack(sql, agent.id, DAY);
    expect(await sendsOn(sql, agent.id, DAY)).toBe(0);
    expect(await takeSend(sql, agent.id, DAY, 1)).toBe(true);
  });

  test("counters of days before a day are deleted", async () => {
    const { sql } = memory.services;
    const agent = await memory.agent("historian");
    await takeSend(sql, agent.id, "2026-11-18", 5);
    await takeSend(sql, agent.id, "2026-11-19", 5);
    expect(await deleteSendCountersBefore(memory.services, "2026-11-19")).toBeGreaterThanOrEqual(1);
    expect(await sendsOn(sql, agent.id, "2026-11-18")).toBe(0);
    expect(await sendsOn(sql, agent.id, "2026-11-19")).toBe(1);
  });

  test("days are UTC days; the reset is the next UTC midnight", () => {
    const lateEvening = new Date("2026-11-20T23:59:59.999Z");
    expect(utcDay(lateEvening)).toBe("2026-11-20");
    expect(nextUtcMidnight(lateEvening).toISOString()).toBe("2026-11-21T00:00:00.000Z");
    expect(nextUtcMidnight(new Date("2026-12-31T00:00:00Z")).toISOString()).toBe("2027-01-01T00:00:00.000Z");
  });
});

describe("the storage counter", () => {
  test("takes bytes up to the limit exactly, then refuses", async () => {
    const { sql } = memory.services;
    const agent = await memory.agent("filler");
    expect(await takeStorage(sql, agent.id, 600, 1_000)).toBe(true);
    expect(await takeStorage(sql, agent.id, 401, 1_000)).toBe(false);
    expect(await takeStorage(sql, agent.id, 400, 1_000)).toBe(true);
    expect(await takeStorage(sql, agent.id, 1, 1_000)).toBe(false);
    expect(await storageUsed(sql, agent.id)).toBe(1_000);
    await giveStorageBack(sql, agent.id, 400);
    expect(await storageUsed(sql, agent.id)).toBe(600);
  });

  test("many takes at once stay within the limit", async () => {
    const { sql } = memory.services;
    const agent = await memory.agent("crowd");
    const taken = await Promise.all(Array.from({ length: 8 }, () => takeStorage(sql, agent.id, 300, 1_000)));
    expect(taken.filter(Boolean)).toHaveLength(3);
    expect(await storageUsed(sql, agent.id)).toBe(900);
  });

  test("the largest limit the column holds is taken as given", async () => {
    const { sql } = memory.services;
    const agent = await memory.agent("vast");
    expect(await takeStorage(sql, agent.id, QUOTA_MAX, QUOTA_MAX)).toBe(true);
    expect(await takeStorage(sql, agent.id, 1, QUOTA_MAX)).toBe(false);
    expect(await storageUsed(sql, agent.id)).toBe(QUOTA_MAX);
  });

  test("an agent that is gone takes nothing", async () => {
    expect(await takeStorage(memory.services.sql, "ghost", 1, 1_000)).toBe(false);
    expect(await storageUsed(memory.services.sql, "ghost")).toBe(0);
  });
});
