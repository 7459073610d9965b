import { afterEach, describe, expect, test } from "vitest";
import { createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { served } from "./support/served.ts";
import { waitFor } from "./support/wait.ts";

// A send's answer matches what happened at the provider. Before the content
// went out a failure means "not delivered": no record, nothing counted, and
// the provider never gets the message. After it, a late or missing reply
// means "unknown": the record and its count stay, and the provider's late
// answer settles them.

const DEADLINE_MS = 1500;

const { svc, api, x, provider } = served({
  smtp: true,
  env: { SMTP_TIMEOUT_MS: String(DEADLINE_MS), DAILY_SEND_LIMIT: "3" },
});
afterEach(() => {
  provider.release();
  provider.behaviour = "accept";
  provider.delayMs = 0;
});

const send = (agent: TestAgent, subject = "s") =>
  api.post(`/agents/${agent.id}/send`, { key: agent.apiKey, body: { to: "bob@example.com", subject, text: "t" } });
const sentList = async (agent: TestAgent) =>
  (await api.get(`/agents/${agent.id}/sent`, { key: agent.apiKey })).body.data as {
    id: string;
    subject: string;
    providerId: string | null;
  }[];
const used = async (agent: TestAgent) =>
  (await api.graphql(`query($id: ID!) { agent(id: $id) { sendQuota { used } } }`, { id: agent.id }, agent.apiKey)).body
    .data.agent.sendQuota.used as number;
const deliveredWith = (subject: string) => provider.deliveries.filter((d) => d.parsed.subject === subject);
const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("before the content went out: not delivered", () => {
  test("a provider stalling before the content: 500, no record, nothing counted, never delivered later", async () => {
    const agent = await createVerifiedAgent(api, x);
    provider.behaviour = "stall-envelope";
    const before = provider.contentReceived;
    const replies = await Promise.all(Array.from({ length: 12 }, (_, i) => send(agent, `stalled ${i}`)));
    // Three take the day's three sends and fail; the rest meet the limit while those are in flight.
    const failed = replies.filter((reply) => reply.status === 500);
    expect(failed).toHaveLength(3);
    expect(replies.filter((reply) => reply.status === 429)).toHaveLength(9);
    for (const reply of failed) {
      expect(reply.body).toEqual({
        error: "Internal Server Error",
        statusCode: 500,
        message: expect.stringContaining("Delivery failed"),
      });
    }
    expect(await sentList(agent)).toEqual([]);
    expect(await used(agent)).toBe(0);
    // The provider recovers: the closed connections can never complete their transactions.
    provider.release();
    provider.behaviour = "accept";
    await pause(500);
    expect(provider.contentReceived).toBe(before);
    const after = await send(agent, "after recovery");
    expect(after.status).toBe(201);
    expect(await used(agent)).toBe(1);
  });

  test("a provider refusing the message at once: 500, no record, nothing counted", async () => {
    const agent = await createVerifiedAgent(api, x);
    provider.behaviour = "refuse";
    const reply = await send(agent, "refused");
    expect(reply.status).toBe(500);
    expect(reply.body.message).toContain("Delivery failed");
    expect(await sentList(agent)).toEqual([]);
    expect(await used(agent)).toBe(0);
  });
});

describe("after the content went out: unknown until the provider answers", () => {
  const unconfirmed = (id: string) => ({
    error: "Internal Server Error",
    statusCode: 500,
    message: expect.stringMatching(new RegExp(`may still be delivered.*sent email ${id}`)),
  });

  test("a provider accepting after the deadline: the record stays and gets its providerId; the limit holds", async () => {
    const agent = await createVerifiedAgent(api, x);
    provider.delayMs = DEADLINE_MS + 1500;
    const replies = await Promise.all(Array.from({ length: 6 }, (_, i) => send(agent, `late ${agent.id} ${i}`)));
    const late = replies.filter((reply) => reply.status === 500);
    expect(late).toHaveLength(3);
    expect(replies.filter((reply) => reply.status === 429)).toHaveLength(3);
    const records = await sentList(agent);
    expect(records).toHaveLength(3);
    expect(records.every((record) => record.providerId === null)).toBe(true);
    for (const reply of late) {
      const id = /sent email (\S+?),/.exec(reply.body.message)?.[1];
      expect(records.map((record) => record.id)).toContain(id);
      expect(reply.body).toEqual(unconfirmed(id ?? ""));
    }
    expect(await used(agent)).toBe(3);
    const settled = await waitFor(
      async () => {
        const now = await sentList(agent);
        return now.every((record) => record.providerId !== null) ? now : null;
      },
      10_000,
      "the late answers",
    );
    for (const record of settled) {
      expect(record.providerId).toMatch(/^Q\d+$/);
      expect(deliveredWith(record.subject)).toHaveLength(1);
    }
    expect(await used(agent)).toBe(3);
  });

  test("a provider refusing after the deadline: the record and its count go once it answers", async () => {
    const agent = await createVerifiedAgent(api, x);
    provider.behaviour = "refuse";
    provider.delayMs = DEADLINE_MS + 1000;
    const reply = await send(agent, "refused late");
    expect(reply.status).toBe(500);
    const [record] = await sentList(agent);
    expect(reply.body).toEqual(unconfirmed(record?.id ?? "?"));
    expect(await used(agent)).toBe(1);
    await waitFor(async () => (await sentList(agent)).length === 0, 10_000, "the late refusal");
    expect(await used(agent)).toBe(0);
    expect(deliveredWith("refused late")).toEqual([]);
  });

  test("a scheduled send the provider refuses late: its draft back as failed, with email.send_failed, never sent again", async () => {
    const agent = await createVerifiedAgent(api, x);
    provider.behaviour = "refuse";
    provider.delayMs = DEADLINE_MS + 1000;
    const before = provider.contentReceived;
    const scheduled = await api.post(`/agents/${agent.id}/send`, {
      key: agent.apiKey,
      body: { to: "pat@example.com", subject: "refused late, scheduled", text: "Hi.", sendAt: Date.now() + 1100 },
    });
    expect(scheduled.status).toBe(202);
    const draftPath = `/agents/${agent.id}/drafts/${scheduled.body.id}`;
    const failed = await waitFor(
      async () => {
        const draft = await api.get(draftPath, { key: agent.apiKey });
        return draft.body.sendStatus === "failed" ? draft.body : null;
      },
      15_000,
      "the late refusal",
    );
    expect(failed.failure.message).toMatch(/refused it late/);
    const events = await api.get(`/agents/${agent.id}/events?types=email.send_failed`, { key: agent.apiKey });
    expect(events.body.data.map((e: { data: { draftId: string } }) => e.data.draftId)).toEqual([scheduled.body.id]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(provider.contentReceived - before).toBe(1);
    expect(await used(agent)).toBe(0);
  });

  test("a provider stalling after the content, then failing: undone when it answers", async () => {
    const agent = await createVerifiedAgent(api, x);
    provider.behaviour = "stall";
    const reply = await send(agent, "stalled after content");
    expect(reply.status).toBe(500);
    expect(reply.body.message).toMatch(/may still be delivered/);
    expect(await sentList(agent)).toHaveLength(1);
    expect(await used(agent)).toBe(1);
    provider.release();
    await waitFor(async () => (await sentList(agent)).length === 0, 10_000, "the stalled answer");
    expect(await used(agent)).toBe(0);
  });

  test("a connection dropped after the content: the record stays, unknown, and keeps its count", async () => {
    const agent = await createVerifiedAgent(api, x);
    provider.behaviour = "drop";
    const reply = await send(agent, "dropped");
    expect(reply.status).toBe(500);
    expect(reply.body.message).toMatch(/may still be delivered/);
    await pause(500);
    const records = await sentList(agent);
    expect(records).toHaveLength(1);
    expect(records[0]?.providerId).toBeNull();
    expect(await used(agent)).toBe(1);
    provider.behaviour = "accept";
    expect((await send(agent, "next")).status).toBe(201);
  });
});

test("an agent deleted while its send is in flight: 404, not 500", async () => {
  const agent = await createVerifiedAgent(api, x);
  provider.delayMs = 500;
  const sending = send(agent, "deleted meanwhile");
  await pause(200);
  expect((await api.delete(`/agents/${agent.id}`, { key: agent.apiKey })).status).toBe(200);
  const reply = await sending;
  expect(reply.status).toBe(404);
  expect(reply.body).toEqual({
    error: "Not Found",
    statusCode: 404,
    message: expect.stringContaining("deleted meanwhile"),
  });
  expect(svc.logs.filter((line) => line.event === "request_failed")).toEqual([]);
});
