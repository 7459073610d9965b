import { expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { claimKey, forgetKeys, keepAnswer, keptKey, releaseKey, takeKeyOver } from "./idempotency.ts";

// Idempotency keys in the store: claimed once per agent, the first answer
// kept, and a stale key taken over by one retry only.

const memory = memoryOfFile();

test("a key is claimed once per agent; the answer kept is the one read back", async () => {
  const agent = await memory.agent("claimer");
  const other = await memory.agent("other");
  const now = memory.clock.now();
  const claims = await Promise.all(Array.from({ length: 5 }, () => claimKey(memory.services, agent.id, "k", "f", now)));
  expect(claims.filter(Boolean)).toHaveLength(1);
  expect(await claimKey(memory.services, other.id, "k", "f", now)).toBe(true);
  await keepAnswer(memory.services, agent.id, "k", 201, { value: 1 });
  expect(await keptKey(memory.services, agent.id, "k")).toMatchObject({
    fingerprint: "f",
    status: 201,
    answer: { value: 1 },
    createdAt: now,
  });
});

test("of two retries taking over a stale key, one wins", async () => {
  const agent = await memory.agent("retrier");
  await claimKey(memory.services, agent.id, "stale", "old", memory.clock.now());
  const stale = await keptKey(memory.services, agent.id, "stale");
  if (!stale) throw new Error("the key was not kept");
  memory.clock.advance(1_000);
  const later = memory.clock.now();
  const taken = await Promise.all([
    takeKeyOver(memory.services, stale, "new-1", later),
    takeKeyOver(memory.services, stale, "new-2", later),
  ]);
  expect(taken.filter(Boolean)).toHaveLength(1);
  expect(await keptKey(memory.services, agent.id, "stale")).toMatchObject({ status: null, answer: null });
});

test("a released key may be claimed again; keys made before a time are forgotten", async () => {
  const agent = await memory.agent("forgetful");
  await claimKey(memory.services, agent.id, "r", "f", memory.clock.now());
  await releaseKey(memory.services, agent.id, "r");
  expect(await claimKey(memory.services, agent.id, "r", "f", memory.clock.now())).toBe(true);
  memory.clock.advance(1);
  expect(await forgetKeys(memory.services, memory.clock.now())).toBeGreaterThanOrEqual(1);
  expect(await keptKey(memory.services, agent.id, "r")).toBeNull();
});
