import { describe, expect, test } from "vitest";
import { Api, createAgent, createVerifiedAgent, type TestAgent, uniqueId, verifyAgent } from "./support/api.ts";
import { served } from "./support/served.ts";
import { startTestService, withService } from "./support/service.ts";
import { FakeProvider } from "./support/smtp-provider.ts";

const { svc, api, x, provider } = served({ smtp: true });

/** A service sending through the test provider; limits are added per test. */
const sendingEnv = () => ({ SOCIAL_OEMBED_URL: x.url, MAIL_DOMAIN: "mail.example", SMTP_URL: provider.url });

const send = (agent: TestAgent, body: unknown, client = api) =>
  client.post(`/agents/${agent.id}/send`, { key: agent.apiKey, body });
const deliveriesTo = (address: string) => provider.deliveries.filter((d) => d.to.includes(address));
const quota = async (agent: TestAgent) =>
  (
    await api.graphql(
      `query($id: ID!) { agent(id: $id) { storageUsed sendQuota { limit used resetAt } } }`,
      { id: agent.id },
      agent.apiKey,
    )
  ).body.data.agent;

describe("POST /agents/{agentId}/send", () => {
  test("delivers through the provider and answers 201 with to as given", async () => {
    const agent = await createVerifiedAgent(api, x);
    const to = `${uniqueId("bob")}@example.com`;
    const reply = await send(agent, { to, subject: "Status report", text: "All good." });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      id: expect.any(String),
      to,
      subject: "Status report",
      sentAt: expect.any(Number),
      threadId: expect.any(String),
    });
    const [delivery] = deliveriesTo(to);
    // The envelope's sender is the sent email's own return path, where its reports come back.
    expect(delivery?.from).toMatch(new RegExp(`^bounces\\+${reply.body.id}\\.[0-9a-f]{16}@mail\\.example$`));
    expect(delivery?.to).toEqual([to]);
    const mail = delivery?.parsed;
    expect(mail?.from?.value).toEqual([{ address: `${agent.id}@mail.example`, name: `Agent ${agent.id}` }]);
    expect(mail?.subject).toBe("Status report");
    expect(mail?.text?.trim()).toBe("All good.");
    expect(mail?.html).toBe(false);
    expect(mail?.messageId).toMatch(/^<[^@]+@mail\.example>$/);
    expect(mail?.date).toBeInstanceOf(Date);
    const sent = await api.get(`/agents/${agent.id}/sent`, { key: agent.apiKey });
    expect(sent.body).toEqual({
      data: [
        {
          id: reply.body.id,
          agentId: agent.id,
          to,
          subject: "Status report",
          bodyText: "All good.",
          bodyHtml: null,
          sentAt: reply.body.sentAt,
          providerId: expect.stringMatching(/^Q\d+$/),
          // Additions to the specification's fields.
          threadId: expect.any(String),
          deliveryStatus: "sent",
          deliveries: [],
        },
      ],
      total: 1,
      limit: 50,
      offset: 0,
    });
  });

  test("several recipients, both bodies as multipart/alternative, Reply-To", async () => {
    const agent = await createVerifiedAgent(api, x);
    const to = [`${uniqueId("a")}@example.com`, `${uniqueId("b")}@example.org`];
    const reply = await send(agent, {
      to,
      subject: "Both",
      text: "Plain words",
      html: "<p>Rich words</p>",
      replyTo: "replies@example.net",
    });
    expect(reply.status).toBe(201);
    expect(reply.body.to).toEqual(to);
    const [delivery] = deliveriesTo(to[0] ?? "");
    expect(delivery?.to).toEqual(to);
    expect(delivery?.raw.toString()).toMatch(/Content-Type: multipart\/alternative/);
    expect(delivery?.parsed.text?.trim()).toBe("Plain words");
    expect(delivery?.parsed.html).toBe("<p>Rich words</p>");
    expect(delivery?.parsed.replyTo?.value).toEqual([{ address: "replies@example.net", name: "" }]);
    const sent = await api.get(`/agents/${agent.id}/sent`, { key: agent.apiKey });
    expect(sent.body.data[0].to).toBe(to.join(", "));
  });

  test("an HTML-only message, and a 2 MiB body within the route's 10 MiB", async () => {
    const agent = await createVerifiedAgent(api, x);
    const to = `${uniqueId("h")}@example.com`;
    expect((await send(agent, { to, subject: "Only HTML", html: "<b>hi</b>" })).status).toBe(201);
    const raw = deliveriesTo(to)[0]?.raw.toString();
    expect(raw).toMatch(/Content-Type: text\/html/);
    expect(raw).not.toMatch(/Content-Type: text\/plain/);
    const big = await send(agent, { to, subject: "Big", html: `<p>${"z".repeat(2 * 1024 * 1024)}</p>` });
    expect(big.status).toBe(201);
  });

  test.each([
    [{ subject: "s", text: "t" }, "to is required"],
    [{ to: [], subject: "s", text: "t" }, "to must name 1-50"],
    [{ to: Array.from({ length: 51 }, (_, i) => `r${i}@example.com`), subject: "s", text: "t" }, "to must name 1-50"],
    [{ to: "not-an-address", subject: "s", text: "t" }, "not a valid email address"],
    [{ to: "Bob <bob@example.com>", subject: "s", text: "t" }, "not a valid email address"],
    [{ to: ["ok@example.com", "bad@"], subject: "s", text: "t" }, "not a valid email address"],
    [{ to: "bob@example.com\r\nBcc: evil@example.com", subject: "s", text: "t" }, "not a valid email address"],
    [{ to: 42, subject: "s", text: "t" }, "Invalid to"],
    [{ to: "bob@example.com", text: "t" }, "subject is required"],
    [{ to: "bob@example.com", subject: "", text: "t" }, "subject must be"],
    [{ to: "bob@example.com", subject: "x".repeat(999), text: "t" }, "subject must be"],
    [{ to: "bob@example.com", subject: "Hi\r\nBcc: evil@example.com", text: "t" }, "subject must be"],
    [{ to: "bob@example.com", subject: "s" }, "Give text, html, or both"],
    [{ to: "bob@example.com", subject: "s", text: "t", replyTo: "nope" }, "replyTo"],
    [{ to: "bob@example.com", subject: "s", text: "t", replyTo: "a@example.com\nBcc: evil@example.com" }, "replyTo"],
  ])("400 for %j, and nothing is sent", async (body, message) => {
    const agent = await createVerifiedAgent(api, x);
    const before = provider.deliveries.length;
    const reply = await send(agent, body);
    expect(reply.status).toBe(400);
    expect(reply.body).toEqual({ error: "Bad Request", statusCode: 400, message: expect.stringContaining(message) });
    expect(provider.deliveries.length).toBe(before);
    expect((await quota(agent)).sendQuota.used).toBe(0);
  });

  test("413 for a body over 10 MiB", async () => {
    const agent = await createVerifiedAgent(api, x);
    const reply = await send(agent, { to: "bob@example.com", subject: "s", text: "y".repeat(10 * 1024 * 1024 + 10) });
    expect(reply.status).toBe(413);
  });

  test("no header can be smuggled in through the agent's name", async () => {
    const agent = await createAgent(api);
    await api.call("DELETE", `/agents/${agent.id}`, { key: agent.apiKey });
    const created = await api.post("/agents", {
      body: { id: agent.id, name: "Evil\r\nBcc: victim\r\nX-Injected: yes" },
    });
    const evil = { id: agent.id, apiKey: created.body.apiKey };
    await verifyAgent(api, x, evil);
    const to = `${uniqueId("target")}@example.com`;
    expect((await send(evil, { to, subject: "Hello", text: "t" })).status).toBe(201);
    const [delivery] = deliveriesTo(to);
    expect(delivery?.to).toEqual([to]);
    expect(delivery?.parsed.headers.has("bcc")).toBe(false);
    expect(delivery?.parsed.headers.has("x-injected")).toBe(false);
    expect(delivery?.raw.toString()).not.toMatch(/^Bcc:/im);
  });

  test("401, 403 NOT_VERIFIED, 403 for another agent", async () => {
    const unverified = await createAgent(api);
    const other = await createVerifiedAgent(api, x);
    const body = { to: "bob@example.com", subject: "s", text: "t" };
    expect((await api.post(`/agents/${other.id}/send`, { body })).status).toBe(401);
    expect((await send(unverified, body)).body.code).toBe("NOT_VERIFIED");
    const mine = await createVerifiedAgent(api, x);
    expect((await api.post(`/agents/${other.id}/send`, { key: mine.apiKey, body })).status).toBe(403);
  });
});

