import { describe, expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { setSendPolicy } from "./admin.ts";
import { createAgent } from "./agents.ts";
import { deleteDraft, getDraft, isPending, sendDraft, sendDueDrafts, updateDraft } from "./drafts.ts";
import { agentEvents } from "./events.ts";
import { sendEmail } from "./outbox.ts";
import { createPod, setPodSendPolicy } from "./pods.ts";
import type { AgentRecord } from "./records.ts";
import {
  approveByLink,
  approveHeld,
  expireHeld,
  listHeld,
  openReview,
  openReviewAttachment,
  rejectByLink,
  rejectHeld,
} from "./review.ts";
import { sendDueNotices } from "./review-notices.ts";
import { listSent } from "./sending.ts";

// Approval before send: which messages the policy holds, the review link that
// goes to the reviewer and never to the agent, and one decision per message.

const memory = memoryOfFile({
  SEND_POLICY: "review_new_recipients",
  REVIEWER_EMAIL: "boss@reviewers.example",
  APPROVAL_TIMEOUT_HOURS: "2",
});

const message = (to = "pat@elsewhere.example", subject = "Hello") => ({ to: [to], subject, text: "Hi." });

/** Holds a message and reads its review link out of the notice the reviewer was mailed. */
async function hold(agent: AgentRecord, to = "pat@elsewhere.example", extra = {}) {
  const result = await sendEmail(memory.services, agent, { ...message(to), ...extra });
  if (!isPending(result)) throw new Error("the message was sent");
  await sendDueNotices(memory.services, new AbortController().signal);
  const notice = memory.mailer.handed.findLast((h) => h.envelope.to.includes("boss@reviewers.example"));
  const token = /\/review\/(pr_[A-Za-z0-9_-]{43})/.exec(notice?.raw.replace(/=\r\n/g, "") ?? "")?.[1];
  if (!token) throw new Error("no review link was mailed");
  return { draftId: result.id, token };
}

const sentSubjects = async (agent: AgentRecord) =>
  (await listSent(memory.services, agent, {}, {})).data.map((sent) => sent.subject);

describe("the policy", () => {
  test("review_new_recipients holds mail to a new address; once approved and sent, that address is known", async () => {
    const agent = await memory.writer("newcomer");
    const { token } = await hold(agent);
    expect(await approveByLink(memory.services, token)).toMatchObject({ status: "scheduled" });
    expect(await sendDueDrafts(memory.services)).toBe(1);
    const again = await sendEmail(memory.services, agent, message());
    expect(isPending(again)).toBe(false);
  });

  test("open sends everything; review_all holds everything; the agent's own policy wins over the instance's", async () => {
    const agent = await memory.writer("governed");
    await setSendPolicy(memory.services, agent.id, "open");
    expect(isPending(await sendEmail(memory.services, await memory.reload(agent), message()))).toBe(false);
    await setSendPolicy(memory.services, agent.id, "review_all");
    const held = await sendEmail(memory.services, await memory.reload(agent), message());
    expect(held).toMatchObject({ status: "pending_approval", to: ["pat@elsewhere.example"] });
    await expect(setSendPolicy(memory.services, agent.id, "sometimes")).rejects.toMatchObject({ kind: "BAD_REQUEST" });
  });

  test("an agent without a policy of its own follows its pod's, else the instance's; its own wins", async () => {
    await createPod(memory.services, { id: "crew", name: "Crew" });
    const { agent } = await createAgent(
      memory.services,
      { id: "crewmate", name: "Crewmate", podId: "crew" },
      "operator",
    );
    const held = async () => isPending(await sendEmail(memory.services, await memory.reload(agent), message()));
    expect(await held()).toBe(true);
    await setPodSendPolicy(memory.services, "crew", "open");
    expect(await held()).toBe(false);
    await setPodSendPolicy(memory.services, "crew", "review_all");
    expect(await held()).toBe(true);
    await setSendPolicy(memory.services, agent.id, "open");
    expect(await held()).toBe(false);
  });

  test("the agent hears that its message waits, never the link", async () => {
    const agent = await memory.writer("waiting");
    const { draftId, token } = await hold(agent);
    const events = (await agentEvents(memory.services, agent, {})).data;
    expect(events.map((event) => event.type)).toEqual(["email.held"]);
    expect(JSON.stringify(events)).not.toContain(token);
    expect(JSON.stringify(await getDraft(memory.services, agent, draftId))).not.toContain(token);
  });
});

describe("a held message", () => {
  test("is not the agent's to change or send; deleting it withdraws it and kills its link", async () => {
    const agent = await memory.writer("withdrawer");
    const { draftId, token } = await hold(agent);
    await expect(updateDraft(memory.services, agent, draftId, { subject: "Changed" })).rejects.toMatchObject({
      details: { code: "AWAITING_APPROVAL" },
    });
    await expect(sendDraft(memory.services, agent, draftId)).rejects.toMatchObject({
      details: { code: "AWAITING_APPROVAL" },
    });
    await deleteDraft(memory.services, agent, draftId);
    await expect(openReview(memory.services, token)).rejects.toMatchObject({
      kind: "GONE",
      message: expect.stringContaining("withdrawn by the agent"),
    });
  });

  test("its link shows the message and its attachment, and decides it once", async () => {
    const agent = await memory.writer("attacher");
    const attachments = [
      { filename: "a.txt", contentType: "text/plain", content: Buffer.from("hi").toString("base64") },
    ];
    const { draftId, token } = await hold(agent, "pat@elsewhere.example", { attachments });
    const review = await openReview(memory.services, token);
    expect(review).toMatchObject({ from: "attacher@agents.example", draft: { id: draftId } });
    expect((await openReviewAttachment(memory.services, token, 0)).content.toString()).toBe("hi");
    await expect(openReviewAttachment(memory.services, token, 1)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    expect(await rejectByLink(memory.services, token, "  not this one ")).toMatchObject({
      status: "rejected",
      reason: "not this one",
    });
    await expect(approveByLink(memory.services, token)).rejects.toMatchObject({
      kind: "GONE",
      details: { code: "ALREADY_DECIDED" },
      message: expect.stringContaining("already rejected"),
    });
    await expect(sendDraft(memory.services, agent, draftId)).rejects.toMatchObject({
      details: { code: "MESSAGE_REJECTED" },
    });
  });

  test("a token that was never one of ours is a 404", async () => {
    await expect(openReview(memory.services, "pr_nope")).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(openReview(memory.services, `pr_${"A".repeat(43)}`)).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });

  test("the operator decides by id; a second decision is refused", async () => {
    const agent = await memory.writer("operated");
    const first = await hold(agent, "one@elsewhere.example");
    const second = await hold(agent, "two@elsewhere.example");
    expect((await listHeld(memory.services, {})).data.map((draft) => draft.id)).toEqual(
      expect.arrayContaining([first.draftId, second.draftId]),
    );
    await approveHeld(memory.services, agent.id, first.draftId);
    await rejectHeld(memory.services, agent.id, second.draftId, null);
    await expect(approveHeld(memory.services, agent.id, first.draftId)).rejects.toMatchObject({ kind: "GONE" });
    await expect(approveHeld(memory.services, agent.id, "missing")).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(rejectHeld(memory.services, agent.id, second.draftId, "x".repeat(1_001))).rejects.toThrow(
      /at most 1000/,
    );
    expect(await sendDueDrafts(memory.services)).toBeGreaterThanOrEqual(1);
    expect(await sentSubjects(agent)).toHaveLength(1);
  });

  test("nobody deciding in time rejects it as expired, and its link says so", async () => {
    const agent = await memory.writer("forgotten");
    const { draftId, token } = await hold(agent);
    memory.clock.advance(2 * 3_600_000 + 1);
    expect(await expireHeld(memory.services)).toBeGreaterThanOrEqual(1);
    expect(await getDraft(memory.services, agent, draftId)).toMatchObject({
      sendStatus: "rejected",
      rejectReason: "expired",
    });
    await expect(approveByLink(memory.services, token)).rejects.toThrow(/expired: nobody decided in time/);
    const types = (await agentEvents(memory.services, agent, {})).data.map((event) => event.type);
    expect(types).toEqual(["email.held", "email.rejected"]);
  });
});
