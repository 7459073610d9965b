import { describe, expect, test } from "vitest";
import type { FinalOutcome } from "../outbound/delivery.ts";
import { memoryOfFile } from "../testing/memory.ts";
import { isPending, sendDueDrafts } from "./drafts.ts";
import { listEmails, readerOf, updateEmail } from "./emails.ts";
import { sendEmail } from "./outbox.ts";
import { FULL_GRANT } from "./permissions.ts";
import type { AgentRecord } from "./records.ts";
import { forwardEmail, replyToEmail } from "./replies.ts";
import { getSent, listSent, sendQuota } from "./sending.ts";

// Sending through the outbox: the provider is asked once, the day's send and
// the storage are taken with the record, and everything goes back when the
// provider refuses. Recipients are outside the instance, so mail goes to the
// (fake) provider.

const memory = memoryOfFile({ DAILY_SEND_LIMIT: "3", THREAD_SEND_LIMIT: "2", STORAGE_LIMIT_BYTES: "20000" });

const message = (subject = "Hello") => ({ to: ["pat@elsewhere.example"], subject, text: "Hi Pat." });

const sent = (agent: AgentRecord, input = message(), key?: string) => memory.sendNow(agent, input, key);

describe("a send", () => {
  test("goes to the provider from the agent's address, is kept as sent, counted, and said in an event", async () => {
    const agent = await memory.agent("sender1");
    const before = memory.mailer.handed.length;
    const record = await sent(agent);
    expect(memory.mailer.handed).toHaveLength(before + 1);
    const { envelope, raw } = memory.mailer.handed.at(-1) ?? { envelope: null, raw: "" };
    expect(envelope?.to).toEqual(["pat@elsewhere.example"]);
    expect(raw).toMatch(/^From: "?Agent sender1"? <sender1@agents\.example>/m);
    expect(record).toMatchObject({ subject: "Hello", deliveryStatus: "sent", providerId: `q${before + 1}` });
    expect((await getSent(memory.services, agent, record.id)).id).toBe(record.id);
    expect((await sendQuota(memory.services, agent)).used).toBe(1);
    expect((await memory.reload(agent)).storageUsed).toBe(record.size);
    expect(await memory.eventTypes(agent)).toEqual(["email.sent"]);
  });

  test("is refused whole when a recipient or the subject is bad, before anything is taken", async () => {
    const agent = await memory.agent("sender2");
    await expect(sent(agent, { ...message(), to: ["not an address"] })).rejects.toThrow(/not a valid email address/);
    await expect(sent(agent, { ...message(), subject: "two\nlines" })).rejects.toThrow(/subject must be/);
    expect((await sendQuota(memory.services, agent)).used).toBe(0);
  });

  test("the provider refusing gives back the day's send, the storage and the record", async () => {
    const agent = await memory.agent("sender3");
    memory.mailer.answerNext("refuse", "unreachable");
    await expect(sent(agent)).rejects.toThrow("Delivery failed: the email provider did not accept the message");
    await expect(sent(agent)).rejects.toThrow("Delivery failed: the email provider could not be reached");
    expect((await sendQuota(memory.services, agent)).used).toBe(0);
    expect((await memory.reload(agent)).storageUsed).toBe(0);
    expect((await listSent(memory.services, agent, {}, {})).total).toBe(0);
  });

  test("a send the provider does not confirm in time is kept, and settled by its late answer", async () => {
    const agent = await memory.agent("sender4");
    let settle!: (final: FinalOutcome) => void;
    let refuse!: (final: FinalOutcome) => void;
    memory.mailer.answerNext(
      { unconfirmed: new Promise((resolve) => (settle = resolve)) },
      { unconfirmed: new Promise((resolve) => (refuse = resolve)) },
    );
    await expect(sent(agent, message("Late"))).rejects.toThrow(/did not confirm the message in time/);
    await expect(sent(agent, message("Lost"))).rejects.toThrow(/did not confirm the message in time/);
    const kept = (await listSent(memory.services, agent, {}, {})).data;
    expect(kept.map((s) => s.providerId)).toEqual([null, null]);
    settle({ outcome: "accepted", queueId: "late-1" });
    refuse({ outcome: "refused", reason: "550" });
    await expect.poll(async () => memory.logs.filter((l) => l.event === "delivery_settled").length).toBe(2);
    const after = (await listSent(memory.services, agent, {}, {})).data;
    expect(after.map((s) => [s.subject, s.providerId])).toEqual([["Late", "late-1"]]);
    expect((await sendQuota(memory.services, agent)).used).toBe(1);
  });
});

