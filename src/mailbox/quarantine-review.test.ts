import { describe, expect, test } from "vitest";
import { reviewPage } from "../server/review-page.ts";
import { memoryOfFile, openMemory, rawMessage } from "../testing/memory.ts";
import { addressOf } from "./agents.ts";
import { listEmails } from "./emails.ts";
import { agentEvents } from "./events.ts";
import type { Scans } from "./inspection.ts";
import {
  deleteByLink,
  deleteQuarantinedMessage,
  listQuarantine,
  openQuarantineReview,
  releaseByLink,
} from "./quarantine.ts";
import type { AgentRecord } from "./records.ts";
import { openReview } from "./review.ts";
import { sendDueNotices } from "./review-notices.ts";

// A quarantined message's review link: mailed to the agent's reviewer with
// the hold, it opens the message (its text, never its HTML) and releases or
// deletes it, once; the agent is never told it.

const memory = memoryOfFile({ REVIEWER_EMAIL: "boss@reviewers.example" });

const INFECTED: Scans = { spam: null, malware: { status: "infected", signature: "Eicar-Test-Signature" } };

/** Quarantines a message to the agent, and reads its review link out of the notice the reviewer was mailed. */
async function quarantine(agent: AgentRecord, subject = "Invoice") {
  const address = addressOf(agent, memory.services.config);
  const body = "Open the <b>attachment</b> & pay.";
  const filed = await memory.receive(rawMessage({ To: address, Subject: subject }, body), [address], "", INFECTED);
  expect(filed.map((f) => f.outcome)).toEqual(["quarantined"]);
  await sendDueNotices(memory.services, new AbortController().signal);
  const notice = memory.mailer.handed.findLast((h) => h.raw.includes(`Quarantined: ${subject}`));
  const text = notice?.raw.replace(/=\r\n/g, "") ?? "";
  const token = /\/review\/(pr_[A-Za-z0-9_-]{43})/.exec(text)?.[1];
  if (!token) throw new Error("no review link was mailed");
  const [held] = (await listQuarantine(memory.services, { agentId: agent.id }, {})).data;
  return { token, text, heldId: held?.id ?? "" };
}

describe("the notice", () => {
  test("tells the reviewer what was held and why, with the link; the agent hears nothing", async () => {
    const agent = await memory.agent("notified");
    const { token, text } = await quarantine(agent);
    expect(text).toContain("From: pat@sender.example");
    expect(text).toContain("Why: malware (Eicar-Test-Signature)");
    expect(text).toContain(`/review/${token}`);
    expect(await memory.eventTypes(agent)).toEqual([]);
    expect(JSON.stringify((await agentEvents(memory.services, agent, {})).data)).not.toContain(token);
  });

  test("with no reviewer set, a log line says the hold was not announced", async () => {
    const bare = await openMemory();
    try {
      const agent = await bare.agent("unreviewed");
      const address = addressOf(agent, bare.services.config);
      await bare.receive(rawMessage({ To: address }), [address], "", INFECTED);
      const line = bare.logs.find((l) => l.event === "review_unannounced");
      expect(line?.fields).toMatchObject({ agentId: agent.id, reason: "no reviewer is set" });
      expect(line?.fields.quarantinedId).toEqual(expect.any(String));
    } finally {
      await bare.close();
    }
  });
});

describe("the link", () => {
  test("opens the message: why it is held, and its text escaped on a page that loads nothing", async () => {
    const agent = await memory.agent("opened");
    const { token } = await quarantine(agent, "Read me");
    const review = await openQuarantineReview(memory.services, token);
    expect(review.held).toMatchObject({ reason: "malware", detail: "Eicar-Test-Signature", subject: "Read me" });
    expect(review.text).toContain("Open the <b>attachment</b> & pay.");
    const page = await reviewPage(memory.services, token);
    expect(page.status).toBe(200);
    expect(page.html).toContain("Open the &lt;b&gt;attachment&lt;/b&gt; &amp; pay.");
    expect(page.html).not.toContain("<iframe");
    expect(page.html).toContain('id="release"');
    expect(page.headers["Content-Security-Policy"]).toContain("default-src 'none'");
  });

  test("releases the message into the inbox once: email.received then, and 410 after", async () => {
    const agent = await memory.agent("released");
    const { token } = await quarantine(agent);
    expect((await listEmails(memory.services, agent, {})).data).toEqual([]);
    const { emailId } = await releaseByLink(memory.services, token);
    expect((await listEmails(memory.services, agent, {})).data.map((e) => e.id)).toEqual([emailId]);
    expect(await memory.eventTypes(agent)).toContain("email.received");
    await expect(releaseByLink(memory.services, token)).rejects.toMatchObject({ kind: "GONE" });
    await expect(deleteByLink(memory.services, token)).rejects.toMatchObject({
      kind: "GONE",
      message: expect.stringContaining("already released"),
    });
    expect((await reviewPage(memory.services, token)).status).toBe(410);
  });

  test("deletes the message; the operator's delete closes the link too", async () => {
    const agent = await memory.agent("deleted");
    const first = await quarantine(agent, "First");
    expect(await deleteByLink(memory.services, first.token)).toMatchObject({ success: true });
    expect((await listQuarantine(memory.services, { agentId: agent.id }, {})).total).toBe(0);
    await expect(openQuarantineReview(memory.services, first.token)).rejects.toMatchObject({ kind: "GONE" });
    const second = await quarantine(agent, "Second");
    await deleteQuarantinedMessage(memory.services, second.heldId);
    await expect(releaseByLink(memory.services, second.token)).rejects.toMatchObject({
      kind: "GONE",
      message: expect.stringContaining("already deleted"),
    });
    expect((await listEmails(memory.services, agent, {})).data).toEqual([]);
  });

  test("decides only a quarantined message: a draft's review does not take it", async () => {
    const agent = await memory.agent("crossed");
    const { token } = await quarantine(agent);
    await expect(openReview(memory.services, token)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(releaseByLink(memory.services, "pr_nothing")).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });
});
