import { expect, test } from "vitest";
import { memoryOfFile, rawMessage } from "../testing/memory.ts";
import { cleanUp, emptyTrash, trimEvents } from "./cleanup.ts";
import { deleteEmail, listEmails } from "./emails.ts";
import { agentEvents } from "./events.ts";
import { sendEmail } from "./outbox.ts";
import type { AgentRecord } from "./records.ts";

// The cleanup job: what it deletes, and only once it is due.

const memory = memoryOfFile({ EVENT_RETENTION_HOURS: "1", TRASH_RETENTION_DAYS: "2" });

const HOUR = 3_600_000;

async function receive(agent: AgentRecord): Promise<string> {
  await memory.receive(rawMessage({ To: `${agent.id}@agents.example` }), [`${agent.id}@agents.example`]);
  const [email] = (await listEmails(memory.services, agent, { limit: 1 })).data;
  return email?.id ?? "";
}

test("events are kept for EVENT_RETENTION_HOURS, then trimmed", async () => {
  const agent = await memory.agent("eventful");
  await receive(agent);
  memory.clock.advance(HOUR - 1);
  await trimEvents(memory.services);
  expect((await agentEvents(memory.services, agent, {})).data).toHaveLength(1);
  memory.clock.advance(2);
  expect(await trimEvents(memory.services)).toBeGreaterThanOrEqual(1);
  expect((await agentEvents(memory.services, agent, {})).data).toHaveLength(0);
});

test("mail in the trash for TRASH_RETENTION_DAYS is deleted for good, its bytes freed", async () => {
  const agent = await memory.agent("tidy");
  const id = await receive(agent);
  await deleteEmail(memory.services, agent, id, false);
  memory.clock.advance(2 * 24 * HOUR - 1);
  expect(await emptyTrash(memory.services)).toBe(0);
  memory.clock.advance(2);
  expect(await emptyTrash(memory.services)).toBe(1);
  expect((await listEmails(memory.services, agent, {})).total).toBe(0);
  expect((await memory.reload(agent)).storageUsed).toBe(0);
});

test("an idempotency key answers for 24 hours, then a retry sends again", async () => {
  const agent = await memory.agent("forgetful");
  const message = { to: ["pat@elsewhere.example"], subject: "Once", text: "." };
  const first = await sendEmail(memory.services, agent, message, "key");
  memory.clock.advance(24 * HOUR - 1);
  await cleanUp(memory.services);
  expect(await sendEmail(memory.services, agent, message, "key")).toEqual(first);
  memory.clock.advance(2);
  await cleanUp(memory.services);
  expect(await sendEmail(memory.services, agent, message, "key")).not.toEqual(first);
});