describe("the daily send limit", () => {
  test("100 parallel sends from one agent: exactly 25 go out, 75 get 429", async () => {
    const agent = await createVerifiedAgent(api, x);
    // On PostgreSQL the requests are spread over two instances.
    const clients = process.env.TEST_DATABASE === "postgresql" ? [api, new Api((await svc.startAnother()).url)] : [api];
    const to = `${uniqueId("burst")}@example.com`;
    const replies = await Promise.all(
      Array.from({ length: 100 }, (_, i) =>
        send(agent, { to, subject: `n${i}`, text: "t" }, clients[i % clients.length]),
      ),
    );
    expect(replies.filter((r) => r.status === 201)).toHaveLength(25);
    const limited = replies.filter((r) => r.status === 429);
    expect(limited).toHaveLength(75);
    const now = svc.clock.now();
    const midnight = Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1);
    for (const reply of limited) {
      expect(reply.body).toEqual({
        error: "Rate limit exceeded",
        statusCode: 429,
        message: expect.any(String),
        code: "DAILY_SEND_LIMIT_EXCEEDED",
        limit: 25,
        current: 25,
        resetAt: midnight,
      });
    }
    expect(deliveriesTo(to)).toHaveLength(25);
    expect((await api.get(`/agents/${agent.id}/sent?limit=100`, { key: agent.apiKey })).body.total).toBe(25);
  });

  test("resets at UTC midnight, and the sent total keeps every day", async () => {
    await withService({ ...sendingEnv(), DAILY_SEND_LIMIT: "2" }, async (small) => {
      const smallApi = new Api(small.url);
      const now = small.clock.now().getTime();
      const midnight = Date.UTC(
        new Date(now).getUTCFullYear(),
        new Date(now).getUTCMonth(),
        new Date(now).getUTCDate() + 1,
      );
      small.clock.advance(midnight - now - 60_000); // one minute before midnight UTC
      const agent = await createVerifiedAgent(smallApi, x);
      const body = { to: "bob@example.com", subject: "s", text: "t" };
      expect((await send(agent, body, smallApi)).status).toBe(201);
      expect((await send(agent, body, smallApi)).status).toBe(201);
      const limited = await send(agent, body, smallApi);
      expect(limited.status).toBe(429);
      expect(limited.body.resetAt).toBe(midnight);
      small.clock.advance(61_000);
      expect((await send(agent, body, smallApi)).status).toBe(201);
      const sent = await smallApi.get(`/agents/${agent.id}/sent`, { key: agent.apiKey });
      expect(sent.body.total).toBe(3);
      const quotaNow = await smallApi.graphql(
        `query($id: ID!) { agent(id: $id) { sendQuota { limit used resetAt } } }`,
        { id: agent.id },
        agent.apiKey,
      );
      expect(quotaNow.body.data.agent.sendQuota).toEqual({ limit: 2, used: 1, resetAt: midnight + 86_400_000 });
    });
  });
});

