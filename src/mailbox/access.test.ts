import { expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { assertOwns, assertVerified } from "./access.ts";
import { createAgent } from "./agents.ts";
import { UNVERIFIED_LIFETIME_MS } from "./lifetimes.ts";

// Who may act on which agent: its own key only; another agent is 403, a
// missing or expired one 404; and only a verified agent sends and receives.

const memory = memoryOfFile({ VERIFICATION_MODE: "social" });

test("a key acts on its own agent, named in any case", async () => {
  const agent = await memory.agent("Owner");
  await assertOwns(memory.services, agent, "owner");
  await assertOwns(memory.services, agent, "OWNER");
});

test("another agent is 403; a missing one, or one expired unverified, is 404", async () => {
  const agent = await memory.agent("caller");
  await memory.agent("neighbour");
  await expect(assertOwns(memory.services, agent, "neighbour")).rejects.toMatchObject({ kind: "FORBIDDEN" });
  await expect(assertOwns(memory.services, agent, "nobody")).rejects.toMatchObject({
    kind: "NOT_FOUND",
    message: "Agent nobody not found",
  });
  await createAgent(memory.services, { id: "lapsing", name: "L" }, "self");
  memory.clock.advance(UNVERIFIED_LIFETIME_MS + 1);
  await expect(assertOwns(memory.services, agent, "lapsing")).rejects.toMatchObject({ kind: "NOT_FOUND" });
});

test("an unverified agent is refused with NOT_VERIFIED", async () => {
  const { agent } = await createAgent(memory.services, { id: "fresh", name: "F" }, "self");
  expect(() => assertVerified(agent)).toThrow(expect.objectContaining({ details: { code: "NOT_VERIFIED" } }));
  expect(() => assertVerified({ ...agent, verifiedAt: memory.clock.now() })).not.toThrow();
});