describe("the daily send limit", () => {
  test("counts sends, not recipients, refuses the one past it, and resets at midnight UTC", async () => {
    const agent = await memory.agent("limited");
    for (let n = 0; n < 3; n++) await sent(agent, { ...message(), to: ["a@x.example", "b@x.example"] });
    const refusal = sent(agent);
    await expect(refusal).rejects.toMatchObject({
      kind: "RATE_LIMITED",
      details: { code: "DAILY_SEND_LIMIT_EXCEEDED", limit: 3, current: 3 },
    });
    const quota = await sendQuota(memory.services, agent);
    expect(quota).toMatchObject({ limit: 3, used: 3 });
    memory.clock.advance(quota.resetAt.getTime() - memory.clock.now().getTime());
    expect((await sendQuota(memory.services, agent)).used).toBe(0);
    await sent(agent);
  });
});

describe("the storage limit", () => {
  test("a message that would pass it is refused, and nothing is taken", async () => {
    const agent = await memory.agent("hoarder");
    const big = { ...message(), text: "x".repeat(25_000) };
    await expect(sent(agent, big)).rejects.toMatchObject({ details: { code: "STORAGE_LIMIT_EXCEEDED" } });
    expect((await sendQuota(memory.services, agent)).used).toBe(0);
  });
});

describe("the thread send limit", () => {
  test("sends into one thread, the first included, are capped per rolling hour", async () => {
    const agent = await memory.agent("chatty");
    const first = await sent(agent);
    const reply = { ...message("Re: Hello"), inReplyTo: first.messageId };
    await sent(agent, reply);
    await expect(sent(agent, reply)).rejects.toMatchObject({ details: { code: "THREAD_SEND_LIMIT_EXCEEDED" } });
    memory.clock.advance(3_600_000);
    await sent(agent, reply);
  });
});

