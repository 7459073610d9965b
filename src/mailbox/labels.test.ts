import { describe, expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { getEmail, listEmails, updateEmail, updateEmails, waitForEmail } from "./emails.ts";
import { agentEvents } from "./events.ts";
import { labelName, labelSelector, MAX_LABELS } from "./labels.ts";
import type { AgentRecord, EmailRecord } from "./records.ts";
import { getThread, listThreads, updateThread } from "./threads.ts";

// Labels on emails and threads: many on each, compared without case, kept in
// lower case; adding one that is there or removing one that is not changes
// nothing; lists, searches, waits and thread lists take label and -label; a
// thread's labels are its own; email.updated says which came and went.

const memory = memoryOfFile();

/** Files a message for the agent; the email filed. */
async function deliver(agent: AgentRecord, headers: Record<string, string> = {}): Promise<EmailRecord> {
  await memory.mailTo(agent, headers);
  memory.clock.advance(1_000);
  const [email] = (await listEmails(memory.services, agent, { limit: 1 })).data;
  if (!email) throw new Error("nothing was filed");
  return email;
}

const subjects = async (agent: AgentRecord, filter = {}) =>
  (await listEmails(memory.services, agent, filter)).data.map((email) => email.subject);

describe("a label's name", () => {
  test("is trimmed and kept in lower case", () => {
    expect(labelName("  Urgent ")).toBe("urgent");
    expect(labelName("Project X/2026")).toBe("project x/2026");
    expect(labelName("é".repeat(64))).toBe("é".repeat(64));
  });

  test.each([
    ["", "1-64 characters"],
    ["   ", "1-64 characters"],
    ["x".repeat(65), "1-64 characters"],
    ["-done", 'may not start with "-"'],
    ["a,b", "commas or control characters"],
    ["tab\there", "commas or control characters"],
    ["zero\u200bwidth", "commas or control characters"],
  ])("%j is refused", (name, why) => {
    expect(() => labelName(name)).toThrow(why);
  });

  test("a filter's -label excludes; none is no filter", () => {
    expect(labelSelector(["Todo", "-Done", " -later "])).toEqual({ with: ["todo"], without: ["done", "later"] });
    expect(labelSelector([])).toBeNull();
    expect(() => labelSelector(["--x"])).toThrow('may not start with "-"');
  });
});

describe("labels on emails", () => {
  test("are added and removed without case, each once, idempotently, beside the folder", async () => {
    const agent = await memory.agent("labeller");
    const { id } = await deliver(agent, { Subject: "A" });
    const labelled = await updateEmail(memory.services, agent, id, { addLabels: ["Urgent", "todo", "URGENT"] });
    expect(labelled.labels).toEqual(["urgent", "todo"]);
    expect(labelled.folder).toBe("inbox");
    const again = await updateEmail(memory.services, agent, id, {
      addLabels: ["todo"],
      removeLabels: ["absent", "Urgent"],
      folder: "archive",
    });
    expect(again).toMatchObject({ labels: ["todo"], folder: "archive" });
    expect((await getEmail(memory.services, agent, id)).labels).toEqual(["todo"]);
  });

  test("a change that adds and removes one label, names none, or goes past the most is refused", async () => {
    const agent = await memory.agent("refused");
    const { id } = await deliver(agent);
    await expect(updateEmail(memory.services, agent, id, { addLabels: ["a"], removeLabels: ["A"] })).rejects.toThrow(
      'Label "a" is both added and removed',
    );
    await expect(updateEmail(memory.services, agent, id, { addLabels: [",x"] })).rejects.toMatchObject({
      kind: "BAD_REQUEST",
    });
    const many = Array.from({ length: MAX_LABELS }, (_, n) => `l${n}`);
    await updateEmail(memory.services, agent, id, { addLabels: many });
    await expect(updateEmail(memory.services, agent, id, { addLabels: ["one-more"] })).rejects.toThrow(
      `An email carries at most ${MAX_LABELS} labels`,
    );
    // One it has already is no change, so not refused.
    expect((await updateEmail(memory.services, agent, id, { addLabels: ["l0"] })).labels).toHaveLength(MAX_LABELS);
  });

  test("lists and searches take label and -label, all of which must hold", async () => {
    const agent = await memory.agent("filterer");
    const a = await deliver(agent, { Subject: "Invoice A" });
    const b = await deliver(agent, { Subject: "Invoice B" });
    await deliver(agent, { Subject: "Invoice C" });
    await updateEmails(memory.services, agent, [a.id, b.id], { addLabels: ["billing"] });
    await updateEmail(memory.services, agent, b.id, { addLabels: ["done"] });
    expect(await subjects(agent, { label: ["Billing"] })).toEqual(["Invoice B", "Invoice A"]);
    expect(await subjects(agent, { label: ["billing", "-done"] })).toEqual(["Invoice A"]);
    expect(await subjects(agent, { label: ["-billing"] })).toEqual(["Invoice C"]);
    expect(await subjects(agent, { search: "invoice", label: ["done"] })).toEqual(["Invoice B"]);
    expect((await listEmails(memory.services, agent, { label: ["nothing"] })).total).toBe(0);
  });

  test("email.updated says which labels came and went, and only when they did", async () => {
    const agent = await memory.agent("eventful");
    const { id } = await deliver(agent);
    const { nextAfter } = await agentEvents(memory.services, agent, {});
    await updateEmail(memory.services, agent, id, { addLabels: ["a", "b"] });
    await updateEmail(memory.services, agent, id, { addLabels: ["a"] });
    await updateEmail(memory.services, agent, id, { removeLabels: ["a"], isRead: true });
    await updateEmail(memory.services, agent, id, { folder: "archive" });
    const { data } = await agentEvents(memory.services, agent, { after: nextAfter, types: ["email.updated"] });
    expect(data.map((event) => event.data)).toEqual([
      { emailId: id, folder: "inbox", isRead: false, labels: { added: ["a", "b"], removed: [] } },
      { emailId: id, folder: "inbox", isRead: true, labels: { added: [], removed: ["a"] } },
      { emailId: id, folder: "archive", isRead: true },
    ]);
  });

  test("a read of events with label keeps those about mail carrying it now, and moves past the rest", async () => {
    const agent = await memory.agent("watcher");
    const start = (await agentEvents(memory.services, agent, {})).nextAfter;
    const kept = await deliver(agent, { Subject: "Kept" });
    const other = await deliver(agent, { Subject: "Other" });
    await updateEmail(memory.services, agent, kept.id, { addLabels: ["watch"] });
    await updateEmail(memory.services, agent, other.id, { isRead: true });
    const read = (label: string[]) => agentEvents(memory.services, agent, { after: start, label });
    const watched = await read(["Watch"]);
    expect(watched.data.map((event) => [event.type, event.data.emailId])).toEqual([
      ["email.received", kept.id],
      ["email.updated", kept.id],
    ]);
    const all = await agentEvents(memory.services, agent, { after: start });
    expect(watched.nextAfter).toBe(all.nextAfter);
    expect((await read(["-watch"])).data.map((event) => event.data.emailId)).toEqual([other.id, other.id]);
    // Nothing about such mail: the read answers none, and where the next starts, past what it read.
    const none = await read(["nothing"]);
    expect(none).toEqual({ data: [], nextAfter: all.nextAfter });
    await expect(read(["-"])).rejects.toThrow("Invalid label");
  });

  test("a wait with label answers when a matching email is labelled so", async () => {
    const agent = await memory.agent("waiter");
    const after = memory.clock.now().getTime();
    memory.clock.advance(1_000);
    const { id } = await deliver(agent, { Subject: "Later" });
    const wait = { after, label: ["ready"], timeoutSeconds: 5 };
    expect(await waitForEmail(memory.services, agent, { ...wait, timeoutSeconds: 0 })).toBeNull();
    const waiting = waitForEmail(memory.services, agent, wait);
    await updateEmail(memory.services, agent, id, { addLabels: ["Ready"] });
    expect((await waiting)?.id).toBe(id);
    expect(await waitForEmail(memory.services, agent, { after, label: ["-ready"], timeoutSeconds: 0 })).toBeNull();
  });
});

describe("labels on threads", () => {
  test("are the thread's own, not its messages', and filter thread lists", async () => {
    const agent = await memory.agent("threads");
    const first = await deliver(agent, { Subject: "One", "Message-ID": "<one@x.example>" });
    const second = await deliver(agent, { Subject: "Two", "Message-ID": "<two@x.example>" });
    await updateEmail(memory.services, agent, first.id, { addLabels: ["mail-label"] });
    const thread = await updateThread(memory.services, agent, second.threadId, { addLabels: ["Project"] });
    expect(thread.labels).toEqual(["project"]);
    expect((await getThread(memory.services, agent, first.threadId)).labels).toEqual([]);
    const ids = async (label: string[]) =>
      (await listThreads(memory.services, agent, { label }, {})).data.map((found) => found.id);
    expect(await ids(["project"])).toEqual([second.threadId]);
    expect(await ids(["-project"])).toEqual([first.threadId]);
    expect(await ids(["mail-label"])).toEqual([]);
    await updateThread(memory.services, agent, second.threadId, { removeLabels: ["project", "never"] });
    expect(await ids(["project"])).toEqual([]);
  });

  test("another agent's thread is not found; a change naming no label is refused", async () => {
    const agent = await memory.agent("owner");
    const other = await memory.agent("stranger");
    const { threadId } = await deliver(agent);
    await expect(updateThread(memory.services, other, threadId, { addLabels: ["x"] })).rejects.toMatchObject({
      kind: "NOT_FOUND",
    });
    await expect(updateThread(memory.services, agent, threadId, {})).rejects.toThrow("Give addLabels or removeLabels");
  });

  test("a thread merged into another brings its labels along", async () => {
    const agent = await memory.agent("merger");
    await deliver(agent, { "Message-ID": "<gp@x.example>", Subject: "Root" });
    const child = await deliver(agent, { "Message-ID": "<c@x.example>", "In-Reply-To": "<p@x.example>" });
    await updateThread(memory.services, agent, child.threadId, { addLabels: ["kept"] });
    const parent = await deliver(agent, { "Message-ID": "<p@x.example>", "In-Reply-To": "<gp@x.example>" });
    expect(parent.threadId).not.toBe(child.threadId);
    expect((await getThread(memory.services, agent, parent.threadId)).labels).toEqual(["kept"]);
    const found = await listThreads(memory.services, agent, { label: ["kept"] }, {});
    expect(found.data.map((thread) => thread.id)).toEqual([parent.threadId]);
  });
});