describe("failed delivery", () => {
  // Stalls and late answers: send-outcome.test.ts.
  test.each(["refuse"] as const)(
    "a provider that %ss: 500, no record, nothing counted",
    async (behaviour) => {
      const agent = await createVerifiedAgent(api, x);
      const before = await quota(agent);
      provider.behaviour = behaviour;
      const started = Date.now();
      try {
        const reply = await send(agent, { to: "bob@example.com", subject: "s", text: "t" });
        expect(reply.status).toBe(500);
        expect(reply.body).toEqual({
          error: "Internal Server Error",
          statusCode: 500,
          message: expect.stringContaining("Delivery failed"),
        });
        expect(reply.text).not.toMatch(/554|policy|stalled|timeout/i);
      } finally {
        provider.behaviour = "accept";
      }
      expect(Date.now() - started).toBeLessThan(21_000);
      expect((await api.get(`/agents/${agent.id}/sent`, { key: agent.apiKey })).body.total).toBe(0);
      expect(await quota(agent)).toEqual(before);
      expect(svc.logs).toContainEqual(expect.objectContaining({ event: "delivery_failed" }));
    },
    40_000,
  );

  test("a provider that is down: 500 at once, saying so; and SMTP_URL unset: 503", async () => {
    const down = await FakeProvider.start();
    await down.down();
    const noSmtp = await startTestService({ SOCIAL_OEMBED_URL: x.url, MAIL_DOMAIN: "mail.example" });
    const dead = await startTestService({
      SOCIAL_OEMBED_URL: x.url,
      MAIL_DOMAIN: "mail.example",
      SMTP_URL: down.url,
      SMTP_TIMEOUT_MS: "25000",
    });
    try {
      for (const [service, status] of [
        [dead, 500],
        [noSmtp, 503],
      ] as const) {
        const client = new Api(service.url);
        const agent = await createVerifiedAgent(client, x);
        const started = Date.now();
        const reply = await send(agent, { to: "bob@example.com", subject: "s", text: "t" }, client);
        expect(reply.status).toBe(status);
        // A refused connection is known at once: the send does not wait out its 25 s.
        if (status === 500) {
          expect(reply.body.message).toBe("Delivery failed: the email provider could not be reached");
          expect(Date.now() - started).toBeLessThan(10_000);
        }
        expect((await client.get(`/agents/${agent.id}/sent`, { key: agent.apiKey })).body.total).toBe(0);
      }
      expect(noSmtp.logs).toContainEqual(expect.objectContaining({ event: "outbound_off" }));
      const notConfigured = await send(
        await createVerifiedAgent(new Api(noSmtp.url), x),
        { to: "b@example.com", subject: "s", text: "t" },
        new Api(noSmtp.url),
      );
      expect(notConfigured.body).toEqual({
        error: "Service Unavailable",
        statusCode: 503,
        message: "Sending is not configured on this server: only mail to its own agents goes (SMTP_URL is not set)",
      });
    } finally {
      await noSmtp.stop();
      await dead.stop();
    }
  });
});

