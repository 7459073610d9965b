import { describe, expect, test } from "vitest";
import type { Email, SentEmail } from "../generated/prisma/sqlite/client.ts";
import { memoryOfFile } from "../testing/memory.ts";
import { isPending } from "./drafts.ts";
import { deleteEmail, listEmails } from "./emails.ts";
import { sendEmail } from "./outbox.ts";
import type { AgentRecord, EmailRecord } from "./records.ts";
import { forwardEmail, replyToEmail } from "./replies.ts";
import { getThread, listThreads, threadMessages } from "./threads.ts";

// Threads link messages by Message-ID, never by subject: a reply joins its
// parent's thread, a child that came first is joined by its parent, and sent
// mail joins the thread it answers.

const memory = memoryOfFile();

/** Files a message with this Message-ID (and what it answers) for the agent; the email filed. */
async function receive(agent: AgentRecord, id: string, headers: Record<string, string> = {}): Promise<EmailRecord> {
  await memory.mailTo(agent, { "Message-ID": `<${id}@sender.example>`, ...headers });
  memory.clock.advance(1_000);
  const email = (await listEmails(memory.services, agent, { limit: 1 })).data[0];
  if (!email) throw new Error("nothing was filed");
  return email;
}

/** How many received and sent messages the thread holds. */
async function sizeOf(agent: AgentRecord, threadId: string | null) {
  const query = { include: { emails: true, sent: true } } as const;
  const thread = (await getThread(memory.services, agent, threadId ?? "", query)) as unknown as {
    emails: unknown[];
    sent: unknown[];
  };
  return { received: thread.emails.length, sent: thread.sent.length };
}

const answering = (id: string) => ({ "In-Reply-To": `<${id}@sender.example>` });

describe("threading received mail", () => {
  test("a reply joins its parent's thread; the same subject alone does not", async () => {
    const agent = await memory.agent("threader");
    const parent = await receive(agent, "p1", { Subject: "Plans" });
    const reply = await receive(agent, "r1", { Subject: "Re: Plans", ...answering("p1") });
    const stranger = await receive(agent, "s1", { Subject: "Plans" });
    expect(reply.threadId).toBe(parent.threadId);
    expect(stranger.threadId).not.toBe(parent.threadId);
    expect((await getThread(memory.services, agent, parent.threadId ?? "", {})).subject).toBe("Plans");
    expect(await sizeOf(agent, parent.threadId)).toEqual({ received: 2, sent: 0 });
  });

  test("children that came before their parent are joined by it, and siblings meet", async () => {
    const agent = await memory.agent("orphans");
    const first = await receive(agent, "c1", answering("late"));
    const second = await receive(agent, "c2", { References: "<late@sender.example>" });
    expect(second.threadId).toBe(first.threadId);
    const parent = await receive(agent, "late");
    const threads = (await listThreads(memory.services, agent, {}, {})).data;
    expect(threads.map((thread) => thread.id)).toEqual([parent.threadId]);
  });

  test("one agent's threads are not another's", async () => {
    const agent = await memory.agent("private");
    const other = await memory.agent("nosy");
    const email = await receive(agent, "own");
    await expect(getThread(memory.services, other, email.threadId ?? "", {})).rejects.toMatchObject({
      kind: "NOT_FOUND",
    });
    expect((await listThreads(memory.services, other, {}, {})).total).toBe(0);
  });

  test("a thread whose mail is all deleted is gone", async () => {
    const agent = await memory.agent("emptied");
    const email = await receive(agent, "only");
    await deleteEmail(memory.services, agent, email.id, true);
    await expect(getThread(memory.services, agent, email.threadId ?? "", {})).rejects.toMatchObject({
      kind: "NOT_FOUND",
    });
  });
});

