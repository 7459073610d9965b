import { describe, expect, test } from "vitest";
import { CLAIM_MS } from "../src/mailbox/webhook-deliveries.ts";
import { Api, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { rawMessage } from "./support/mail.ts";
import { spawnService } from "./support/process.ts";
import { served } from "./support/served.ts";
import { freshDatabase, startTestService } from "./support/service.ts";
import { WAIT_MS, waitFor } from "./support/wait.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

// Webhooks: managed over REST and GraphQL, delivered at least once from the
// event log to a real receiver that checks the Standard Webhooks signature
// itself, retried with backoff, given up after a day, and never sent to a
// private address unless the operator allows it.

const { svc, api, x, dovecot } = served({
  imap: true,
  env: { IMAP_POLL_INTERVAL_MS: "60000", WEBHOOK_ALLOW_PRIVATE: "true" },
});
const env = () => ({
  SOCIAL_OEMBED_URL: x.url,
  MAIL_DOMAIN: "mail.example",
  IMAP_URL: dovecot.url(),
  IMAP_POLL_INTERVAL_MS: "60000",
  WEBHOOK_ALLOW_PRIVATE: "true",
});

const hooks = (agent: TestAgent) => `/agents/${agent.id}/webhooks`;

/** A webhook of the agent to the receiver; the receiver learns its secret. */
async function subscribe(agent: TestAgent, receiver: WebhookReceiver, body: object = {}, on = api) {
  const reply = await on.post(hooks(agent), { key: agent.apiKey, body: { url: receiver.url, ...body } });
  expect(reply.status).toBe(201);
  receiver.secrets.push(reply.body.secret);
  return reply.body;
}

/** One email filed for the agent, through Dovecot and the poller. */
async function emailFor(agent: TestAgent, subject = "hello", on = api) {
  await dovecot.append(rawMessage({ to: `${agent.id}@mail.example`, subject }));
  return waitFor(
    async () => {
      const { data } = (await on.get(`/agents/${agent.id}/emails?limit=100`, { key: agent.apiKey })).body;
      return data.find((e: { subject: string }) => e.subject === subject);
    },
    15_000,
    `the email "${subject}"`,
  );
}

/** email.updated events, as fast as they can be made: the read flag set and cleared. */
async function flips(agent: TestAgent, emailId: string, count: number, on = api) {
  for (let i = 0; i < count; i++) {
    const reply = await on.call("PATCH", `/agents/${agent.id}/emails/${emailId}`, {
      key: agent.apiKey,
      body: { isRead: i % 2 === 0 },
    });
    expect(reply.status).toBe(200);
  }
}

const deliveries = (agent: TestAgent, hookId: string, on = api) =>
  on.get(`${hooks(agent)}/${hookId}/deliveries?limit=100`, { key: agent.apiKey });

/** Moves the service's clock and waits for the worker, which looks at least every second, to act on it. */
async function advance(ms: number, until: () => Promise<boolean>, what: string) {
  svc.clock.advance(ms);
  await waitFor(until, 10_000, what);
}

describe("managing webhooks", () => {
  test("create answers the secret once; list, get, update and delete", async () => {
    const agent = await createVerifiedAgent(api, x);
    const receiver = await WebhookReceiver.start();
    const created = await subscribe(agent, receiver, { events: ["email.received"], description: "inbox watcher" });
    expect(created).toEqual({
      id: expect.any(String),
      url: receiver.url,
      events: ["email.received"],
      description: "inbox watcher",
      enabled: true,
      disabledReason: null,
      pausedUntil: null,
      createdAt: expect.any(Number),
      secret: expect.stringMatching(/^whsec_[A-Za-z0-9+/]{32}$/),
    });
    const { secret, ...webhook } = created;
    expect((await api.get(hooks(agent), { key: agent.apiKey })).body).toEqual({ data: [webhook] });
    const one = await api.get(`${hooks(agent)}/${webhook.id}`, { key: agent.apiKey });
    expect(one.body).toEqual(webhook);
    expect(one.text).not.toContain(secret);
    // What a PATCH leaves out stays as it was.
    const paused = await api.call("PATCH", `${hooks(agent)}/${webhook.id}`, {
      key: agent.apiKey,
      body: { enabled: false },
    });
    expect(paused.body).toEqual({ ...webhook, enabled: false });
    const updated = await api.call("PATCH", `${hooks(agent)}/${webhook.id}`, {
      key: agent.apiKey,
      body: { events: [], description: null, enabled: false },
    });
    expect(updated.body).toEqual({ ...webhook, events: [], description: null, enabled: false });
    const deleted = await api.delete(`${hooks(agent)}/${webhook.id}`, { key: agent.apiKey });
    expect(deleted.body).toMatchObject({ success: true });
    const gone = await api.get(`${hooks(agent)}/${webhook.id}`, { key: agent.apiKey });
    expect(gone.status).toBe(404);
    expect(gone.body).toMatchObject({ error: "Not Found", message: "Webhook not found" });
    await receiver.down();
  });

  test.each([
    [{}, /url is required/],
    [{ url: "not a url" }, /url must be an absolute URL/],
    [{ url: "ftp://hooks.example/x" }, /url must be http:\/\/ or https:\/\//],
    [{ url: "https://user:pw@hooks.example/x" }, /user name or password/],
    [{ url: `https://hooks.example/${"x".repeat(2100)}` }, /at most 2048/],
    [{ url: "https://hooks.example/x", events: ["email.exploded"] }, /not one of email.received/],
    [{ url: "https://hooks.example/x", description: "d".repeat(257) }, /description must be at most 256/],
  ])("%j is a 400", async (body, message) => {
    const agent = await createVerifiedAgent(api, x);
    const reply = await api.post(hooks(agent), { key: agent.apiKey, body });
    expect(reply.status).toBe(400);
    expect(reply.body.error).toBe("Bad Request");
    expect(reply.body.message).toMatch(message);
    expect((await api.get(hooks(agent), { key: agent.apiKey })).body.data).toEqual([]);
  });

  test("at most 10 per agent, also when 14 are created at once", async () => {
    const agent = await createVerifiedAgent(api, x);
    const replies = await Promise.all(
      Array.from({ length: 14 }, (_, i) =>
        api.post(hooks(agent), { key: agent.apiKey, body: { url: `https://hooks.example/${i}` } }),
      ),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(10);
    const refused = replies.filter((r) => r.status === 400);
    expect(refused).toHaveLength(4);
    expect(refused[0]?.body).toMatchObject({ code: "TOO_MANY_WEBHOOKS", limit: 10, current: 10 });
    expect((await api.get(hooks(agent), { key: agent.apiKey })).body.data).toHaveLength(10);
  });

  test("only the agent's own key, on a verified agent, reaches its webhooks", async () => {
    const agent = await createVerifiedAgent(api, x);
    const other = await createVerifiedAgent(api, x);
    const webhook = await api.post(hooks(agent), { key: agent.apiKey, body: { url: "https://hooks.example/a" } });
    const foreign = await api.get(`${hooks(agent)}/${webhook.body.id}`, { key: other.apiKey });
    expect(foreign.status).toBe(403);
    const elsewhere = await api.get(`${hooks(other)}/${webhook.body.id}`, { key: other.apiKey });
    expect(elsewhere.status).toBe(404);
    const retry = await api.post(`${hooks(other)}/${webhook.body.id}/deliveries/x/retry`, { key: other.apiKey });
    expect(retry.status).toBe(404);
    const unverified = await api.post("/agents", { body: { id: `u${Date.now()}`, name: "U" } });
    const refused = await api.post(`/agents/${unverified.body.agent.id}/webhooks`, {
      key: unverified.body.apiKey,
      body: { url: "https://hooks.example/u" },
    });
    expect(refused.status).toBe(403);
    expect(refused.body.code).toBe("NOT_VERIFIED");
  });

  test("GraphQL: the same webhooks, with their deliveries", async () => {
    const agent = await createVerifiedAgent(api, x);
    const created = await api.graphql(
      `mutation($id: ID!) {
        createWebhook(agentId: $id, input: { url: "https://hooks.example/g", events: ["email.sent"] }) {
          webhook { id url events enabled } secret
        }
      }`,
      { id: agent.id },
      agent.apiKey,
    );
    const { webhook, secret } = created.body.data.createWebhook;
    expect(webhook).toEqual({
      id: expect.any(String),
      url: "https://hooks.example/g",
      events: ["email.sent"],
      enabled: true,
    });
    expect(secret).toMatch(/^whsec_/);
    const read = await api.graphql(
      `query($id: ID!) { agent(id: $id) { webhooks { id deliveries { total data { id } } } } }`,
      { id: agent.id },
      agent.apiKey,
    );
    expect(read.body.data.agent.webhooks).toEqual([{ id: webhook.id, deliveries: { total: 0, data: [] } }]);
    const rotated = await api.graphql(
      `mutation($id: ID!, $w: ID!) { rotateWebhookSecret(agentId: $id, webhookId: $w) { secret } }`,
      { id: agent.id, w: webhook.id },
      agent.apiKey,
    );
    expect(rotated.body.data.rotateWebhookSecret.secret).toMatch(/^whsec_/);
    expect(rotated.body.data.rotateWebhookSecret.secret).not.toBe(secret);
  });
});

describe("deliveries", () => {
  test("signed the Standard Webhooks way, with the event's id, type, time and data", async () => {
    const agent = await createVerifiedAgent(api, x);
    const receiver = await WebhookReceiver.start();
    const webhook = await subscribe(agent, receiver);
    const email = await emailFor(agent, "signed");
    const [request] = await receiver.count(1);
    const events = (await api.get(`/agents/${agent.id}/events?types=email.received`, { key: agent.apiKey })).body;
    const [event] = events.data;
    expect(request?.verifiedWith).toBe(webhook.secret);
    expect(request?.id).toBe(event.id);
    expect(request?.headers["webhook-signature"]).toMatch(/^v1,[A-Za-z0-9+/]+=*$/);
    expect(request?.headers["content-type"]).toBe("application/json");
    expect(request?.body).toEqual({
      type: "email.received",
      timestamp: new Date(event.createdAt).toISOString(),
      data: { ...event.data, eventId: event.id, agentId: agent.id },
    });
    expect(request?.body.data.emailId).toBe(email.id);
    await waitFor(async () => (await deliveries(agent, webhook.id)).body.data[0]?.status === "delivered");
    const [delivery] = (await deliveries(agent, webhook.id)).body.data;
    expect(delivery).toEqual({
      id: expect.any(String),
      eventId: event.id,
      type: "email.received",
      status: "delivered",
      attempts: 1,
      nextAttemptAt: null,
      createdAt: event.createdAt,
      attemptLog: [{ at: expect.any(Number), statusCode: 204, error: null, durationMs: expect.any(Number) }],
    });
    await receiver.down();
  });

  test("a webhook gets only the types it asked for, and a disabled one nothing", async () => {
    const agent = await createVerifiedAgent(api, x);
    const updates = await WebhookReceiver.start();
    const off = await WebhookReceiver.start();
    await subscribe(agent, updates, { events: ["email.updated"] });
    const disabled = await subscribe(agent, off);
    await api.call("PATCH", `${hooks(agent)}/${disabled.id}`, { key: agent.apiKey, body: { enabled: false } });
    const email = await emailFor(agent, "typed");
    await flips(agent, email.id, 3);
    const received = await updates.count(3);
    expect(received.map((r) => r.body.type)).toEqual(["email.updated", "email.updated", "email.updated"]);
    await new Promise((r) => setTimeout(r, 1500));
    expect(updates.received).toHaveLength(3);
    expect(off.received).toEqual([]);
    await updates.down();
    await off.down();
  });

  test("rotating the secret: the next delivery is signed with the new one only", async () => {
    const agent = await createVerifiedAgent(api, x);
    const receiver = await WebhookReceiver.start();
    const webhook = await subscribe(agent, receiver);
    const email = await emailFor(agent, "rotation");
    await receiver.count(1);
    const rotated = await api.post(`${hooks(agent)}/${webhook.id}/rotate-secret`, { key: agent.apiKey });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({ id: webhook.id, secret: expect.stringMatching(/^whsec_/) });
    receiver.secrets.push(rotated.body.secret);
    await flips(agent, email.id, 1);
    const [first, second] = await receiver.count(2);
    expect(first?.verifiedWith).toBe(webhook.secret);
    expect(second?.verifiedWith).toBe(rotated.body.secret);
    await receiver.down();
  });

  test("the receiver down for a while: retried with backoff, the webhook paused meanwhile, the event arrives", async () => {
    const agent = await createVerifiedAgent(api, x);
    const receiver = await WebhookReceiver.start();
    const webhook = await subscribe(agent, receiver, { events: ["email.updated"] });
    const email = await emailFor(agent, "down");
    await receiver.down();
    await flips(agent, email.id, 1);
    const attempted = (n: number) => async () => (await deliveries(agent, webhook.id)).body.data[0]?.attempts >= n;
    const state = async () => {
      const [delivery] = (await deliveries(agent, webhook.id)).body.data;
      const { pausedUntil } = (await api.get(`${hooks(agent)}/${webhook.id}`, { key: agent.apiKey })).body;
      return { delivery, pausedUntil };
    };
    // After each failure, the delivery and its webhook wait about 5 s, then 30 s, give or take a fifth.
    for (const [attempts, pause] of [
      [1, 5_000],
      [2, 30_000],
    ] as const) {
      if (attempts === 1) await waitFor(attempted(1), 10_000, "the first attempt");
      else await advance(6_100, attempted(2), "the second attempt");
      const { delivery, pausedUntil } = await state();
      const failed = delivery.attemptLog[attempts - 1];
      expect(failed).toMatchObject({ statusCode: null, error: expect.stringMatching(/ECONNREFUSED/) });
      for (const until of [delivery.nextAttemptAt, pausedUntil]) {
        expect(until - failed.at).toBeGreaterThanOrEqual(pause * 0.78);
        expect(until - failed.at).toBeLessThanOrEqual(pause * 1.22);
      }
    }
    await receiver.up();
    const delivered = async () => (await state()).delivery.status === "delivered";
    await advance(36_100, delivered, "the delivery once the receiver is back");
    const [event] = (await api.get(`/agents/${agent.id}/events?types=email.updated`, { key: agent.apiKey })).body.data;
    expect(receiver.received.map((r) => [r.id, r.verifiedWith])).toEqual([[event.id, webhook.secret]]);
    const { delivery, pausedUntil } = await state();
    expect(delivery.attemptLog.map((a: { statusCode: number | null }) => a.statusCode)).toEqual([null, null, 204]);
    expect([delivery.nextAttemptAt, pausedUntil]).toEqual([null, null]);
    await receiver.down();
  }, 30_000);

  test("a delivery retried by hand goes at once while its webhook is paused; a failure leaves the pause, a success ends it", async () => {
    const agent = await createVerifiedAgent(api, x);
    const receiver = await WebhookReceiver.start();
    receiver.answer = 503;
    const webhook = await subscribe(agent, receiver, { events: ["email.updated"] });
    const email = await emailFor(agent, "paused");
    await flips(agent, email.id, 1);
    type Row = { id: string; status: string; attempts: number };
    const list = async () => (await deliveries(agent, webhook.id)).body.data as Row[];
    const pausedUntil = async () =>
      (await api.get(`${hooks(agent)}/${webhook.id}`, { key: agent.apiKey })).body.pausedUntil as number | null;
    // Four failures in a row: the webhook is paused for about 10 minutes (at least 8).
    await waitFor(async () => (await list())[0]?.attempts === 1, 10_000, "the first attempt");
    for (const [attempts, wait] of [
      [2, 6_100],
      [3, 36_100],
      [4, 144_100],
    ] as const) {
      await advance(wait, async () => (await list())[0]?.attempts === attempts, `attempt ${attempts}`);
    }
    const paused = await pausedUntil();
    expect(paused).toBeGreaterThan(svc.clock.now().getTime() + 7 * 60_000);
    // Another event (the read flag cleared again): its delivery waits for the pause.
    await api.call("PATCH", `/agents/${agent.id}/emails/${email.id}`, { key: agent.apiKey, body: { isRead: false } });
    const [second, first] = (await list()) as [Row, Row];
    expect([first.attempts, second.attempts]).toEqual([4, 0]);

    // Retried by hand and failing again: tried at once; the pause stands, and the other delivery waits.
    const retried = await api.post(`${hooks(agent)}/${webhook.id}/deliveries/${first.id}/retry`, {
      key: agent.apiKey,
    });
    expect(retried.status).toBe(200);
    await waitFor(async () => (await list())[1]?.attempts === 5, 10_000, "the retried attempt");
    expect(await pausedUntil()).toBe(paused);
    expect((await list())[0]?.attempts).toBe(0);

    // The receiver fixed: a retry by hand is delivered at once, and its success resumes the webhook.
    receiver.answer = 204;
    await api.post(`${hooks(agent)}/${webhook.id}/deliveries/${first.id}/retry`, { key: agent.apiKey });
    await waitFor(
      async () => (await list()).every((delivery) => delivery.status === "delivered"),
      10_000,
      "both deliveries",
    );
    expect(await pausedUntil()).toBeNull();
    await receiver.down();
  }, 30_000);

  test("5xx and 3xx are failures, and a redirect is not followed", async () => {
    const agent = await createVerifiedAgent(api, x);
    const failing = await WebhookReceiver.start();
    const moved = await WebhookReceiver.start();
    failing.answer = 500;
    moved.answer = 301;
    const a = await subscribe(agent, failing);
    const b = await subscribe(agent, moved);
    await emailFor(agent, "failures");
    const firstAttempt = (hook: { id: string }) => async () =>
      (await deliveries(agent, hook.id)).body.data[0]?.attemptLog[0];
    expect(await waitFor(firstAttempt(a))).toMatchObject({ statusCode: 500, error: "HTTP 500" });
    expect(await waitFor(firstAttempt(b))).toMatchObject({
      statusCode: 301,
      error: "HTTP 301: redirects are not followed",
    });
    expect(moved.received).toHaveLength(1);
    await failing.down();
    await moved.down();
  });

  test("a receiver that does not answer is cut off after 10 seconds", async () => {
    const agent = await createVerifiedAgent(api, x);
    const receiver = await WebhookReceiver.start();
    receiver.answer = "hang";
    const webhook = await subscribe(agent, receiver);
    await emailFor(agent, "silence");
    const attempt = await waitFor(
      async () => (await deliveries(agent, webhook.id)).body.data[0]?.attemptLog[0],
      20_000,
      "the attempt to time out",
    );
    expect(attempt).toMatchObject({ statusCode: null, error: "no answer within 10 s" });
    expect(attempt.durationMs).toBeGreaterThanOrEqual(9_900);
    expect(attempt.durationMs).toBeLessThan(12_000);
    await receiver.down();
  }, 30_000);

  test("a deleted webhook's pending deliveries are not attempted", async () => {
    const agent = await createVerifiedAgent(api, x);
    const receiver = await WebhookReceiver.start();
    const webhook = await subscribe(agent, receiver, { events: ["email.updated"] });
    const email = await emailFor(agent, "deleted hook");
    await receiver.down();
    await flips(agent, email.id, 1);
    await waitFor(async () => (await deliveries(agent, webhook.id)).body.data[0]?.attempts === 1);
    await api.delete(`${hooks(agent)}/${webhook.id}`, { key: agent.apiKey });
    await receiver.up();
    svc.clock.advance(6_100);
    await new Promise((r) => setTimeout(r, 2_000));
    expect(receiver.received).toEqual([]);
    await receiver.down();
  });
});

describe("a day of failures", () => {
  test("each delivery given up after 24 hours; a webhook failing for 24 hours disabled, with an event; a retry sends one again", async () => {
    // A service of its own: its clock moves by days.
    const own = await startTestService(env());
    const on = new Api(own.url);
    try {
      const agent = await createVerifiedAgent(on, x);
      const receiver = await WebhookReceiver.start();
      receiver.answer = 503;
      const webhook = await subscribe(agent, receiver, { events: ["email.updated"] }, on);
      const email = await emailFor(agent, "a day", on);
      await flips(agent, email.id, 2, on);
      const list = async () =>
        (await deliveries(agent, webhook.id, on)).body.data as { status: string; attempts: number }[];
      await waitFor(async () => (await list()).every((d) => d.attempts >= 1), 10_000, "first attempts");
      for (let attempts = 2; (await list()).some((d) => d.status === "pending"); attempts++) {
        expect(attempts).toBeLessThanOrEqual(12);
        // Longer than the longest pause (6 hours and a fifth).
        own.clock.advance(7.5 * 3_600_000);
        await waitFor(async () => (await list()).every((d) => d.status !== "pending" || d.attempts >= attempts));
      }
      // Given up at the first attempt after which the next would fall past 24 hours: not before the
      // 24 hours less the longest pause (6 h and a fifth), and not after the 24 hours and one step.
      const given = (await deliveries(agent, webhook.id, on)).body.data;
      expect(given.map((d: { status: string }) => d.status)).toEqual(["given_up", "given_up"]);
      for (const delivery of given) {
        const tried = delivery.attemptLog.at(-1).at - delivery.createdAt;
        expect(tried).toBeGreaterThanOrEqual(16.8 * 3_600_000);
        expect(tried).toBeLessThanOrEqual(31.5 * 3_600_000);
        expect(delivery.attemptLog).toHaveLength(delivery.attempts);
        expect(delivery.nextAttemptAt).toBeNull();
      }
      // The first failure 24 hours after the first one disabled it, and said so in the event log.
      const state = (await on.get(`${hooks(agent)}/${webhook.id}`, { key: agent.apiKey })).body;
      expect(state.enabled).toBe(false);
      expect(state.disabledReason).toMatch(/^Every attempt failed for 24 hours; the last: HTTP 503$/);
      const disabled = await on.get(`/agents/${agent.id}/events?types=webhook.disabled`, { key: agent.apiKey });
      expect(disabled.body.data).toEqual([
        expect.objectContaining({
          type: "webhook.disabled",
          data: { webhookId: webhook.id, url: webhook.url, reason: state.disabledReason },
        }),
      ]);

      // A disabled webhook queues nothing; turned on again, it does, and a given-up delivery can be retried.
      await flips(agent, email.id, 1, on);
      expect(await list()).toHaveLength(2);
      const enabled = await on.call("PATCH", `${hooks(agent)}/${webhook.id}`, {
        key: agent.apiKey,
        body: { enabled: true },
      });
      expect(enabled.body).toMatchObject({ enabled: true, disabledReason: null, pausedUntil: null });
      receiver.answer = 200;
      const before = receiver.received.length;
      const [oldest] = (await deliveries(agent, webhook.id, on)).body.data.slice(-1);
      const retry = await on.post(`${hooks(agent)}/${webhook.id}/deliveries/${oldest.id}/retry`, { key: agent.apiKey });
      expect(retry.status).toBe(200);
      await waitFor(async () => (await list()).at(-1)?.status === "delivered", 10_000, "the retried delivery");
      expect(receiver.received.length).toBe(before + 1);
      await receiver.down();
    } finally {
      await own.stop();
    }
  }, 60_000);
});

describe("fair delivery", () => {
  test("an agent's hanging and another's slow receivers: a third agent's delivery arrives at once, shares held", async () => {
    const client = await dovecot.client();
    await client.mailboxCreate("Fair");
    await client.logout();
    const own = await startTestService({ ...env(), IMAP_URL: dovecot.url("Fair") });
    const hanging = await WebhookReceiver.start();
    const slow = await WebhookReceiver.start();
    const prompt = await WebhookReceiver.start();
    hanging.answer = "hang";
    slow.delayMs = 8_000;
    try {
      // Two instances on PostgreSQL: the shares hold across them.
      const instances = [new Api(own.url)];
      if (process.env.TEST_DATABASE === "postgresql") instances.push(new Api((await own.startAnother()).url));
      const [on] = instances as [Api];
      const emailOf = async (agent: TestAgent, subject: string) => {
        await dovecot.append(rawMessage({ to: `${agent.id}@mail.example`, subject }), "Fair");
        return waitFor(async () => (await on.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.data[0]);
      };
      const h = await createVerifiedAgent(on, x);
      const s = await createVerifiedAgent(on, x);
      const o = await createVerifiedAgent(on, x);
      for (let i = 0; i < 10; i++) await subscribe(h, hanging, { events: ["email.updated"] }, on);
      await subscribe(s, slow, { events: ["email.updated"] }, on);
      await subscribe(o, prompt, { events: ["email.updated"] }, on);
      const [hMail, sMail, oMail] = [await emailOf(h, "h"), await emailOf(s, "s"), await emailOf(o, "o")];
      await Promise.all([flips(h, hMail.id, 40, instances.at(-1)), flips(s, sMail.id, 40, on)]);
      await hanging.count(4);
      await slow.count(2);
      const sent = Date.now();
      await flips(o, oMail.id, 1, on);
      await prompt.count(1, 5_000);
      expect(Date.now() - sent).toBeLessThan(5_000);
      // At most 4 attempts of one agent at once, and 2 of one webhook, whichever instance made them.
      await new Promise((resolve) => setTimeout(resolve, 1_000));
      expect(hanging.mostOpen).toBe(4);
      expect(slow.mostOpen).toBe(2);
    } finally {
      await own.stop();
      await Promise.all([hanging.down(), slow.down(), prompt.down()]);
    }
  }, 60_000);
});

describe("addresses", () => {
  test("without WEBHOOK_ALLOW_PRIVATE: https only, and no private address, named or resolved", async () => {
    const client = await dovecot.client();
    await client.mailboxCreate("Strict");
    await client.logout();
    const strict = await startTestService({
      SOCIAL_OEMBED_URL: x.url,
      MAIL_DOMAIN: "mail.example",
      IMAP_URL: dovecot.url("Strict"),
      IMAP_POLL_INTERVAL_MS: "60000",
    });
    const on = new Api(strict.url);
    try {
      const agent = await createVerifiedAgent(on, x);
      const create = (url: string) => on.post(hooks(agent), { key: agent.apiKey, body: { url } });
      expect((await create("http://hooks.example/x")).body.message).toMatch(/url must be https:\/\//);
      for (const host of [
        "127.0.0.1",
        "10.1.2.3",
        "172.16.0.1",
        "192.168.1.1",
        "169.254.169.254",
        "100.64.0.1",
        "0.0.0.0",
        "224.0.0.1",
        "[::1]",
        "[fe80::1]",
        "[fd00::1]",
        "[::ffff:127.0.0.1]",
        "[::127.0.0.1]",
      ]) {
        const reply = await create(`https://${host}/hook`);
        expect(reply.status, host).toBe(400);
        expect(reply.body.message).toMatch(/must not name a private address/);
      }
      // A name is checked when the delivery is made, after it is resolved.
      const named = await create("https://localhost:1/hook");
      expect(named.status).toBe(201);
      const patched = await on.call("PATCH", `${hooks(agent)}/${named.body.id}`, {
        key: agent.apiKey,
        body: { url: "http://localhost/hook" },
      });
      expect(patched.status).toBe(400);
      await dovecot.append(rawMessage({ to: `${agent.id}@mail.example`, subject: "to localhost" }), "Strict");
      const attempt = await waitFor(
        async () => (await deliveries(agent, named.body.id, on)).body.data[0]?.attemptLog[0],
        15_000,
        "the refused attempt",
      );
      expect(attempt).toMatchObject({
        statusCode: null,
        error: "localhost has no public address",
      });
    } finally {
      await strict.stop();
    }
  });
});

/** Long enough for a delivery a killed instance had claimed to come free, and then to go. */
const CLAIMED = CLAIM_MS + WAIT_MS;
/** The whole of the killed-instance test: the first attempts, the restart, then CLAIMED. */
const KILLED = 2 * WAIT_MS + CLAIMED;

describe("restarts and instances", () => {
  test(
    "the service killed with deliveries pending: they are delivered after it restarts",
    async () => {
      const client = await dovecot.client();
      await client.mailboxCreate("Killed");
      await client.logout();
      const database = freshDatabase();
      const processEnv = { ...env(), IMAP_URL: dovecot.url("Killed"), DATABASE_URL: database.url };
      const receiver = await WebhookReceiver.start();
      receiver.answer = 503;
      const first = await spawnService(processEnv);
      let second: Awaited<ReturnType<typeof spawnService>> | null = null;
      try {
        const agent = await createVerifiedAgent(new Api(first.url), x);
        const webhook = await subscribe(agent, receiver, { events: ["email.received"] }, new Api(first.url));
        const raws = ["one", "two", "three"].map((subject) => rawMessage({ to: `${agent.id}@mail.example`, subject }));
        await dovecot.append(raws, "Killed");
        const list = async (on: Api) =>
          (await deliveries(agent, webhook.id, on)).body.data as { status: string; attempts: number }[];
        await waitFor(
          async () => {
            const pending = await list(new Api(first.url));
            return pending.length === 3 && pending.every((d) => d.status === "pending" && d.attempts >= 1);
          },
          WAIT_MS,
          "the first, failed attempts",
        );
        await first.kill();
        receiver.answer = 204;
        second = await spawnService(processEnv);
        const after = new Api(second.url);
        // The failures paused the webhook; its owner, who fixed the receiver, resumes it at once.
        const resumed = await after.call("PATCH", `${hooks(agent)}/${webhook.id}`, {
          key: agent.apiKey,
          body: { enabled: true },
        });
        expect(resumed.body.pausedUntil).toBeNull();
        // A delivery the killed instance had claimed (a retry after the first failure) waits out its claim first.
        await waitFor(
          async () => (await list(after)).every((d) => d.status === "delivered"),
          CLAIMED,
          "the deliveries",
        );
        const ids = new Set(receiver.received.map((r) => r.id));
        expect(ids.size).toBe(3);
        for (const id of ids) expect(receiver.of(id).map((r) => r.verifiedWith)).toContain(webhook.secret);
      } finally {
        await first.kill();
        await second?.kill();
        await receiver.down();
        await database.drop();
      }
    },
    KILLED,
  );

  test.runIf(process.env.TEST_DATABASE === "postgresql")(
    "two instances on one PostgreSQL: each delivery attempted by one of them, once",
    async () => {
      const agent = await createVerifiedAgent(api, x);
      const receiver = await WebhookReceiver.start();
      const webhook = await subscribe(agent, receiver, { events: ["email.updated"] });
      const first = await emailFor(agent, "two workers, one");
      const second = await emailFor(agent, "two workers, two");
      const other = new Api((await svc.startAnother()).url);
      try {
        // Events written on both instances wake both workers at once, each reaching for the same rows.
        await Promise.all([flips(agent, first.id, 20), flips(agent, second.id, 20, other)]);
        await receiver.count(40);
        await waitFor(async () =>
          (await deliveries(agent, webhook.id)).body.data.every((d: { status: string }) => d.status === "delivered"),
        );
        expect(receiver.received).toHaveLength(40);
        expect(new Set(receiver.received.map((r) => r.id)).size).toBe(40);
      } finally {
        await svc.stopInstance(svc.instances.length - 1);
        await receiver.down();
      }
    },
    30_000,
  );
});
