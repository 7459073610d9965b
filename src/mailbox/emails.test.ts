import { describe, expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import {
  deleteEmail,
  deleteFromTrash,
  folderSummary,
  getEmail,
  listEmails,
  updateEmail,
  updateEmails,
  waitForEmail,
} from "./emails.ts";
import type { AgentRecord } from "./records.ts";

// Received mail in folders: any folder to any folder, delete to trash, then
// for good (freeing its bytes); reads filtered and searched; a wait that
// answers the first match received after a time.

const memory = memoryOfFile();

/** Files a message for the agent; its id. */
async function deliver(agent: AgentRecord, headers: Record<string, string> = {}, body = "Hello."): Promise<string> {
  await memory.mailTo(agent, headers, body);
  memory.clock.advance(1_000);
  const [email] = (await listEmails(memory.services, agent, { limit: 1 })).data;
  if (!email) throw new Error("nothing was filed");
  return email.id;
}

const subjects = async (agent: AgentRecord, filter = {}) =>
  (await listEmails(memory.services, agent, filter)).data.map((email) => email.subject);

describe("folders", () => {
  test("mail moves between any folders; a custom folder keeps its first spelling", async () => {
    const agent = await memory.agent("mover");
    const a = await deliver(agent, { Subject: "A" });
    const b = await deliver(agent, { Subject: "B" });
    await updateEmail(memory.services, agent, a, { folder: "Projects" });
    await updateEmail(memory.services, agent, b, { folder: "PROJECTS", isRead: true });
    expect(await subjects(agent, { folder: "projects" })).toEqual(["B", "A"]);
    expect((await getEmail(memory.services, agent, b)).folder).toBe("Projects");
    await updateEmail(memory.services, agent, a, { folder: "archive" });
    expect(await folderSummary(memory.services, agent)).toEqual([
      { name: "inbox", total: 0, unread: 0 },
      { name: "archive", total: 1, unread: 1 },
      { name: "trash", total: 0, unread: 0 },
      { name: "junk", total: 0, unread: 0 },
      { name: "Projects", total: 1, unread: 0 },
    ]);
  });

  test("a folder that holds no mail is not found; a name that passes for a system folder is refused", async () => {
    const agent = await memory.agent("reader");
    await expect(listEmails(memory.services, agent, { folder: "Nowhere" })).rejects.toMatchObject({
      kind: "NOT_FOUND",
      message: "Folder Nowhere not found: the folders are inbox, archive, trash, junk",
    });
    const id = await deliver(agent);
    await expect(updateEmail(memory.services, agent, id, { folder: "іnbox" })).rejects.toThrow(/passes for inbox/);
    await expect(updateEmail(memory.services, agent, id, {})).rejects.toThrow(
      "Give folder, isRead, addLabels or removeLabels",
    );
  });

  test("a batch changes all its emails or, when one is not the agent's, none", async () => {
    const agent = await memory.agent("batcher");
    const other = await memory.agent("other");
    const mine = [await deliver(agent), await deliver(agent)];
    const theirs = await deliver(other);
    await expect(updateEmails(memory.services, agent, [...mine, theirs], { isRead: true })).rejects.toMatchObject({
      kind: "NOT_FOUND",
    });
    expect((await listEmails(memory.services, agent, { isRead: true })).total).toBe(0);
    expect(await updateEmails(memory.services, agent, [...mine, mine[0] ?? ""], { isRead: true })).toEqual({
      updated: 2,
    });
    expect(await updateEmails(memory.services, agent, mine, { isRead: true })).toEqual({ updated: 0 });
    await expect(updateEmails(memory.services, agent, [], { isRead: true })).rejects.toThrow(/1-100 emails/);
  });
});

describe("deleting", () => {
  test("delete moves to trash; from trash it is gone for good and its bytes are free", async () => {
    const agent = await memory.agent("deleter");
    const id = await deliver(agent);
    const size = (await memory.reload(agent)).storageUsed;
    expect(size).toBeGreaterThan(0);
    expect((await deleteEmail(memory.services, agent, id, false)).message).toBe("Email moved to trash");
    expect((await getEmail(memory.services, agent, id)).folder).toBe("trash");
    expect((await deleteEmail(memory.services, agent, id, false)).message).toBe("Email permanently deleted");
    await expect(getEmail(memory.services, agent, id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    expect((await memory.reload(agent)).storageUsed).toBe(0);
    await expect(deleteEmail(memory.services, agent, id, true)).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });

  test("another agent's email is not found, to read or delete", async () => {
    const agent = await memory.agent("owner");
    const stranger = await memory.agent("stranger");
    const id = await deliver(agent);
    await expect(getEmail(memory.services, stranger, id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(deleteEmail(memory.services, stranger, id, true)).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });

  test("the trash's cleanup deletes only what stayed in the trash since before the cut", async () => {
    const agent = await memory.agent("trashy");
    const id = await deliver(agent);
    await deleteEmail(memory.services, agent, id, false);
    const cut = memory.clock.now();
    expect(await deleteFromTrash(memory.services, { id, agentId: agent.id }, cut)).toBe(false);
    memory.clock.advance(1);
    expect(await deleteFromTrash(memory.services, { id, agentId: agent.id }, memory.clock.now())).toBe(true);
  });
});

describe("reading", () => {
  test("filters by sender, read flag and time; searches words, phrases and exclusions", async () => {
    const agent = await memory.agent("searcher");
    const since = memory.clock.now().getTime();
    await deliver(agent, { From: "ann@one.example", Subject: "Invoice March" }, "The quarterly budget is attached.");
    await deliver(agent, { From: "bob@two.example", Subject: "Lunch" }, "Budget for lunch? quarterly meeting.");
    expect(await subjects(agent, { from: "@one.example" })).toEqual(["Invoice March"]);
    expect(await subjects(agent, { search: "budg" })).toHaveLength(2);
    expect(await subjects(agent, { search: '"quarterly budget"' })).toEqual(["Invoice March"]);
    expect(await subjects(agent, { search: "budget -lunch" })).toEqual(["Invoice March"]);
    expect(await subjects(agent, { after: since + 500 })).toEqual(["Lunch"]);
    expect(await subjects(agent, { search: "x".repeat(200) })).toEqual([]);
    await expect(listEmails(memory.services, agent, { search: "x".repeat(501) })).rejects.toThrow(/at most 500/);
    await expect(listEmails(memory.services, agent, { limit: 0 })).rejects.toThrow(/limit/);
  });

  test("pages say their total, limit and offset", async () => {
    const agent = await memory.agent("pager");
    for (let n = 0; n < 3; n++) await deliver(agent, { Subject: `M${n}` });
    const page = await listEmails(memory.services, agent, { limit: 2, offset: 1 });
    expect(page).toMatchObject({ total: 3, limit: 2, offset: 1 });
    expect(page.data.map((email) => email.subject)).toEqual(["M1", "M0"]);
  });
});

describe("waiting for mail", () => {
  test("answers mail filed since `after`, even before the wait began", async () => {
    const agent = await memory.agent("waiter");
    const after = memory.clock.now().getTime() - 1;
    const id = await deliver(agent, { Subject: "Your code" });
    const email = await waitForEmail(memory.services, agent, { after, timeoutSeconds: 0 });
    expect(email?.id).toBe(id);
  });

  test("wakes as soon as matching mail is filed; mail that does not match does not end it", async () => {
    const agent = await memory.agent("sleeper");
    const waiting = waitForEmail(memory.services, agent, { subject: "code", timeoutSeconds: 10 });
    await deliver(agent, { Subject: "Newsletter" });
    const id = await deliver(agent, { Subject: "Your CODE is 123" });
    expect((await waiting)?.id).toBe(id);
  });

  test("nothing in time: null; a timeout out of bounds is refused", async () => {
    const agent = await memory.agent("patient");
    expect(await waitForEmail(memory.services, agent, { timeoutSeconds: 0 })).toBeNull();
    await expect(waitForEmail(memory.services, agent, { timeoutSeconds: 26 })).rejects.toThrow(
      "Invalid timeout: expected an integer from 0 to 25",
    );
  });
});