describe("storage", () => {
  test("a send that would pass the storage limit is refused with 429 and not sent; deleting sent mail makes room", async () => {
    await withService({ ...sendingEnv(), STORAGE_LIMIT_BYTES: "3000" }, async (small) => {
      const smallApi = new Api(small.url);
      const agent = await createVerifiedAgent(smallApi, x);
      const to = `${uniqueId("full")}@example.com`;
      const body = { to, subject: "s", text: "w".repeat(900) };
      const ids: string[] = [];
      let refused = null;
      for (let i = 0; i < 5 && !refused; i++) {
        const reply = await send(agent, body, smallApi);
        if (reply.status === 201) ids.push(reply.body.id);
        else refused = reply;
      }
      expect(ids.length).toBeGreaterThanOrEqual(1);
      const me = await smallApi.get(`/agents/${agent.id}`, { key: agent.apiKey });
      expect(refused?.status).toBe(429);
      expect(refused?.body).toEqual({
        error: "Rate limit exceeded",
        statusCode: 429,
        message: expect.any(String),
        code: "STORAGE_LIMIT_EXCEEDED",
        limit: 3000,
        current: me.body.storageUsed,
      });
      expect(me.body.storageUsed).toBeLessThanOrEqual(3000);
      expect(deliveriesTo(to)).toHaveLength(ids.length);
      const quotaBefore = (
        await smallApi.graphql(
          `query($id: ID!) { agent(id: $id) { sendQuota { used } } }`,
          { id: agent.id },
          agent.apiKey,
        )
      ).body.data.agent.sendQuota.used;
      expect(quotaBefore).toBe(ids.length);
      const deleted = await smallApi.delete(`/agents/${agent.id}/sent/${ids[0]}`, { key: agent.apiKey });
      expect(deleted.body).toEqual({ success: true, message: "Sent email permanently deleted" });
      expect((await smallApi.get(`/agents/${agent.id}`, { key: agent.apiKey })).body.storageUsed).toBeLessThan(
        me.body.storageUsed,
      );
      expect((await send(agent, body, smallApi)).status).toBe(201);
      expect((await smallApi.delete(`/agents/${agent.id}/sent/${ids[0]}`, { key: agent.apiKey })).status).toBe(404);
      const stranger = await createVerifiedAgent(smallApi, x);
      const foreign = await smallApi.delete(`/agents/${stranger.id}/sent/${ids[1]}`, { key: stranger.apiKey });
      expect(foreign.status).toBe(404);
      const missing = await smallApi.graphql(
        `mutation($id: ID!, $sent: ID!) { deleteSentEmail(agentId: $id, sentId: $sent) { success } }`,
        { id: agent.id, sent: "no-such-record" },
        agent.apiKey,
      );
      expect(missing.body.errors[0].extensions).toEqual({ code: "NOT_FOUND", status: 404 });
    });
  });
});

