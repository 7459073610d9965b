import { expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { getSenders, senderAllowed, setSenders } from "./senders.ts";

const memory = memoryOfFile();

test("lists are kept in lower case, each entry once, and replaced whole", async () => {
  const agent = await memory.agent("lists");
  expect(await getSenders(memory.services, agent)).toEqual({ allow: [], block: [] });
  const set = await setSenders(memory.services, agent, { allow: ["Pat@X.example", "pat@x.example", "@Y.example"] });
  expect(set).toEqual({ allow: ["pat@x.example", "@y.example"], block: [] });
  await setSenders(memory.services, agent, { block: ["spam@z.example"] });
  expect(await getSenders(memory.services, agent)).toEqual({ allow: [], block: ["spam@z.example"] });
});

test.each([
  [{ allow: ["not an address"] }, /allow: "not an address" is not an address or @domain/],
  [{ block: ["@"] }, /block: "@" is not/],
  [{ allow: Array.from({ length: 1001 }, (_, n) => `a${n}@x.example`) }, /at most 1000 entries/],
])("%#: a bad list is refused whole", async (lists, message) => {
  const agent = await memory.agent(`bad${Math.random().toString(36).slice(2, 8)}`);
  await expect(setSenders(memory.services, agent, lists)).rejects.toThrow(message);
  expect(await getSenders(memory.services, agent)).toEqual({ allow: [], block: [] });
});

test("an agent that is gone has no lists", async () => {
  await expect(getSenders(memory.services, { id: "ghost" })).rejects.toMatchObject({ kind: "NOT_FOUND" });
  await expect(setSenders(memory.services, { id: "ghost" }, {})).rejects.toMatchObject({ kind: "NOT_FOUND" });
});

test.each([
  [{ allow: [], block: [] }, "anyone@x.example", true],
  [{ allow: ["@x.example"], block: [] }, "Someone@X.example", true],
  [{ allow: ["@x.example"], block: [] }, "someone@notx.example", false],
  [{ allow: ["@x.example"], block: ["bad@x.example"] }, "bad@x.example", false],
  [{ allow: [], block: ["@spam.example"] }, "a@spam.example", false],
])("%j: %s may mail the agent: %s", (lists, address, allowed) => {
  expect(senderAllowed(lists, address)).toBe(allowed);
});
