import { expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { changeEntries, entriesOf, type ListOwner } from "./lists.ts";

// A change meant to tighten lists (a pod key's send lists) is written as
// blocks added and allows taken away, not as a replacement: worked out from a
// read that another writer has since overtaken, it still never loosens.

const memory = memoryOfFile();
const instance: ListOwner = { scope: "instance" };

async function sendLists() {
  const entries = await entriesOf(memory.services, instance);
  const of = (kind: string) => entries.filter((e) => e.direction === "send" && e.kind === kind).map((e) => e.entry);
  return { allow: of("allow"), block: of("block") };
}

const send = (kind: "allow" | "block", entries: string[]) => ({ direction: "send" as const, kind, entries });

test("a tightening leaves a block added and an allow added since its read as they are", async () => {
  const at = () => {
    memory.clock.advance(1000);
    return memory.clock.now();
  };
  await changeEntries(memory.services, instance, { replace: [send("allow", ["a@x.example", "b@x.example"])] }, at());
  // Worked out from that read: block @rival.example, take away a@x.example's allow.
  const tighten = { direction: "send" as const, blocks: ["@rival.example"], droppedAllows: ["a@x.example"] };
  // Meanwhile the operator blocks @spam.example and allows c@x.example.
  const operator = { replace: [send("block", ["@spam.example"]), send("allow", ["b@x.example", "c@x.example"])] };
  await changeEntries(memory.services, instance, operator, at());
  await changeEntries(memory.services, instance, { replace: [], tighten }, at());
  expect(await sendLists()).toEqual({
    allow: ["b@x.example", "c@x.example"],
    block: ["@spam.example", "@rival.example"],
  });
  // Again, with the block now there: no conflict, nothing doubled.
  await changeEntries(memory.services, instance, { replace: [], tighten }, at());
  expect((await sendLists()).block).toEqual(["@spam.example", "@rival.example"]);
});
