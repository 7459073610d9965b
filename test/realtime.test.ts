import { describe, expect, test } from "vitest";
import { Api, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { inboxOf } from "./support/inbox.ts";
import { rawMessage } from "./support/mail.ts";
import { served } from "./support/served.ts";
import { sseSubscription, wsSubscription } from "./support/streams.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

// Mail the moment it is filed: the event log, read by long polls, waits and
// subscriptions, fed by every change the domain makes.

const { svc, api, x, dovecot } = served({
  imap: true,
  smtp: true,
  env: { IMAP_POLL_INTERVAL_MS: "60000", WEBHOOK_ALLOW_PRIVATE: "true" },
});

const address = (agent: TestAgent) => `${agent.id}@mail.example`;
const events = (agent: TestAgent, query = "") => api.get(`/agents/${agent.id}/events${query}`, { key: agent.apiKey });
const mail = (agent: TestAgent, subject: string, from = "Alice <alice@sender.example>") =>
  dovecot.append(rawMessage({ to: address(agent), subject, from }));

const MAIL_EVENTS = `subscription($id: ID!, $after: ID, $types: [String!]) {
  mailEvents(agentId: $id, after: $after, types: $types) { id type agentId data }
}`;

describe("the event log", () => {
  test("every change is an event, in order, with the data the issue names and no bodies", async () => {
    const agent = await createVerifiedAgent(api, x);
    await mail(agent, "first");
    const [email] = (await inboxOf(api, agent, 1)).body.data;
    await api.call("PATCH", `/agents/${agent.id}/emails/${email.id}`, {
      key: agent.apiKey,
      body: { folder: "archive", isRead: true },
    });
    // The same state again changes nothing, so it is no event.
    await api.call("PATCH", `/agents/${agent.id}/emails/${email.id}`, { key: agent.apiKey, body: { isRead: true } });
    await api.delete(`/agents/${agent.id}/emails/${email.id}`, { key: agent.apiKey });
    await api.delete(`/agents/${agent.id}/emails/${email.id}`, { key: agent.apiKey });
    const sent = await api.post(`/agents/${agent.id}/send`, {
      key: agent.apiKey,
      body: { to: ["bob@example.com", "carol@example.com"], subject: "Hello", text: "t" },
    });
    const reply = await events(agent);
    expect(reply.status).toBe(200);
    const { data, nextAfter } = reply.body;
    expect(data.map((e: { type: string }) => e.type)).toEqual([
      "agent.verified",
      "email.received",
      "email.updated",
      "email.deleted",
      "email.deleted",
      "email.sent",
    ]);
    const ids = data.map((e: { id: string }) => BigInt(e.id));
    expect(ids).toEqual([...ids].sort((a, b) => (a < b ? -1 : 1)));
    expect(nextAfter).toBe(data.at(-1).id);
    for (const event of data) {
      expect(event).toEqual({
        id: expect.stringMatching(/^\d+$/),
        type: expect.any(String),
        agentId: agent.id,
        createdAt: expect.any(Number),
        data: expect.any(Object),
      });
    }
    expect(data[0].data).toEqual({ verifiedAt: expect.any(Number), socialUsername: expect.any(String) });
    expect(data[1].data).toEqual({
      emailId: email.id,
      folder: "inbox",
      subject: "first",
      from: { address: "alice@sender.example", name: "Alice" },
      size: expect.any(Number),
      autoSubmitted: null,
    });
    expect(data[2].data).toEqual({ emailId: email.id, folder: "archive", isRead: true });
    expect(data[3].data).toEqual({ emailId: email.id, folder: "archive", permanent: false });
    expect(data[4].data).toEqual({ emailId: email.id, folder: "trash", permanent: true });
    expect(data[5].data).toEqual({
      sentId: sent.body.id,
      to: ["bob@example.com", "carol@example.com"],
      subject: "Hello",
    });
    expect(JSON.stringify(data)).not.toContain("Hi there");
    const later = await events(agent, `?after=${nextAfter}`);
    expect(later.body).toEqual({ data: [], nextAfter });
    const received = await events(agent, "?types=email.received,email.sent&limit=1");
    expect(received.body.data.map((e: { type: string }) => e.type)).toEqual(["email.received"]);
  });

  test.each([
    ["?wait=26", /^Invalid wait: expected an integer from 0 to 25$/],
    ["?wait=-1", /^Invalid wait: expected an integer from 0 to 25$/],
    ["?wait=soon", /^Invalid wait: expected an integer from 0 to 25$/],
    ["?after=abc", /after must be an event id/],
    ["?types=email.exploded", /not one of/],
    ["?limit=0", /limit/],
  ])("%s is a 400", async (query, message) => {
    const agent = await createVerifiedAgent(api, x);
    const reply = await events(agent, query);
    expect(reply.status).toBe(400);
    expect(reply.body.message).toMatch(message);
  });

  test("a long poll holds until mail is filed, and answers empty when the time runs out", async () => {
    const agent = await createVerifiedAgent(api, x);
    const { nextAfter } = (await events(agent)).body;
    const started = Date.now();
    const empty = await events(agent, `?after=${nextAfter}&wait=1`);
    expect(Date.now() - started).toBeGreaterThanOrEqual(900);
    expect(empty.body).toEqual({ data: [], nextAfter });
    const waiting = events(agent, `?after=${nextAfter}&wait=20&types=email.received`);
    await new Promise((r) => setTimeout(r, 200));
    await mail(agent, "the awaited one");
    const reply = await waiting;
    expect(Date.now() - started).toBeLessThan(15_000);
    expect(reply.body.data).toEqual([expect.objectContaining({ type: "email.received" })]);
    expect(reply.body.data[0].data.subject).toBe("the awaited one");
  });

  test("a client looping on nextAfter sees each of 1,000 events once, in order", async () => {
    const agent = await createVerifiedAgent(api, x);
    await mail(agent, "to flip");
    const [email] = (await inboxOf(api, agent, 1)).body.data;
    let after = (await events(agent)).body.nextAfter;
    const seen: string[] = [];
    let producing = true;
    const reader = (async () => {
      while (producing || seen.length < 1000) {
        const page = (await events(agent, `?after=${after}&wait=2&types=email.updated`)).body;
        seen.push(...page.data.map((e: { id: string }) => e.id));
        after = page.nextAfter;
        if (!producing && page.data.length === 0) break;
      }
    })();
    for (let i = 0; i < 1000; i += 10) {
      await Promise.all(
        Array.from({ length: 10 }, (_, j) =>
          api.call("PATCH", `/agents/${agent.id}/emails/${email.id}`, {
            key: agent.apiKey,
            body: { folder: `f${i + j}` },
          }),
        ),
      );
    }
    producing = false;
    await reader;
    expect(seen).toHaveLength(1000);
    expect(new Set(seen).size).toBe(1000);
    expect(seen.map(BigInt)).toEqual(seen.map(BigInt).sort((a, b) => (a < b ? -1 : 1)));
  }, 120_000);
});

describe("one message, every way of hearing of it", () => {
  test("one APPEND reaches an SSE subscriber, a graphql-ws client, a long poll, waitForEmail and a webhook", async () => {
    const agent = await createVerifiedAgent(api, x);
    const receiver = await WebhookReceiver.start();
    const hook = await api.post(`/agents/${agent.id}/webhooks`, { key: agent.apiKey, body: { url: receiver.url } });
    receiver.secrets.push(hook.body.secret);
    const { nextAfter } = (await events(agent)).body;
    const variables = { id: agent.id, types: ["email.received"] };
    const sse = await sseSubscription(svc.url, MAIL_EVENTS, variables, agent.apiKey);
    const ws = wsSubscription(svc.url, MAIL_EVENTS, variables, agent.apiKey);
    try {
      const polling = events(agent, `?after=${nextAfter}&wait=20`);
      const waiting = api.get(`/agents/${agent.id}/emails/wait?subject=everyone&timeout=20`, { key: agent.apiKey });
      await new Promise((r) => setTimeout(r, 300));
      await mail(agent, "for everyone");
      const [event] = (await polling).body.data;
      expect(event).toMatchObject({ type: "email.received", data: { subject: "for everyone" } });
      expect((await sse.next()).data.mailEvents.id).toBe(event.id);
      expect((await ws.next()).data.mailEvents.id).toBe(event.id);
      expect((await waiting).body.id).toBe(event.data.emailId);
      const [delivered] = await receiver.count(1);
      expect(delivered).toMatchObject({ id: event.id, verifiedWith: hook.body.secret });
      expect(delivered?.body.data.emailId).toBe(event.data.emailId);
    } finally {
      sse.close();
      ws.close();
      await receiver.down();
    }
  });
});

describe("waiting for one email", () => {
  test("answers the first match as soon as it is filed; a match filed before the request is answered at once", async () => {
    const agent = await createVerifiedAgent(api, x);
    const before = Date.now() - 1000;
    await mail(agent, "Your code is 1234", "Shop <noreply@shop.example>");
    await inboxOf(api, agent, 1);
    const early = await api.get(`/agents/${agent.id}/emails/wait?from=@shop.example&subject=code&after=${before}`, {
      key: agent.apiKey,
    });
    expect(early.status).toBe(200);
    expect(early.body.subject).toBe("Your code is 1234");
    const waiting = api.get(`/agents/${agent.id}/emails/wait?from=news@shop.example&subject=WELCOME&timeout=20`, {
      key: agent.apiKey,
    });
    await new Promise((r) => setTimeout(r, 200));
    await mail(agent, "Not this one", "Shop <noreply@shop.example>");
    await mail(agent, "Welcome aboard", "Shop News <news@shop.example>");
    const reply = await waiting;
    expect(reply.status).toBe(200);
    expect(reply.body).toMatchObject({ subject: "Welcome aboard", from: { address: "news@shop.example" } });
  });

  test("204 when none came in time; a timeout past 25 is a 400", async () => {
    const agent = await createVerifiedAgent(api, x);
    const none = await api.get(`/agents/${agent.id}/emails/wait?timeout=1`, { key: agent.apiKey });
    expect(none.status).toBe(204);
    expect(none.text).toBe("");
    const bad = await api.get(`/agents/${agent.id}/emails/wait?timeout=30`, { key: agent.apiKey });
    expect(bad.status).toBe(400);
  });

  test("GraphQL waitForEmail returns the Email, or null", async () => {
    const agent = await createVerifiedAgent(api, x);
    const query = `query($id: ID!, $f: EmailWaitFilter, $t: Int) { waitForEmail(agentId: $id, filter: $f, timeoutSeconds: $t) { subject } }`;
    const waiting = api.graphql(query, { id: agent.id, f: { subject: "graph" }, t: 20 }, agent.apiKey);
    await new Promise((r) => setTimeout(r, 200));
    await mail(agent, "graphql arrives");
    expect((await waiting).body.data.waitForEmail).toEqual({ subject: "graphql arrives" });
    const none = await api.graphql(query, { id: agent.id, f: { subject: "never" }, t: 0 }, agent.apiKey);
    expect(none.body.data.waitForEmail).toBeNull();
  });
});

describe("subscriptions", () => {
  test("over SSE and over graphql-ws: replay from after, then live, without a gap or a repeat", async () => {
    const agent = await createVerifiedAgent(api, x);
    await mail(agent, "before");
    await inboxOf(api, agent, 1);
    const sse = await sseSubscription(svc.url, MAIL_EVENTS, { id: agent.id, after: "0" }, agent.apiKey);
    const ws = wsSubscription(svc.url, MAIL_EVENTS, { id: agent.id, after: "0" }, agent.apiKey);
    try {
      for (const stream of [sse, ws]) {
        expect((await stream.next()).data.mailEvents.type).toBe("agent.verified");
        expect((await stream.next()).data.mailEvents.data.subject).toBe("before");
      }
      await mail(agent, "live");
      for (const stream of [sse, ws]) {
        const live = (await stream.next()).data.mailEvents;
        expect(live).toMatchObject({ type: "email.received", agentId: agent.id, data: { subject: "live" } });
      }
      expect(sse.pending).toEqual([]);
      expect(ws.pending).toEqual([]);
    } finally {
      sse.close();
      ws.close();
    }
  });

  test("emailReceived yields the Email itself; without after, only what comes next", async () => {
    const agent = await createVerifiedAgent(api, x);
    await mail(agent, "old news");
    await inboxOf(api, agent, 1);
    const query = `subscription($id: ID!) { emailReceived(agentId: $id, folder: "INBOX") { subject from { address } folder } }`;
    const ws = wsSubscription(svc.url, query, { id: agent.id }, agent.apiKey);
    try {
      await new Promise((r) => setTimeout(r, 300));
      await mail(agent, "fresh");
      expect((await ws.next()).data.emailReceived).toEqual({
        subject: "fresh",
        from: { address: "alice@sender.example" },
        folder: "inbox",
      });
    } finally {
      ws.close();
    }
  });

  test("no key, another agent's id, or no such agent: refused at the start, with the refusal's status", async () => {
    const agent = await createVerifiedAgent(api, x);
    const other = await createVerifiedAgent(api, x);
    for (const [id, key, code, status] of [
      [other.id, agent.apiKey, "FORBIDDEN", 403],
      ["nobody", agent.apiKey, "NOT_FOUND", 404],
      [agent.id, null, "UNAUTHORIZED", 401],
    ] as const) {
      const refused = await sseSubscription(svc.url, MAIL_EVENTS, { id }, key);
      expect(refused.status).toBe(status);
      expect((await refused.next()).errors?.[0]?.extensions).toMatchObject({ code, status });
      refused.close();
    }
    const ws = wsSubscription(svc.url, MAIL_EVENTS, { id: agent.id }, "ph_wrong");
    expect((await ws.next()).errors?.[0]?.extensions).toMatchObject({ code: "UNAUTHORIZED", status: 401 });
    ws.close();
  });

  test("the 21st stream of an agent is refused with TOO_MANY_STREAMS", async () => {
    const agent = await createVerifiedAgent(api, x);
    const open = await Promise.all(
      Array.from({ length: 20 }, () => sseSubscription(svc.url, MAIL_EVENTS, { id: agent.id }, agent.apiKey)),
    );
    try {
      await new Promise((r) => setTimeout(r, 500));
      const extra = await sseSubscription(svc.url, MAIL_EVENTS, { id: agent.id }, agent.apiKey);
      expect(extra.status).toBe(429);
      const refusal = await extra.next();
      expect(refusal.errors?.[0]?.extensions).toMatchObject({ code: "TOO_MANY_STREAMS", status: 429 });
      extra.close();
    } finally {
      for (const stream of open) stream.close();
    }
    await new Promise((r) => setTimeout(r, 500));
    const again = await sseSubscription(svc.url, MAIL_EVENTS, { id: agent.id, after: "0" }, agent.apiKey);
    expect((await again.next()).data.mailEvents.type).toBe("agent.verified");
    again.close();
  });

  test("rotating the key ends the agent's streams", async () => {
    const agent = await createVerifiedAgent(api, x);
    const ws = wsSubscription(svc.url, MAIL_EVENTS, { id: agent.id }, agent.apiKey);
    await new Promise((r) => setTimeout(r, 300));
    await api.post(`/agents/${agent.id}/rotate-key`, { key: agent.apiKey });
    await expect(ws.next(15_000)).rejects.toThrow(/ended/);
    ws.close();
  }, 30_000);
});

describe.runIf(process.env.TEST_DATABASE === "postgresql")("several instances on one PostgreSQL", () => {
  test("mail filed by the polling instance wakes a long poll and a subscriber on another within a second", async () => {
    const agent = await createVerifiedAgent(api, x);
    const other = new Api((await svc.startAnother()).url);
    const otherUrl = svc.instances.at(-1)?.url ?? "";
    const after = (await other.get(`/agents/${agent.id}/events`, { key: agent.apiKey })).body.nextAfter;
    const sse = await sseSubscription(otherUrl, MAIL_EVENTS, { id: agent.id, types: ["email.received"] }, agent.apiKey);
    try {
      const polling = other.get(`/agents/${agent.id}/events?after=${after}&wait=20`, { key: agent.apiKey });
      await new Promise((r) => setTimeout(r, 300));
      await mail(agent, "across instances");
      const answer = await polling;
      const answeredAt = svc.clock.now().getTime();
      const [event] = answer.body.data;
      expect(event.type).toBe("email.received");
      expect(answeredAt - event.createdAt).toBeLessThan(1000);
      const pushed = (await sse.next()).data.mailEvents;
      expect(pushed.id).toBe(event.id);
      expect(svc.clock.now().getTime() - event.createdAt).toBeLessThan(1000);
      // The event was filed by the instance holding the poller's lease, not by the one answering.
      expect(svc.logs.filter((l) => l.event === "imap_batch" && l.instance !== 0)).toEqual([]);
    } finally {
      sse.close();
    }
  });

  test("writers on two instances at once, one filing mail in long batches: a reader sees every event once, in order", async () => {
    const agent = await createVerifiedAgent(api, x);
    await mail(agent, "shared");
    const [email] = (await inboxOf(api, agent, 1)).body.data;
    const clients = [api, new Api((await svc.startAnother()).url)];
    let after = (await events(agent)).body.nextAfter;
    const start = after;
    const seen: string[] = [];
    let writing = true;
    // Batches of 100 messages, each one transaction that writes an event per message as it goes.
    const filing = dovecot.append(
      Array.from({ length: 300 }, (_, i) => rawMessage({ to: address(agent), subject: `b${i}` })),
    );
    const reader = (async () => {
      for (;;) {
        const page = (await clients[1]?.get(`/agents/${agent.id}/events?after=${after}&wait=2`, { key: agent.apiKey }))
          ?.body;
        seen.push(...page.data.map((e: { id: string }) => e.id));
        after = page.nextAfter;
        if (!writing && page.data.length === 0) return;
      }
    })();
    await Promise.all(
      clients.map(async (client, n) => {
        for (let i = 0; i < 250; i++) {
          await Promise.all(
            [0, 1].map((k) =>
              client.call("PATCH", `/agents/${agent.id}/emails/${email.id}`, {
                key: agent.apiKey,
                body: { folder: `i${n}-${i}-${k}` },
              }),
            ),
          );
        }
      }),
    );
    await filing;
    await inboxOf(api, agent, 301, 30_000);
    writing = false;
    await reader;
    const all = (await svc.service.services.prisma.event.findMany({ where: { agentId: agent.id } }))
      .filter((e) => BigInt(e.id) > BigInt(start))
      .map((e) => String(e.id))
      .sort((a, b) => (BigInt(a) < BigInt(b) ? -1 : 1));
    expect(all).toHaveLength(1300);
    expect(seen).toEqual(all);
  }, 120_000);
});

describe("retention", () => {
  test("events past EVENT_RETENTION_HOURS go with the cleanup; a deleted agent's go with it", async () => {
    const agent = await createVerifiedAgent(api, x);
    const { prisma } = svc.service.services;
    expect(await prisma.event.count({ where: { agentId: agent.id } })).toBe(1);
    svc.clock.advance(73 * 3_600_000);
    const fresh = await createVerifiedAgent(api, x, undefined);
    await svc.service.cleanup.trigger();
    expect(await prisma.event.count({ where: { agentId: agent.id } })).toBe(0);
    expect(await prisma.event.count({ where: { agentId: fresh.id } })).toBe(1);
    await api.delete(`/agents/${fresh.id}`, { key: fresh.apiKey });
    expect(await prisma.event.count({ where: { agentId: fresh.id } })).toBe(0);
  });
});
