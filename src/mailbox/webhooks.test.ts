import { describe, expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { agentEvents } from "./events.ts";
import type { AgentRecord } from "./records.ts";
import { CLAIM_MS, claimDueDeliveries, deliveriesQueued, recordAttempt, releaseClaim } from "./webhook-deliveries.ts";
import {
  createWebhook,
  deleteWebhook,
  deliveryTypeOf,
  getWebhook,
  listDeliveries,
  MAX_WEBHOOKS,
  retryDelivery,
  rotateWebhookSecret,
  updateWebhook,
} from "./webhooks.ts";

// Webhooks: what may be registered, which events each one is sent, and how
// deliveries are claimed, retried, paused and finally disabled.

const memory = memoryOfFile();

const URL = "https://hooks.example/pigeonhole";

/** The due deliveries of this agent's webhooks, claimed. */
const claimed = async (agent: AgentRecord) =>
  (await claimDueDeliveries(memory.services, 50)).filter((delivery) => delivery.webhookAgentId === agent.id);

/** A new agent with a webhook, mailed once: the delivery of that message, claimed. */
async function claimedDelivery(id: string) {
  const agent = await memory.agent(id);
  const { webhook } = await createWebhook(memory.services, { agentId: agent.id }, { url: URL });
  await memory.mailTo(agent);
  const [delivery] = await claimed(agent);
  if (!delivery) throw new Error("nothing was due");
  return { agent, webhook, delivery };
}

describe("registering", () => {
  test("a webhook gets a whsec_ secret shown once; rotation replaces it", async () => {
    const agent = await memory.agent("hooked");
    const { webhook, secret } = await createWebhook(
      memory.services,
      { agentId: agent.id },
      { url: URL, events: ["email.received"] },
    );
    expect(secret).toMatch(/^whsec_/);
    expect(webhook).toMatchObject({ url: URL, enabled: true });
    const rotated = await rotateWebhookSecret(memory.services, { agentId: agent.id }, webhook.id);
    expect(rotated.secret).not.toBe(secret);
  });

  test.each([
    [{}, "url is required"],
    [{ url: "http://hooks.example/" }, "url must be https://"],
    [{ url: "https://user:pw@hooks.example/" }, "url must not carry a user name or password"],
    [{ url: "https://10.0.0.1/" }, "url must not name a private address: 10.0.0.1"],
    [{ url: "https://[::1]/" }, "url must not name a private address: ::1"],
    [{ url: URL, events: ["email.nope"] }, /events/],
    [{ url: URL, description: "x".repeat(501) }, /description must be at most/],
  ])("%j is refused: %s", async (input, message) => {
    const agent = await memory.agent(`refused${Math.random().toString(36).slice(2, 8)}`);
    await expect(createWebhook(memory.services, { agentId: agent.id }, input)).rejects.toMatchObject({
      kind: "BAD_REQUEST",
      message: typeof message === "string" ? message : expect.stringMatching(message),
    });
  });

  test("an agent may have at most ten", async () => {
    const agent = await memory.agent("collector");
    for (let n = 0; n < MAX_WEBHOOKS; n++)
      await createWebhook(memory.services, { agentId: agent.id }, { url: `${URL}/${n}` });
    await expect(createWebhook(memory.services, { agentId: agent.id }, { url: URL })).rejects.toMatchObject({
      details: { code: "TOO_MANY_WEBHOOKS", limit: 10, current: 10 },
    });
  });

  test("another agent's webhook is not found; a deleted one is gone", async () => {
    const agent = await memory.agent("keeper");
    const other = await memory.agent("peeker");
    const { webhook } = await createWebhook(memory.services, { agentId: agent.id }, { url: URL });
    await expect(getWebhook(memory.services, { agentId: other.id }, webhook.id)).rejects.toMatchObject({
      kind: "NOT_FOUND",
    });
    await expect(
      updateWebhook(memory.services, { agentId: other.id }, webhook.id, { enabled: false }),
    ).rejects.toMatchObject({
      kind: "NOT_FOUND",
    });
    await deleteWebhook(memory.services, { agentId: agent.id }, webhook.id);
    await expect(deleteWebhook(memory.services, { agentId: agent.id }, webhook.id)).rejects.toMatchObject({
      kind: "NOT_FOUND",
    });
  });
});

describe("deliveries", () => {
  test("each enabled webhook that wants the event's type gets a delivery of it", async () => {
    const agent = await memory.agent("fanout");
    const all = (await createWebhook(memory.services, { agentId: agent.id }, { url: `${URL}/all` })).webhook;
    const sent = (
      await createWebhook(memory.services, { agentId: agent.id }, { url: `${URL}/sent`, events: ["email.sent"] })
    ).webhook;
    const off = (await createWebhook(memory.services, { agentId: agent.id }, { url: `${URL}/off` })).webhook;
    await updateWebhook(memory.services, { agentId: agent.id }, off.id, { enabled: false });
    await memory.mailTo(agent);
    const due = await claimed(agent);
    expect(due.map((delivery) => delivery.webhookId)).toEqual([all.id]);
    expect(deliveryTypeOf(due[0] ?? { payload: "{}" })).toBe("email.received");
    expect(JSON.parse(due[0]?.payload ?? "{}").data).toMatchObject({ agentId: "fanout", folder: "inbox" });
    expect((await listDeliveries(memory.services, { agentId: agent.id }, sent.id, {})).total).toBe(0);
  });

  test("the webhook worker is woken by mail to an agent with a webhook, and by a retry; not by other mail", async () => {
    const woken = () => {
      let heard = false;
      const stop = new AbortController();
      void deliveriesQueued(memory.services, stop.signal).then(() => {
        heard = !stop.signal.aborted;
      });
      return async () => {
        await new Promise((resolve) => setImmediate(resolve));
        stop.abort();
        return heard;
      };
    };
    let heard = woken();
    await memory.mailTo(await memory.agent("unhooked"));
    expect(await heard()).toBe(false);
    heard = woken();
    const { agent, webhook, delivery } = await claimedDelivery("hooked-wake");
    expect(await heard()).toBe(true);
    heard = woken();
    await retryDelivery(memory.services, { agentId: agent.id }, webhook.id, delivery.id);
    expect(await heard()).toBe(true);
  });

  test("a claimed delivery is not claimed again; a 2xx delivers it", async () => {
    const { agent, webhook, delivery } = await claimedDelivery("delivered");
    expect(await claimed(agent)).toEqual([]);
    await recordAttempt(memory.services, delivery, { statusCode: 204, error: null, durationMs: 12 });
    const [listed] = (await listDeliveries(memory.services, { agentId: agent.id }, webhook.id, {})).data;
    expect(listed).toMatchObject({ status: "delivered", attempts: 1 });
    expect(listed?.attemptLog).toMatchObject([{ statusCode: 204 }]);
  });

  test("a failure pauses the webhook and tries again later; retry makes it due now", async () => {
    const { agent, webhook, delivery } = await claimedDelivery("flaky");
    await recordAttempt(memory.services, delivery, { statusCode: 500, error: "HTTP 500", durationMs: 5 });
    expect((await getWebhook(memory.services, { agentId: agent.id }, webhook.id)).failuresInARow).toBe(1);
    // The first pause is about 5 s (a fifth either way).
    memory.clock.advance(3_900);
    expect(await claimed(agent)).toEqual([]);
    memory.clock.advance(2_200);
    const [again] = await claimed(agent);
    expect(again?.attempts).toBe(1);
    await recordAttempt(memory.services, again ?? delivery, { statusCode: null, error: "timeout", durationMs: 10_000 });
    expect(await claimed(agent)).toEqual([]);
    await retryDelivery(memory.services, { agentId: agent.id }, webhook.id, delivery.id);
    expect((await claimed(agent)).map((d) => d.id)).toEqual([delivery.id]);
  });

  test("a retry asked for during an attempt follows it, never beside it, whatever the attempt came to", async () => {
    for (const [id, statusCode] of [
      ["retried-delivered", 204],
      ["retried-failed", 500],
    ] as const) {
      const { agent, webhook, delivery } = await claimedDelivery(id);
      memory.clock.advance(1);
      await retryDelivery(memory.services, { agentId: agent.id }, webhook.id, delivery.id);
      expect(await claimed(agent)).toEqual([]);
      await recordAttempt(memory.services, delivery, { statusCode, error: null, durationMs: 3 });
      const [listed] = (await listDeliveries(memory.services, { agentId: agent.id }, webhook.id, {})).data;
      expect(listed).toMatchObject({ status: "pending", attempts: 1 });
      const [again] = await claimed(agent);
      expect(again).toMatchObject({ id: delivery.id, attempts: 1 });
      // That attempt was the retry: one that fails waits out the pause like any other.
      await recordAttempt(memory.services, again ?? delivery, { statusCode: 500, error: "HTTP 500", durationMs: 3 });
      expect(await claimed(agent)).toEqual([]);
    }
  });

  test("a retry whose claim ends with no attempt recorded (a stop, a crash) still goes at once, paused or not", async () => {
    const { agent, webhook, delivery } = await claimedDelivery("retried-unrecorded");
    let last = delivery;
    // Three failures in a row: the webhook is paused for about 2 minutes, longer than a claim lasts.
    for (const wait of [6_100, 36_100, 0]) {
      await recordAttempt(memory.services, last, { statusCode: 500, error: "HTTP 500", durationMs: 1 });
      memory.clock.advance(wait);
      if (wait > 0) last = (await claimed(agent))[0] ?? last;
    }
    expect(await claimed(agent)).toEqual([]);
    await retryDelivery(memory.services, { agentId: agent.id }, webhook.id, delivery.id);
    const [taken] = await claimed(agent);
    expect(taken?.id).toBe(delivery.id);
    await releaseClaim(memory.services, taken ?? delivery);
    const [again] = await claimed(agent);
    expect(again?.id).toBe(delivery.id);
    // Its instance dies: the claim runs out, the pause does not.
    memory.clock.advance(CLAIM_MS + 1);
    expect((await claimed(agent)).map((d) => d.id)).toEqual([delivery.id]);
  });

  test("a webhook whose every attempt failed for a day is disabled, and the agent is told", async () => {
    const agent = await memory.agent("dead");
    const { webhook } = await createWebhook(memory.services, { agentId: agent.id }, { url: URL });
    for (let hour = 0; hour <= 25; hour += 5) {
      await memory.mailTo(agent);
      for (const delivery of await claimed(agent)) {
        await recordAttempt(memory.services, delivery, { statusCode: 503, error: "HTTP 503", durationMs: 1 });
      }
      memory.clock.advance(5 * 3_600_000);
    }
    const disabled = await getWebhook(memory.services, { agentId: agent.id }, webhook.id);
    expect(disabled).toMatchObject({ enabled: false });
    expect(disabled.disabledReason).toMatch(/^Every attempt failed for 24 hours; the last: HTTP 503/);
    const types = (await agentEvents(memory.services, agent, { types: ["webhook.disabled"] })).data;
    expect(types).toHaveLength(1);
    const resumed = await updateWebhook(memory.services, { agentId: agent.id }, webhook.id, { enabled: true });
    expect(resumed).toMatchObject({ enabled: true, disabledReason: null, failuresInARow: 0 });
  });
});
