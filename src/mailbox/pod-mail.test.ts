import { describe, expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { createPodWithAgents, podGrant } from "../testing/pods.ts";
import { deleteEmail, folderSummary, getEmail, listEmails, readerOf, updateEmail, waitForEmail } from "./emails.ts";
import type { Grant } from "./permissions.ts";
import { listPodEmails } from "./pod-mail.ts";
import { createPod } from "./pods.ts";
import type { AgentRecord } from "./records.ts";
import { getThread, listThreads } from "./threads.ts";

// Reading a pod's mail (the mail of the agents a pod's key reaches, as one
// agent's is read), and what a key barred from junk reads of an agent's.

const memory = memoryOfFile({ VERIFICATION_MODE: "none" });

/** Files a message for the agent; its id. */
async function deliver(agent: AgentRecord, subject: string, body = "Hello."): Promise<string> {
  await memory.mailTo(agent, { Subject: subject }, body);
  memory.clock.advance(1_000);
  const [email] = (await listEmails(memory.services, agent, { limit: 1 })).data;
  if (!email) throw new Error("nothing was filed");
  return email.id;
}

const listed = async (podId: string, grant: Grant, filter = {}) =>
  (await listPodEmails(memory.services, podId, grant, filter)).data.map((email) => [email.agentId, email.subject]);

describe("a pod's mail", () => {
  test("lists and searches the mail of every agent of the pod, newest first, and no other agent's", async () => {
    const [one, two] = await createPodWithAgents(memory, "crew", ["crew-one", "crew-two"]);
    const outsider = await memory.agent("outsider");
    await deliver(one, "Invoice for one");
    await deliver(two, "Invoice for two");
    await deliver(outsider, "Invoice for outsider");
    await deliver(two, "Lunch");
    expect(await listed("crew", podGrant("crew"))).toEqual([
      ["crew-two", "Lunch"],
      ["crew-two", "Invoice for two"],
      ["crew-one", "Invoice for one"],
    ]);
    expect(await listed("crew", podGrant("crew"), { search: "invoice" })).toEqual(
      expect.arrayContaining([
        ["crew-one", "Invoice for one"],
        ["crew-two", "Invoice for two"],
      ]),
    );
    expect(await listed("crew", podGrant("crew"), { search: "invoice" })).toHaveLength(2);
    expect(await listed("crew", podGrant("crew"), { search: "-lunch" })).toHaveLength(2);
    const page = await listPodEmails(memory.services, "crew", podGrant("crew"), { limit: 1, offset: 1 });
    expect(page).toMatchObject({ total: 3, limit: 1, offset: 1 });
  });

  test("a key limited to some agents reads theirs only; without read it is refused, naming it", async () => {
    const [first, second] = await createPodWithAgents(memory, "duo", ["duo-a", "duo-b"]);
    await deliver(first, "For a");
    await deliver(second, "For b");
    expect(await listed("duo", podGrant("duo", ["read"], { agents: ["duo-a"] }))).toEqual([["duo-a", "For a"]]);
    expect(await listed("duo", podGrant("duo", ["read"], { agents: ["duo-a"] }), { search: "for" })).toEqual([
      ["duo-a", "For a"],
    ]);
    await expect(listPodEmails(memory.services, "duo", podGrant("duo", ["send"]), {})).rejects.toMatchObject({
      kind: "FORBIDDEN",
      details: { permission: "read" },
    });
  });

  test("a custom folder spelled two ways by two agents is one folder", async () => {
    const [first, second] = await createPodWithAgents(memory, "spell", ["spell-a", "spell-b"]);
    await updateEmail(memory.services, first, await deliver(first, "A"), { folder: "Projects" });
    await updateEmail(memory.services, second, await deliver(second, "B"), { folder: "PROJECTS" });
    expect(await listed("spell", podGrant("spell"), { folder: "projects" })).toEqual([
      ["spell-b", "B"],
      ["spell-a", "A"],
    ]);
  });

  test("a pod without agents has no mail", async () => {
    await createPod(memory.services, { id: "empty", name: "empty" });
    expect(await listPodEmails(memory.services, "empty", podGrant("empty"), { search: "anything" })).toMatchObject({
      data: [],
      total: 0,
    });
  });
});

describe("a key barred from junk", () => {
  test("reads or changes no mail in junk: not listed, searched, counted, waited for, found by id or in a thread; not changed", async () => {
    const agent = await memory.agent("screened");
    const junk = await deliver(agent, "Cheap pills");
    const kept = await deliver(agent, "Cheap flights");
    await updateEmail(memory.services, agent, junk, { folder: "junk" });
    const barred = readerOf(agent, { keyId: "k", permissions: ["read", "events"], expiresAt: null, hideJunk: true });
    const subjects = async (filter = {}) =>
      (await listEmails(memory.services, barred, filter)).data.map((email) => email.subject);
    expect(await subjects()).toEqual(["Cheap flights"]);
    expect(await subjects({ search: "cheap" })).toEqual(["Cheap flights"]);
    expect(await subjects({ folder: "junk" })).toEqual([]);
    await expect(getEmail(memory.services, barred, junk)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    expect((await getEmail(memory.services, barred, kept)).id).toBe(kept);
    expect((await folderSummary(memory.services, barred)).find((folder) => folder.name === "junk")).toEqual({
      name: "junk",
      total: 0,
      unread: 0,
    });
    const since = memory.clock.now().getTime() - 60_000;
    const waited = await waitForEmail(memory.services, barred, { subject: "pills", after: since, timeoutSeconds: 0 });
    expect(waited).toBeNull();
    await expect(updateEmail(memory.services, barred, junk, { isRead: true })).rejects.toMatchObject({
      kind: "NOT_FOUND",
    });
    await expect(deleteEmail(memory.services, barred, junk, false)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    const { threadId } = await getEmail(memory.services, agent, junk);
    await expect(getThread(memory.services, barred, threadId)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    const threads = await listThreads(memory.services, barred, {}, {});
    expect(threads.data.map((thread) => thread.id)).not.toContain(threadId);
    // The agent's own key sees it all.
    expect((await listEmails(memory.services, agent, { folder: "junk" })).data.map((email) => email.id)).toEqual([
      junk,
    ]);
  });

  test("a pod's key barred from junk reads none of its agents' junk", async () => {
    const [agent] = await createPodWithAgents(memory, "guarded", ["guarded-a"]);
    const junk = await deliver(agent, "Spam offer");
    await deliver(agent, "Real offer");
    await updateEmail(memory.services, agent, junk, { folder: "junk" });
    expect(await listed("guarded", podGrant("guarded", ["read"], { hideJunk: true }), { search: "offer" })).toEqual([
      ["guarded-a", "Real offer"],
    ]);
    expect(await listed("guarded", podGrant("guarded"), { search: "offer" })).toHaveLength(2);
  });
});
