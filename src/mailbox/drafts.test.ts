import { describe, expect, test } from "vitest";
import { type Draft, deleteDraftAsRead } from "../db/drafts.ts";
import { ServiceError } from "../errors.ts";
import type { FinalOutcome } from "../outbound/delivery.ts";
import { memoryOfFile, rawMessage } from "../testing/memory.ts";
import {
  createDraft,
  deleteDraft,
  getDraft,
  isPending,
  listDrafts,
  sendDraft,
  sendDueDrafts,
  updateDraft,
} from "./drafts.ts";
import { listEmails } from "./emails.ts";
import { agentEvents } from "./events.ts";
import type { AgentRecord } from "./records.ts";
import { forwardEmail } from "./replies.ts";
import { failScheduled, listSent, sendQuota } from "./sending.ts";

// Drafts: written in parts, holding storage while kept, sent as a send is
// (in their place), scheduled for later, and left failed, with why, when a
// scheduled send is refused.

const memory = memoryOfFile({ STORAGE_LIMIT_BYTES: "50000", DAILY_SEND_LIMIT: "2" });

/** A draft that names all a send needs. */
const COMPLETE = { to: ["pat@elsewhere.example"], subject: "Hi", text: "." };

const storage = async (agent: AgentRecord) => (await memory.reload(agent)).storageUsed;