describe("Idempotency-Key", () => {
  test("a retry gets the first answer and the provider is asked once", async () => {
    const agent = await memory.agent("retrier");
    const first = await sent(agent, message(), "key-1");
    const handed = memory.mailer.handed.length;
    expect((await sent(agent, message(), "key-1")).id).toBe(first.id);
    expect(memory.mailer.handed).toHaveLength(handed);
  });

  test("another request with the same key is refused; another agent's key is its own", async () => {
    const agent = await memory.agent("reuser");
    await sent(agent, message(), "key-2");
    await expect(sent(agent, message("Other"), "key-2")).rejects.toMatchObject({
      kind: "UNPROCESSABLE_CONTENT",
      details: { code: "IDEMPOTENCY_KEY_REUSED" },
    });
    const other = await memory.agent("stranger");
    expect((await sent(other, message("Other"), "key-2")).subject).toBe("Other");
  });

  test("a key barred from junk is never answered what a key that sees junk was: its retry is another request", async () => {
    const agent = await memory.agent("junkreplier");
    await memory.mailTo(agent, { Subject: "Secret junk" });
    const [email] = (await listEmails(memory.services, agent, { limit: 1 })).data;
    if (!email) throw new Error("nothing was filed");
    await updateEmail(memory.services, agent, email.id, { folder: "junk" });
    const sees = { ...agent, ...readerOf(agent, FULL_GRANT) };
    const barred = { ...agent, ...readerOf(agent, { ...FULL_GRANT, hideJunk: true }) };
    const forward = { to: ["pat@elsewhere.example"], text: "FYI" };
    expect(await forwardEmail(memory.services, sees, email.id, forward, "key-j1")).toMatchObject({
      subject: "Fwd: Secret junk",
    });
    expect(await replyToEmail(memory.services, sees, email.id, { text: "Thanks" }, "key-j2")).toMatchObject({
      subject: "Re: Secret junk",
    });
    const reused = { kind: "UNPROCESSABLE_CONTENT", details: { code: "IDEMPOTENCY_KEY_REUSED" } };
    await expect(forwardEmail(memory.services, barred, email.id, forward, "key-j1")).rejects.toMatchObject(reused);
    await expect(replyToEmail(memory.services, barred, email.id, { text: "Thanks" }, "key-j2")).rejects.toMatchObject(
      reused,
    );
    // A key of its own is answered as without one: the junk is not there.
    await expect(forwardEmail(memory.services, barred, email.id, forward, "key-j3")).rejects.toMatchObject({
      kind: "NOT_FOUND",
    });
  });

  test("a send answering junk by its Message-ID copies its References only for a key that sees junk", async () => {
    const agent = await memory.agent("junkanswerer");
    const junkHeaders = { Subject: "Junk", "Message-ID": "<junk@spam.example>", References: "<earlier@spam.example>" };
    await memory.mailTo(agent, junkHeaders);
    const [email] = (await listEmails(memory.services, agent, { limit: 1 })).data;
    await updateEmail(memory.services, agent, email?.id ?? "", { folder: "junk" });
    const answer = { ...message("Re: Junk"), inReplyTo: "<junk@spam.example>" };
    const barred = { ...agent, ...readerOf(agent, { ...FULL_GRANT, hideJunk: true }) };
    const asBarred = await sendEmail(memory.services, barred, answer, "key-r1");
    expect(asBarred).toMatchObject({ references: "<junk@spam.example>" });
    expect(await sendEmail(memory.services, agent, answer, "key-r2")).toMatchObject({
      references: "<earlier@spam.example> <junk@spam.example>",
    });
    await expect(sendEmail(memory.services, agent, answer, "key-r1")).rejects.toMatchObject({
      details: { code: "IDEMPOTENCY_KEY_REUSED" },
    });
  });

  test("a refusal of ours is kept for the retry; a fault of the provider is not", async () => {
    const agent = await memory.agent("refused");
    const bad = { ...message(), to: ["nobody"] };
    await expect(sent(agent, bad, "key-3")).rejects.toMatchObject({ kind: "BAD_REQUEST" });
    await expect(sent(agent, bad, "key-3")).rejects.toMatchObject({ kind: "BAD_REQUEST" });
    memory.mailer.answerNext("refuse");
    await expect(sent(agent, message(), "key-4")).rejects.toMatchObject({ kind: "INTERNAL_SERVER_ERROR" });
    // The provider's refusal is an answer of ours, kept: the retry hears it and nothing is sent.
    const handed = memory.mailer.handed.length;
    await expect(sent(agent, message(), "key-4")).rejects.toMatchObject({ kind: "INTERNAL_SERVER_ERROR" });
    expect(memory.mailer.handed).toHaveLength(handed);
  });

  test.each([
    ["took it", "recording it failed"],
    ["did not confirm it", "did not confirm the message in time"],
  ])("the provider %s but recording that failed: the retry hears so, and nothing is sent again", async (how, says) => {
    const agent = await memory.agent(`unrecorded-${how.length}`);
    const local = await memory.agent(`unrecorded-local-${how.length}`);
    // One recipient here too, whose filing writes to the event log as the send's record does.
    const input = { ...message(), to: ["pat@elsewhere.example", `${local.id}@agents.example`] };
    let refuse!: (final: FinalOutcome) => void;
    if (how !== "took it") memory.mailer.answerNext({ unconfirmed: new Promise((resolve) => (refuse = resolve)) });
    const { mailer } = memory;
    const send = mailer.send.bind(mailer);
    // The provider answers, then the event log is gone: the transaction that records the send fails.
    mailer.send = async (envelope, raw) => {
      const delivery = await send(envelope, raw);
      await memory.services.sql.run(`ALTER TABLE "Event" RENAME TO "EventAway"`, []);
      return delivery;
    };
    try {
      await expect(sent(agent, input, "key-5")).rejects.toMatchObject({
        kind: "INTERNAL_SERVER_ERROR",
        message: expect.stringContaining(says),
      });
    } finally {
      mailer.send = send;
      await memory.services.sql.run(`ALTER TABLE "EventAway" RENAME TO "Event"`, []);
    }
    const handed = mailer.handed.length;
    await expect(sent(agent, input, "key-5")).rejects.toMatchObject({ message: expect.stringContaining(says) });
    expect(mailer.handed).toHaveLength(handed);
    expect(memory.logs.some((line) => line.event === "send_record_failed")).toBe(true);
    if (how === "took it") return;
    // Its late answer is still heard: refused, the record goes.
    refuse({ outcome: "refused", reason: "550" });
    // Long enough that a slow machine's settling never reaches it.
    await expect.poll(async () => (await listSent(memory.services, agent, {}, {})).total, { timeout: 30_000 }).toBe(0);
  });

  test.each(["", "é", "x".repeat(256)])("the key %j is refused", async (key) => {
    const agent = await memory.agent(`badkey${key.length}`);
    await expect(sent(agent, message(), key)).rejects.toThrow(/Idempotency-Key must be/);
  });
});

describe("sendAt", () => {
  test("a later sendAt waits as a scheduled draft, sent once its time comes", async () => {
    const agent = await memory.agent("planner");
    const sendAt = new Date(memory.clock.now().getTime() + 3_600_000);
    const pending = await sendEmail(memory.services, agent, { ...message("Later"), sendAt });
    expect(pending).toMatchObject({ status: "scheduled", sendAt });
    expect(await sendDueDrafts(memory.services)).toBe(0);
    memory.clock.advance(3_600_000);
    expect(await sendDueDrafts(memory.services)).toBe(1);
    expect((await listSent(memory.services, agent, {}, {})).data.map((s) => s.subject)).toEqual(["Later"]);
  });

  test("a sendAt within a second, or past, sends now", async () => {
    const agent = await memory.agent("prompt");
    const result = await sendEmail(memory.services, agent, { ...message(), sendAt: memory.clock.now() });
    expect(isPending(result)).toBe(false);
  });
});
