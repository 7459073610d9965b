import { describe, expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { listEmails, updateEmail } from "./emails.ts";
import { agentEvents, eventStream } from "./events.ts";
import type { AgentRecord } from "./records.ts";

// The agent's event log: in order, after an id, filtered by type, waited on,
// and streamed without a gap or a repeat.

const memory = memoryOfFile();

const mail = (agent: AgentRecord, subject = "Hello") => memory.mailTo(agent, { Subject: subject });

describe("reading events", () => {
  test("oldest first, after an id, a page at a time; each agent reads its own", async () => {
    const agent = await memory.agent("logged");
    const other = await memory.agent("unlogged");
    for (let n = 0; n < 3; n++) await mail(agent, `M${n}`);
    const first = await agentEvents(memory.services, agent, { limit: 2 });
    expect(first.data.map((event) => event.type)).toEqual(["email.received", "email.received"]);
    const rest = await agentEvents(memory.services, agent, { after: first.nextAfter });
    expect(rest.data.map((event) => (event.data as { subject: string }).subject)).toEqual(["M2"]);
    const none = await agentEvents(memory.services, agent, { after: rest.nextAfter });
    expect(none).toEqual({ data: [], nextAfter: rest.nextAfter });
    expect((await agentEvents(memory.services, other, {})).data).toEqual([]);
  });

  test("types pick the events asked for; the rest are passed over", async () => {
    const agent = await memory.agent("picky");
    await mail(agent);
    const [email] = (await listEmails(memory.services, agent, {})).data;
    await updateEmail(memory.services, agent, email?.id ?? "", { isRead: true });
    const page = await agentEvents(memory.services, agent, { types: ["email.updated"] });
    expect(page.data).toMatchObject([{ type: "email.updated", data: { emailId: email?.id, isRead: true } }]);
  });

  test.each([
    [{ after: "abc" }, "after must be an event id: decimal digits"],
    [{ limit: 0 }, /limit/],
    [{ types: ["email.nope"] }, /types/],
    [{ waitSeconds: 26 }, "Invalid wait: expected an integer from 0 to 25"],
  ])("%j is refused", async (request, message) => {
    await expect(agentEvents(memory.services, { id: "anyone" }, request)).rejects.toThrow(message);
  });
});

describe("waiting", () => {
  test("a wait ends as soon as an event is written", async () => {
    const agent = await memory.agent("waiter");
    const waiting = agentEvents(memory.services, agent, { waitSeconds: 10 });
    await mail(agent);
    expect((await waiting).data).toHaveLength(1);
  });

  test("a wait for one type is not ended by others", async () => {
    const agent = await memory.agent("choosy");
    const waiting = agentEvents(memory.services, agent, { waitSeconds: 10, types: ["email.updated"] });
    await mail(agent);
    const [email] = (await listEmails(memory.services, agent, {})).data;
    await updateEmail(memory.services, agent, email?.id ?? "", { folder: "archive" });
    expect((await waiting).data.map((event) => event.type)).toEqual(["email.updated"]);
  });

  test("a stream gives what came after `after`, then what comes, each once", async () => {
    const agent = await memory.agent("streamed");
    await mail(agent, "before");
    const stop = new AbortController();
    const stream = eventStream(memory.services, agent, { after: "0" }, async () => true, stop.signal);
    const subjects: string[] = [];
    for await (const event of stream) {
      subjects.push((event.data as { subject: string }).subject);
      if (subjects.length === 1) await mail(agent, "after");
      if (subjects.length === 2) stop.abort();
    }
    expect(subjects).toEqual(["before", "after"]);
  });
});