describe("writing", () => {
  test("a draft holds the storage of its size as it grows and shrinks, and gives it back when deleted", async () => {
    const agent = await memory.writer("writer");
    const draft = await createDraft(memory.services, agent, { subject: "Notes" });
    expect(await storage(agent)).toBe(draft.size);
    const grown = await updateDraft(memory.services, agent, draft.id, { text: "x".repeat(10_000) });
    expect(await storage(agent)).toBe(grown.size);
    const shrunk = await updateDraft(memory.services, agent, draft.id, { text: null });
    expect(await storage(agent)).toBe(shrunk.size);
    // Written again as it was made, it weighs what it weighed then: its own size and times are not its content.
    expect(shrunk.size).toBe(draft.size);
    // The text's bytes, give or take its JSON quoting.
    expect(grown.size - shrunk.size).toBeCloseTo(10_000, -2);
    await deleteDraft(memory.services, agent, draft.id);
    expect(await storage(agent)).toBe(0);
    await expect(getDraft(memory.services, agent, draft.id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });

  test("a draft past the storage limit is refused, and nothing is kept", async () => {
    const agent = await memory.writer("wordy");
    await expect(createDraft(memory.services, agent, { text: "x".repeat(60_000) })).rejects.toMatchObject({
      details: { code: "STORAGE_LIMIT_EXCEEDED" },
    });
    expect((await listDrafts(memory.services, agent, {})).total).toBe(0);
  });

  test("a draft answering an email is addressed, titled and threaded as its reply", async () => {
    const agent = await memory.writer("replier");
    await memory.receive(rawMessage({ To: "replier@agents.example", Subject: "Lunch?" }), ["replier@agents.example"]);
    const [email] = (await listEmails(memory.services, agent, {})).data;
    const draft = await createDraft(memory.services, agent, { inReplyTo: email?.id });
    expect(draft).toMatchObject({ subject: "Re: Lunch?", threadId: email?.threadId, inReplyTo: email?.id });
    expect(JSON.stringify(draft)).toContain("pat@sender.example");
    await expect(updateDraft(memory.services, agent, draft.id, { inReplyTo: email?.id })).rejects.toThrow(
      /inReplyTo is set when a draft is made/,
    );
  });

  test("bad fields are refused; another agent's draft is not found", async () => {
    const agent = await memory.writer("careful");
    await expect(createDraft(memory.services, agent, { to: ["nope"] })).rejects.toThrow(/not a valid email address/);
    const draft = await createDraft(memory.services, agent, {});
    const other = await memory.writer("intruder");
    await expect(getDraft(memory.services, other, draft.id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(deleteDraft(memory.services, other, draft.id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });
});

describe("sending", () => {
  test("a sent draft is gone, its storage now the sent message's", async () => {
    const agent = await memory.writer("drafter");
    const draft = await createDraft(memory.services, agent, COMPLETE);
    const sent = await sendDraft(memory.services, agent, draft.id);
    if (isPending(sent)) throw new Error("the draft waits");
    await expect(getDraft(memory.services, agent, draft.id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    expect(await storage(agent)).toBe(sent.size);
    await expect(sendDraft(memory.services, agent, draft.id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });

  test("a change in the millisecond of the one before is still a change: a send of the draft as read before it stops", async () => {
    const agent = await memory.writer("quick");
    const draft = await createDraft(memory.services, agent, COMPLETE);
    // The clock stands still: each change comes in the millisecond of the one before.
    const changed = await updateDraft(memory.services, agent, draft.id, { subject: "Changed" });
    const again = await updateDraft(memory.services, agent, draft.id, { subject: "Again" });
    expect([changed.updatedAt.getTime(), again.updatedAt.getTime()]).toEqual([
      draft.updatedAt.getTime() + 1,
      draft.updatedAt.getTime() + 2,
    ]);
    const asRead = (read: Draft) => memory.services.sql.transaction((tx) => deleteDraftAsRead(tx, read));
    expect(await asRead(draft)).toBe(false);
    expect(await asRead(changed)).toBe(false);
    expect(await asRead(again)).toBe(true);
    // A send and a change at once: the send goes as it read the draft, or not at all; a change that stands is never
    // what a send took the place of. An agent a round, each with its day's sends.
    for (let round = 0; round < 10; round++) {
      const sender = await memory.writer(`quick-${round}`);
      const next = await createDraft(memory.services, sender, COMPLETE);
      const handed = memory.mailer.handed.length;
      const [sent, change] = await Promise.allSettled([
        sendDraft(memory.services, sender, next.id),
        updateDraft(memory.services, sender, next.id, { subject: "Changed" }),
      ]);
      const went = memory.mailer.handed.slice(handed).map((message) => /^Subject: (.*)$/m.exec(message.raw)?.[1]);
      expect(went).toHaveLength(sent.status === "fulfilled" ? 1 : 0);
      if (sent.status === "rejected") expect(sent.reason).toMatchObject({ kind: "NOT_FOUND" });
      if (change.status === "fulfilled") expect(went).not.toContain("Hi");
      else expect(change.reason).toMatchObject({ kind: "NOT_FOUND" });
    }
  });

  test("a scheduled send refused fails its draft only as it read it: a change made meanwhile stands", async () => {
    const agent = await memory.writer("rescheduler");
    const sendAt = new Date(memory.clock.now().getTime() + 60_000);
    const read = await createDraft(memory.services, agent, { ...COMPLETE, sendAt });
    const changed = await updateDraft(memory.services, agent, read.id, { subject: "Changed" });
    const refusal = new ServiceError("BAD_REQUEST", "Refused as read");
    const failures = async () => (await agentEvents(memory.services, agent, { types: ["email.send_failed"] })).data;
    await failScheduled(memory.services, read, refusal);
    expect(await failures()).toEqual([]);
    expect(await getDraft(memory.services, agent, read.id)).toMatchObject({
      sendStatus: "scheduled",
      subject: "Changed",
      failureCode: null,
    });
    await failScheduled(memory.services, changed, refusal);
    const failed = await getDraft(memory.services, agent, read.id);
    expect(failed).toMatchObject({ sendStatus: "failed", failureCode: "BAD_REQUEST" });
    expect(failed.updatedAt.getTime()).toBe(changed.updatedAt.getTime() + 1);
    expect(await failures()).toMatchObject([{ data: { draftId: read.id, code: "BAD_REQUEST" } }]);
  });

  test("an incomplete draft cannot be sent or scheduled", async () => {
    const agent = await memory.writer("hasty");
    const draft = await createDraft(memory.services, agent, { subject: "No one" });
    await expect(sendDraft(memory.services, agent, draft.id)).rejects.toMatchObject({ kind: "BAD_REQUEST" });
    const later = new Date(memory.clock.now().getTime() + 60_000);
    await expect(updateDraft(memory.services, agent, draft.id, { sendAt: later })).rejects.toMatchObject({
      kind: "BAD_REQUEST",
    });
    const far = new Date(memory.clock.now().getTime() + 31 * 86_400_000);
    await expect(createDraft(memory.services, agent, { sendAt: far })).rejects.toThrow(/at most 30 days ahead/);
  });

  test("the provider refusing a draft's send gives the draft back as it was", async () => {
    const agent = await memory.writer("unlucky");
    const draft = await createDraft(memory.services, agent, COMPLETE);
    memory.mailer.answerNext("refuse");
    await expect(sendDraft(memory.services, agent, draft.id)).rejects.toMatchObject({ kind: "INTERNAL_SERVER_ERROR" });
    expect(await getDraft(memory.services, agent, draft.id)).toMatchObject({ subject: "Hi" });
    expect(await storage(agent)).toBe(draft.size);
    expect((await sendQuota(memory.services, agent)).used).toBe(0);
  });

  test("a scheduled draft the send refuses is left failed, with why, and an event", async () => {
    const agent = await memory.writer("overbooked");
    const message = { to: ["pat@elsewhere.example"], subject: "Later", text: "." };
    const sendAt = new Date(memory.clock.now().getTime() + 60_000);
    const draft = await createDraft(memory.services, agent, { ...message, sendAt });
    expect(draft.sendStatus).toBe("scheduled");
    for (const subject of ["One", "Two"]) {
      const now = await createDraft(memory.services, agent, { ...message, subject });
      await sendDraft(memory.services, agent, now.id);
    }
    memory.clock.advance(60_000);
    expect(await sendDueDrafts(memory.services)).toBe(1);
    expect(await getDraft(memory.services, agent, draft.id)).toMatchObject({
      sendStatus: "failed",
      failureCode: "DAILY_SEND_LIMIT_EXCEEDED",
    });
    const failed = (await agentEvents(memory.services, agent, { types: ["email.send_failed"] })).data;
    expect(failed).toMatchObject([{ data: { draftId: draft.id, code: "DAILY_SEND_LIMIT_EXCEEDED" } }]);
    expect((await listSent(memory.services, agent, {}, {})).total).toBe(2);
  });

  test("a scheduled draft the provider refuses late comes back failed at once, with one event, and goes no more", async () => {
    const agent = await memory.writer("refused-late");
    const sendAt = new Date(memory.clock.now().getTime() + 60_000);
    const draft = await createDraft(memory.services, agent, { ...COMPLETE, subject: "Late", sendAt });
    let refuse!: (final: FinalOutcome) => void;
    memory.mailer.answerNext({ unconfirmed: new Promise((resolve) => (refuse = resolve)) });
    memory.clock.advance(60_000);
    expect(await sendDueDrafts(memory.services)).toBe(1);
    const handed = memory.mailer.handed.length;
    // Long after its claim ran out, the provider says no.
    memory.clock.advance(600_000);
    refuse({ outcome: "refused", reason: "550 no" });
    const back = await settled(() => getDraft(memory.services, agent, draft.id));
    expect(back).toMatchObject({ sendStatus: "failed", failureCode: "INTERNAL_SERVER_ERROR", claimedUntil: null });
    const failed = (await agentEvents(memory.services, agent, { types: ["email.send_failed"] })).data;
    expect(failed).toMatchObject([
      { data: { draftId: draft.id, message: expect.stringContaining("refused it late") } },
    ]);
    expect(await sendDueDrafts(memory.services)).toBe(0);
    expect(memory.mailer.handed.length).toBe(handed);
  });
});

describe("a forward that waits", () => {
  test("is shown only to a reader of mail: to one without read it is no draft at all", async () => {
    const agent = await memory.writer("forwarder");
    await memory.mailTo(agent, { Subject: "Quarterly figures" }, "The secret numbers");
    const [email] = (await listEmails(memory.services, agent, {})).data;
    const sendAt = new Date(memory.clock.now().getTime() + 60_000);
    const to = ["boss@elsewhere.example"];
    const forward = await forwardEmail(memory.services, agent, email?.id as string, { to, sendAt });
    memory.clock.advance(1);
    const mine = await createDraft(memory.services, agent, { subject: "Mine" });
    const sendOnly = { ...agent, readsMail: false };
    const seen = async (reader: typeof agent) => (await listDrafts(memory.services, reader, {})).data.map((d) => d.id);
    expect(await seen(agent)).toEqual([mine.id, forward.id]);
    expect((await getDraft(memory.services, agent, forward.id)).bodyText).toContain("The secret numbers");
    expect(await seen(sendOnly)).toEqual([mine.id]);
    expect((await listDrafts(memory.services, sendOnly, {})).total).toBe(1);
    for (const touch of [
      () => getDraft(memory.services, sendOnly, forward.id),
      () => updateDraft(memory.services, sendOnly, forward.id, { subject: "Mine now" }),
      () => sendDraft(memory.services, sendOnly, forward.id),
      () => deleteDraft(memory.services, sendOnly, forward.id),
    ]) {
      await expect(touch()).rejects.toMatchObject({ kind: "NOT_FOUND" });
    }
    // Nothing was changed, sent or deleted; at its time it goes as any scheduled draft does.
    memory.clock.advance(60_000);
    expect(await sendDueDrafts(memory.services)).toBe(1);
    expect(memory.mailer.handed.at(-1)?.raw).toContain("The secret numbers");
  });
});

/** What `read` gives once it stops throwing: work the test set going finishes on its own. */
async function settled<T>(read: () => Promise<T>): Promise<T> {
  for (let tries = 0; ; tries++) {
    try {
      return await read();
    } catch (error) {
      if (tries > 1000) throw error;
      await new Promise((resolve) => setImmediate(resolve));
    }
  }
}