describe("providerId", () => {
  test.each([
    ["250 2.0.0 Ok: queued as 4XyZ12AbC", "4XyZ12AbC"],
    ["250 Ok 0100018bc1e2f3a4-abcdef12-0000", "0100018bc1e2f3a4-abcdef12-0000"],
    ["250 OK id=1r2s3t-0004AB-Cd", "1r2s3t-0004AB-Cd"],
  ])("is the queue id of a %j reply", async (reply, id) => {
    const agent = await createVerifiedAgent(api, x);
    provider.answer = () => reply.replace(/^250[ -]/, "");
    try {
      const sent = await send(agent, { to: "q@example.com", subject: "s", text: "t" });
      const [record] = (await api.get(`/agents/${agent.id}/sent`, { key: agent.apiKey })).body.data;
      expect(record).toMatchObject({ id: sent.body.id, providerId: id });
    } finally {
      provider.answer = (n) => `Message queued as Q${n}`;
    }
  });

  test("is the Message-ID when the reply names no queue id", async () => {
    const agent = await createVerifiedAgent(api, x);
    provider.answer = () => "Great success";
    try {
      await send(agent, { to: "q@example.com", subject: "s", text: "t" });
      const [record] = (await api.get(`/agents/${agent.id}/sent`, { key: agent.apiKey })).body.data;
      expect(record.providerId).toBe(provider.deliveries.at(-1)?.parsed.messageId);
      expect(record.providerId).toMatch(/^<[^@]+@mail\.example>$/);
    } finally {
      provider.answer = (n) => `Message queued as Q${n}`;
    }
  });
});

