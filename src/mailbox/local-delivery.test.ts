import { describe, expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { setLimits } from "./admin.ts";
import { createAgent } from "./agents.ts";
import { isPending } from "./drafts.ts";
import { listEmails } from "./emails.ts";
import { LOCAL_PROVIDER } from "./local-delivery.ts";
import { sendEmail } from "./outbox.ts";
import type { AgentRecord } from "./records.ts";
import { setSenders } from "./senders.ts";
import { sendQuota } from "./sending.ts";

// Mail between agents of this instance: filed at once through the filing
// rules, never handed to the provider, counted as sent and as received, with
// a report for each local recipient on the sent email.

const memory = memoryOfFile();

const sent = (from: AgentRecord, to: string[], subject = "Hello") =>
  memory.sendNow(from, { to, subject, text: "Hi there." });

describe("between agents here", () => {
  test("filed at once for the recipient, never handed to the provider, counted on both sides", async () => {
    const scout = await memory.agent("scout");
    const ranger = await memory.agent("ranger");
    const handed = memory.mailer.handed.length;
    const record = await sent(scout, ["ranger@agents.example"]);
    expect(memory.mailer.handed).toHaveLength(handed);
    expect(record).toMatchObject({ providerId: LOCAL_PROVIDER, deliveryStatus: "delivered" });
    expect((await sendQuota(memory.services, scout)).used).toBe(1);
    const [email] = (await listEmails(memory.services, ranger, {})).data;
    expect(email).toMatchObject({ fromAddress: "scout@agents.example", subject: "Hello", folder: "inbox" });
    expect(email?.bodyText).toContain("Hi there.");
    expect((await memory.reload(ranger)).storageUsed).toBe(email?.size);
    expect(await memory.eventTypes(ranger)).toEqual(["email.received"]);
    expect(await memory.eventTypes(scout)).toEqual(expect.arrayContaining(["email.sent", "email.delivered"]));
  });

  test("an answer from the recipient lands in the sender's thread", async () => {
    const a = await memory.agent("asker");
    const b = await memory.agent("teller");
    const question = await sent(a, ["teller@agents.example"], "Question");
    const [received] = (await listEmails(memory.services, b, {})).data;
    const answer = await sendEmail(memory.services, b, {
      to: ["asker@agents.example"],
      subject: "Re: Question",
      text: "Answer.",
      inReplyTo: received?.messageId ?? "",
    });
    if (isPending(answer)) throw new Error("the answer waits");
    const [reply] = (await listEmails(memory.services, a, {})).data;
    expect(reply?.threadId).toBe(question.threadId);
  });

  test("an address here with no verified agent is refused before anything is taken", async () => {
    const sender = await memory.agent("lonely");
    await createAgent(memory.services, { id: "pending", name: "P" }, "self");
    for (const address of ["nobody@agents.example", "pending@agents.example"]) {
      await expect(sent(sender, [address])).rejects.toMatchObject({
        kind: "BAD_REQUEST",
        details: { code: "NO_SUCH_MAILBOX", recipients: [address] },
      });
    }
    expect((await sendQuota(memory.services, sender)).used).toBe(0);
  });

  test("a recipient whose mailbox is full bounces; the sender keeps its send", async () => {
    const sender = await memory.agent("generous");
    await memory.agent("hoarder");
    await setLimits(memory.services, "hoarder", { storageLimit: 10 });
    const record = await sent(sender, ["hoarder@agents.example"]);
    expect(record.deliveryStatus).toBe("bounced");
    expect((await sendQuota(memory.services, sender)).used).toBe(1);
  });

  test("a recipient whose lists refuse the sender bounces, and is told nothing", async () => {
    const sender = await memory.agent("pest");
    const guarded = await memory.agent("guarded");
    await setSenders(memory.services, guarded, { block: ["pest@agents.example"] });
    const record = await sent(sender, ["guarded@agents.example"]);
    expect(record.deliveryStatus).toBe("bounced");
    expect((await listEmails(memory.services, guarded, {})).total).toBe(0);
    expect(await memory.eventTypes(sender)).toContain("email.bounced");
  });

  test("local and remote recipients at once: the provider gets the remote ones only", async () => {
    const sender = await memory.agent("mixer");
    await memory.agent("neighbour");
    await sent(sender, ["neighbour@agents.example", "pat@elsewhere.example"]);
    expect(memory.mailer.handed.at(-1)?.envelope.to).toEqual(["pat@elsewhere.example"]);
  });
});
