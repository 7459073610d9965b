import { expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { forgetDelivery, rememberDelivery } from "./filing.ts";

// Filing exactly once: the record of delivery is the one place a message is
// known to have reached an agent, whatever instance or retry files it.

const memory = memoryOfFile();

test("a delivery is remembered once, and forgotten when its message was not kept", async () => {
  const agent = await memory.agent("remembered");
  const remember = () => memory.services.sql.transaction((tx) => rememberDelivery(tx, agent.id, "message-id:abc"));
  expect(await remember()).toBe(true);
  expect(await remember()).toBe(false);
  await memory.services.sql.transaction((tx) => forgetDelivery(tx, agent.id, "message-id:abc"));
  expect(await remember()).toBe(true);
});