describe("storage under parallel sends", () => {
  test("20 parallel sends near the limit never take storage past it", async () => {
    await withService({ ...sendingEnv(), STORAGE_LIMIT_BYTES: "10000" }, async (small) => {
      const clients = [new Api(small.url)];
      if (process.env.TEST_DATABASE === "postgresql") clients.push(new Api((await small.startAnother()).url));
      const agent = await createVerifiedAgent(clients[0] as Api, x);
      const body = { to: "p@example.com", subject: "parallel", text: "v".repeat(1500) };
      const replies = await Promise.all(
        Array.from({ length: 20 }, (_, i) => send(agent, body, clients[i % clients.length])),
      );
      const ok = replies.filter((r) => r.status === 201).length;
      expect(ok).toBeGreaterThan(0);
      expect(replies.filter((r) => r.status === 429).every((r) => r.body.code === "STORAGE_LIMIT_EXCEEDED")).toBe(true);
      expect(ok + replies.filter((r) => r.status === 429).length).toBe(20);
      const me = await (clients[0] as Api).get(`/agents/${agent.id}`, { key: agent.apiKey });
      expect(me.body.storageUsed).toBeLessThanOrEqual(10000);
      const sent = await (clients[0] as Api).get(`/agents/${agent.id}/sent`, { key: agent.apiKey });
      expect(sent.body.total).toBe(ok);
      expect(Math.floor(10000 / (me.body.storageUsed / ok))).toBe(ok);
    });
  });
});

describe("GET /agents/{agentId}/sent", () => {
  test("pages newest first, with the list's limit and offset rules", async () => {
    const agent = await createVerifiedAgent(api, x);
    for (let i = 0; i < 5; i++) await send(agent, { to: "p@example.com", subject: `p${i}`, text: "t" });
    const page = await api.get(`/agents/${agent.id}/sent?limit=2&offset=1`, { key: agent.apiKey });
    expect(page.body).toMatchObject({ total: 5, limit: 2, offset: 1 });
    expect(page.body.data.map((s: { subject: string }) => s.subject)).toEqual(["p3", "p2"]);
    expect((await api.get(`/agents/${agent.id}/sent?limit=500`, { key: agent.apiKey })).body.limit).toBe(100);
    for (const query of ["limit=0", "limit=x", "offset=-2"]) {
      expect((await api.get(`/agents/${agent.id}/sent?${query}`, { key: agent.apiKey })).status).toBe(400);
    }
  });
});

describe("over GraphQL", () => {
  test("sendEmail, sent, sentConnection, sendQuota and deleteSentEmail", async () => {
    const agent = await createVerifiedAgent(api, x);
    const mutation = `mutation($id: ID!, $input: SendEmailInput!) {
      sendEmail(agentId: $id, input: $input) { ... on SentEmail { id to subject providerId threadId } }
    }`;
    const input = { to: ["g1@example.com", "g2@example.com"], subject: "Via GraphQL", text: "t" };
    const sent = await api.graphql(mutation, { id: agent.id, input }, agent.apiKey);
    expect(sent.body.data.sendEmail).toMatchObject({
      to: ["g1@example.com", "g2@example.com"],
      subject: "Via GraphQL",
      threadId: expect.any(String),
      providerId: expect.stringMatching(/^Q\d+$/),
    });
    await api.graphql(mutation, { id: agent.id, input: { ...input, subject: "Second" } }, agent.apiKey);
    const bad = await api.graphql(mutation, { id: agent.id, input: { ...input, to: [] } }, agent.apiKey);
    expect(bad.body.errors[0].extensions).toEqual({ code: "BAD_REQUEST", status: 400 });
    const read = await api.graphql(
      `query($id: ID!) { agent(id: $id) {
        sent(limit: 1) { data { subject } total limit offset }
        sentConnection(first: 5) { edges { node { subject } } }
        sendQuota { limit used }
      } }`,
      { id: agent.id },
      agent.apiKey,
    );
    expect(read.body.data.agent).toEqual({
      sent: { data: [{ subject: "Second" }], total: 2, limit: 1, offset: 0 },
      sentConnection: { edges: [{ node: { subject: "Second" } }, { node: { subject: "Via GraphQL" } }] },
      sendQuota: { limit: 25, used: 2 },
    });
    const deleted = await api.graphql(
      `mutation($id: ID!, $sent: ID!) { deleteSentEmail(agentId: $id, sentId: $sent) { success } }`,
      { id: agent.id, sent: sent.body.data.sendEmail.id },
      agent.apiKey,
    );
    expect(deleted.body.data.deleteSentEmail.success).toBe(true);
  });
});
