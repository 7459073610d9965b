import { describe, expect, test } from "vitest";
import { Api, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { rawMessage } from "./support/mail.ts";
import { served } from "./support/served.ts";
import { withService } from "./support/service.ts";
import { waitFor } from "./support/wait.ts";

// Drafts: written, read, changed and deleted over REST and GraphQL, counted
// against storage, and sent through the real SMTP server as POST /send sends
// (the same checks), once however often the send is asked.

const { svc, api, x, dovecot, provider } = served({ imap: true, smtp: true, env: { IMAP_POLL_INTERVAL_MS: "60000" } });

const drafts = (agent: TestAgent) => `/agents/${agent.id}/drafts`;
const storageOf = async (agent: TestAgent) =>
  (await api.get(`/agents/${agent.id}`, { key: agent.apiKey })).body.storageUsed as number;

describe("drafts", () => {
  test("written, read, changed (null clears), listed and deleted, each taking or giving back storage", async () => {
    const agent = await createVerifiedAgent(api, x);
    const created = await api.post(drafts(agent), {
      key: agent.apiKey,
      body: {
        to: "pat@example.com",
        subject: "Plans",
        text: "A first go.",
        attachments: [{ filename: "plan.txt", content: Buffer.from("step one").toString("base64") }],
      },
    });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({
      id: expect.any(String),
      to: ["pat@example.com"],
      cc: [],
      bcc: [],
      subject: "Plans",
      text: "A first go.",
      html: null,
      replyTo: null,
      attachments: [{ filename: "plan.txt", contentType: null, size: 8, inline: false, contentId: null }],
      inReplyTo: null,
      sendStatus: "draft",
      sendAt: null,
      failure: null,
      approvalExpiresAt: null,
      rejectReason: null,
      size: expect.any(Number),
      createdAt: expect.any(Number),
      updatedAt: expect.any(Number),
    });
    const draft = created.body;
    expect(await storageOf(agent)).toBe(draft.size);
    expect((await api.get(`${drafts(agent)}/${draft.id}`, { key: agent.apiKey })).body).toEqual(draft);

    const changed = await api.call("PATCH", `${drafts(agent)}/${draft.id}`, {
      key: agent.apiKey,
      body: { cc: ["sam@example.com"], text: "A longer second go, with more to say.", attachments: null },
    });
    expect(changed.body).toMatchObject({
      to: ["pat@example.com"],
      cc: ["sam@example.com"],
      subject: "Plans",
      text: "A longer second go, with more to say.",
      attachments: [],
    });
    expect(await storageOf(agent)).toBe(changed.body.size);

    const listed = await api.get(drafts(agent), { key: agent.apiKey });
    expect(listed.body).toEqual({ data: [changed.body], total: 1, limit: 50, offset: 0 });
    const viaGraphql = await api.graphql(
      "query($a: ID!) { agent(id: $a) { draftConnection(first: 5) { edges { node { id subject cc } } } } }",
      { a: agent.id },
      agent.apiKey,
    );
    expect(viaGraphql.body.data.agent.draftConnection.edges).toEqual([
      { node: { id: draft.id, subject: "Plans", cc: ["sam@example.com"] } },
    ]);

    expect((await api.delete(`${drafts(agent)}/${draft.id}`, { key: agent.apiKey })).body).toMatchObject({
      success: true,
    });
    expect(await storageOf(agent)).toBe(0);
    expect((await api.get(`${drafts(agent)}/${draft.id}`, { key: agent.apiKey })).status).toBe(404);
  });

  test("each field held to its form as it is written; another agent's draft is no draft", async () => {
    const [agent, other] = await Promise.all([createVerifiedAgent(api, x), createVerifiedAgent(api, x)]);
    const bad = async (body: object) => (await api.post(drafts(agent), { key: agent.apiKey, body })).body.message;
    expect(await bad({ to: "not an address" })).toMatch(/not a valid email address/);
    expect(await bad({ subject: "two\nlines" })).toMatch(/subject/);
    expect(await bad({ attachments: [{ filename: "a.txt", content: "%%%" }] })).toMatch(/base64/);
    expect((await api.post(drafts(agent), { key: agent.apiKey, body: { inReplyTo: "missing" } })).status).toBe(404);
    const mine = await api.post(drafts(agent), { key: agent.apiKey, body: { subject: "Mine" } });
    expect((await api.get(`${drafts(agent)}/${mine.body.id}`, { key: other.apiKey })).status).toBe(403);
    expect((await api.get(`/agents/${other.id}/drafts/${mine.body.id}`, { key: other.apiKey })).status).toBe(404);
  });

  test("sent as POST /send sends: incomplete is a 400 and stays; sent, the draft is gone and storage is the sent mail's", async () => {
    const agent = await createVerifiedAgent(api, x);
    const draft = (await api.post(drafts(agent), { key: agent.apiKey, body: { subject: "Soon" } })).body;
    const incomplete = await api.post(`${drafts(agent)}/${draft.id}/send`, { key: agent.apiKey });
    expect([incomplete.status, incomplete.body.message]).toEqual([400, "to must name 1-50 recipients"]);
    await api.call("PATCH", `${drafts(agent)}/${draft.id}`, {
      key: agent.apiKey,
      body: { to: "pat@example.com", text: "Now complete." },
    });
    const handedOver = provider.deliveries.length;
    const sent = await api.post(`${drafts(agent)}/${draft.id}/send`, { key: agent.apiKey });
    expect(sent.status).toBe(201);
    expect(sent.body).toEqual({
      id: expect.any(String),
      to: ["pat@example.com"],
      subject: "Soon",
      sentAt: expect.any(Number),
      threadId: expect.any(String),
    });
    expect(provider.deliveries.length).toBe(handedOver + 1);
    expect(provider.deliveries.at(-1)?.raw.toString()).toContain("Now complete.");
    expect((await api.get(`${drafts(agent)}/${draft.id}`, { key: agent.apiKey })).status).toBe(404);
    const sentList = await api.get(`/agents/${agent.id}/sent`, { key: agent.apiKey });
    expect(sentList.body.data.map((s: { id: string }) => s.id)).toEqual([sent.body.id]);
    // The sent message's bytes now, the draft's given back.
    expect(await storageOf(agent)).toBeGreaterThan(0);
    expect(await storageOf(agent)).not.toBe(draft.size);
  });

  test("ten parallel sends of one draft: one goes out, the rest find no draft", async () => {
    const agent = await createVerifiedAgent(api, x);
    const draft = (
      await api.post(drafts(agent), {
        key: agent.apiKey,
        body: { to: "pat@example.com", subject: "Once", text: "Once." },
      })
    ).body;
    const handedOver = provider.deliveries.length;
    const sends = await Promise.all(
      Array.from({ length: 10 }, () => api.post(`${drafts(agent)}/${draft.id}/send`, { key: agent.apiKey })),
    );
    expect(sends.map((s) => s.status).sort()).toEqual([201, ...Array(9).fill(404)]);
    expect(provider.deliveries.length).toBe(handedOver + 1);
    const quota = await api.graphql(
      "query($a: ID!) { agent(id: $a) { sendQuota { used } } }",
      { a: agent.id },
      agent.apiKey,
    );
    expect(quota.body.data.agent.sendQuota.used).toBe(1);
  });

  test("a draft answering a received email is addressed and sent as a reply", async () => {
    const agent = await createVerifiedAgent(api, x);
    await dovecot.append(
      rawMessage({
        to: `${agent.id}@mail.example`,
        subject: "Lunch?",
        body: "Friday?",
        id: "<lunch-1@sender.example>",
      }),
    );
    const email = await waitFor(
      async () => (await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.data[0],
    );
    const created = await api.post(drafts(agent), { key: agent.apiKey, body: { inReplyTo: email.id, text: "Yes." } });
    expect(created.body).toMatchObject({ to: ["alice@sender.example"], subject: "Re: Lunch?", inReplyTo: email.id });
    const changedReply = await api.call("PATCH", `${drafts(agent)}/${created.body.id}`, {
      key: agent.apiKey,
      body: { inReplyTo: email.id },
    });
    expect(changedReply.status).toBe(400);
    const sent = await api.post(`${drafts(agent)}/${created.body.id}/send`, { key: agent.apiKey });
    expect(sent.body.threadId).toBe(email.threadId);
    const raw = provider.deliveries.at(-1)?.raw.toString() ?? "";
    expect(raw).toMatch(/^In-Reply-To: <lunch-1@sender\.example>\r?$/m);
    expect(raw).toMatch(/^Auto-Submitted: auto-replied\r?$/m);
  });

  test("a provider that refuses: a 500 as POST /send answers, and the draft is back as it was", async () => {
    const agent = await createVerifiedAgent(api, x);
    const draft = (
      await api.post(drafts(agent), {
        key: agent.apiKey,
        body: { to: "pat@example.com", subject: "Kept", text: "Kept." },
      })
    ).body;
    provider.behaviour = "refuse";
    try {
      const refused = await api.post(`${drafts(agent)}/${draft.id}/send`, { key: agent.apiKey });
      expect(refused.status).toBe(500);
    } finally {
      provider.behaviour = "accept";
    }
    expect((await api.get(`${drafts(agent)}/${draft.id}`, { key: agent.apiKey })).body).toEqual(draft);
    expect(await storageOf(agent)).toBe(draft.size);
  });
});

describe("scheduled send", () => {
  const schedule = (agent: TestAgent, body: object) =>
    api.post(drafts(agent), {
      key: agent.apiKey,
      body: { to: "pat@example.com", subject: "Later", text: "Later.", ...body },
    });
  const arrivalsOf = (subject: string) => provider.deliveries.filter((d) => d.parsed.subject === subject);

  test("on two instances: each goes out once, within 2 s of its time; one cancelled never goes", async () => {
    const agent = await createVerifiedAgent(api, x);
    await svc.startAnother();
    const sendAt = Date.now() + 1500;
    const subjects = Array.from({ length: 5 }, (_, i) => `Timed ${agent.id} ${i}`);
    const scheduled = await Promise.all(subjects.map((subject) => schedule(agent, { subject, sendAt })));
    expect(scheduled[0]?.body).toMatchObject({ sendStatus: "scheduled", sendAt });
    const cancelled = await schedule(agent, { subject: `Cancelled ${agent.id}`, sendAt });
    await api.call("PATCH", `${drafts(agent)}/${cancelled.body.id}`, { key: agent.apiKey, body: { sendAt: null } });
    await waitFor(() => subjects.every((subject) => arrivalsOf(subject).length > 0) || null, 10_000, "the sends");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    for (const subject of subjects) {
      const arrivals = arrivalsOf(subject);
      expect(arrivals).toHaveLength(1);
      expect(arrivals[0]?.arrivedAt).toBeGreaterThanOrEqual(sendAt);
      expect(arrivals[0]?.arrivedAt).toBeLessThanOrEqual(sendAt + 2000);
    }
    expect(arrivalsOf(`Cancelled ${agent.id}`)).toEqual([]);
    const left = await api.get(drafts(agent), { key: agent.apiKey });
    expect(left.body.data.map((d: { sendStatus: string }) => d.sendStatus)).toEqual(["draft"]);
    const sent = await api.get(`/agents/${agent.id}/events?types=email.sent`, { key: agent.apiKey });
    expect(sent.body.data).toHaveLength(5);
  });

  test("due while no instance ran: each is sent once by the next to start", async () => {
    const env = { SOCIAL_OEMBED_URL: x.url, MAIL_DOMAIN: "mail.example", SMTP_URL: provider.url };
    await withService(env, async (own) => {
      const ownApi = new Api(own.url);
      const agent = await createVerifiedAgent(ownApi, x);
      const subjects = [1, 2, 3].map((n) => `While down ${agent.id} ${n}`);
      for (const subject of subjects) {
        const body = { to: "pat@example.com", subject, text: "Hi.", sendAt: Date.now() + 1000 };
        expect((await ownApi.post(`/agents/${agent.id}/drafts`, { key: agent.apiKey, body })).status).toBe(201);
      }
      await own.stopInstance(0);
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(subjects.flatMap(arrivalsOf)).toEqual([]);
      await own.startAnother();
      await waitFor(() => subjects.every((subject) => arrivalsOf(subject).length > 0) || null, 10_000, "the sends");
      await new Promise((resolve) => setTimeout(resolve, 1000));
      expect(subjects.map((subject) => arrivalsOf(subject).length)).toEqual([1, 1, 1]);
    });
  });

  test("held to what a send asks when scheduled; more than 30 days ahead is a 400", async () => {
    const agent = await createVerifiedAgent(api, x);
    const incomplete = await api.post(drafts(agent), {
      key: agent.apiKey,
      body: { subject: "x", sendAt: Date.now() + 60_000 },
    });
    expect([incomplete.status, incomplete.body.message]).toEqual([400, "to must name 1-50 recipients"]);
    const far = await schedule(agent, { sendAt: Date.now() + 31 * 24 * 3_600_000 });
    expect([far.status, far.body.message]).toEqual([400, "sendAt may be at most 30 days ahead"]);
  });

  test("a send refused when it goes leaves the draft failed, with why, and an email.send_failed event", async () => {
    const agent = await createVerifiedAgent(api, x);
    const draft = (await schedule(agent, { subject: "Refused later", sendAt: Date.now() + 500 })).body;
    provider.behaviour = "refuse";
    try {
      const failed = await waitFor(async () => {
        const reply = await api.get(`${drafts(agent)}/${draft.id}`, { key: agent.apiKey });
        return reply.body.sendStatus === "failed" ? reply.body : null;
      });
      expect(failed.failure).toEqual({
        code: "INTERNAL_SERVER_ERROR",
        message: "Delivery failed: the email provider did not accept the message",
      });
    } finally {
      provider.behaviour = "accept";
    }
    const events = await api.get(`/agents/${agent.id}/events?types=email.send_failed`, { key: agent.apiKey });
    expect(events.body.data.map((e: { data: unknown }) => e.data)).toEqual([
      { draftId: draft.id, code: "INTERNAL_SERVER_ERROR", message: expect.stringMatching(/^Delivery failed/) },
    ]);
    // Scheduled again, it goes.
    await api.call("PATCH", `${drafts(agent)}/${draft.id}`, { key: agent.apiKey, body: { sendAt: Date.now() } });
    await waitFor(() => arrivalsOf("Refused later").length === 1 || null);
  });
});