describe("threading sent mail", () => {
  test("a reply and a forward join the thread of the email they answer; a new send starts its own", async () => {
    const agent = await memory.agent("answerer");
    const email = await receive(agent, "q1", { Subject: "Question" });
    const reply = await replyToEmail(memory.services, agent, email.id, { text: "Answer." });
    const forward = await forwardEmail(memory.services, agent, email.id, { to: ["boss@elsewhere.example"] });
    const fresh = await sendEmail(memory.services, agent, { to: ["x@elsewhere.example"], subject: "New", text: "." });
    if (isPending(reply) || isPending(forward) || isPending(fresh)) throw new Error("a send waits");
    expect(reply).toMatchObject({ threadId: email.threadId, subject: "Re: Question" });
    expect(reply.inReplyTo).toBe("<q1@sender.example>");
    expect(forward).toMatchObject({ threadId: email.threadId, subject: "Fwd: Question" });
    expect(fresh.threadId).not.toBe(email.threadId);
    expect(await sizeOf(agent, email.threadId)).toEqual({ received: 1, sent: 2 });
  });

  test("the answer to a reply lands in the thread too", async () => {
    const agent = await memory.agent("conversant");
    const email = await receive(agent, "t1");
    const reply = await replyToEmail(memory.services, agent, email.id, { text: "Yes." });
    if (isPending(reply)) throw new Error("the reply waits");
    const answer = await receive(agent, "t2", { "In-Reply-To": reply.messageId, References: reply.messageId });
    expect(answer.threadId).toBe(email.threadId);
  });

  test("a stranger writing a sent message's Message-ID as his own, answering his own, moves no conversation", async () => {
    const agent = await memory.agent("impersonated");
    const alice = await receive(agent, "impersonated-alice", { Subject: "Contract" });
    const reply = await replyToEmail(memory.services, agent, alice.id, { text: "Signed." });
    if (isPending(reply)) throw new Error("the reply waits");
    const mallory = await receive(agent, "impersonated-mallory", { Subject: "Hello" });
    // A recipient of the reply knows its Message-ID, and writes it as his message's, answering his own.
    const own = { "Message-ID": reply.messageId, Subject: "Re: Contract" };
    const merging = await receive(agent, "x", { ...own, ...answering("impersonated-mallory") });
    expect(merging.threadId).toBe(mallory.threadId);
    expect(await sizeOf(agent, alice.threadId)).toEqual({ received: 1, sent: 1 });
    expect(await sizeOf(agent, mallory.threadId)).toEqual({ received: 2, sent: 0 });
  });

  test("a copy of the agent's own message coming back (a list's echo) joins its thread", async () => {
    const agent = await memory.agent("echoed");
    const email = await receive(agent, "echoed-q", { Subject: "Question" });
    const reply = await replyToEmail(memory.services, agent, email.id, { text: "Answer." });
    const post = await sendEmail(memory.services, agent, {
      to: ["list@elsewhere.example"],
      subject: "News",
      text: ".",
    });
    if (isPending(reply) || isPending(post)) throw new Error("a send waits");
    const echo = await receive(agent, "e", { "Message-ID": post.messageId, Subject: "[list] News" });
    expect(echo.threadId).toBe(post.threadId);
    const answerEcho = await receive(agent, "f", { "Message-ID": reply.messageId, ...answering("echoed-q") });
    expect(answerEcho.threadId).toBe(email.threadId);
  });
});

describe("a thread's messages", () => {
  test("received and sent together, oldest first", async () => {
    const agent = await memory.agent("chronicler");
    const first = await receive(agent, "c1");
    const reply = await replyToEmail(memory.services, agent, first.id, { text: "Noted." });
    if (isPending(reply)) throw new Error("the reply waits");
    memory.clock.advance(1_000);
    const second = await receive(agent, "c2", answering("c1"));
    const query = { include: { emails: true, sent: true } } as const;
    const thread = (await getThread(memory.services, agent, first.threadId, query)) as unknown as {
      emails: Email[];
      sent: SentEmail[];
    };
    const order = threadMessages(thread).map((m) => (m.direction === "received" ? m.email.id : m.sent.id));
    expect(order).toEqual([first.id, reply.id, second.id]);
  });
});
