import { describe, expect, test } from "vitest";
import { Api, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { rawMessage, reportAbout } from "./support/mail.ts";
import { served } from "./support/served.ts";
import { waitFor } from "./support/wait.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

// What became of sent mail: a message goes out through the real SMTP server,
// a report about it is APPENDed to the Dovecot catch-all, and the poller
// records it on the sent email (status, event, webhook, suppression) rather
// than filing it. Then the rules that keep an agent's mail welcome: no mail
// to suppressed addresses, Auto-Submitted on what it sends, and a cap on
// sends into one thread.

const THREAD_SEND_LIMIT = 3;
const ADMIN = "admin-token-for-delivery-reports-0123";
const { svc, api, x, dovecot, provider } = served({
  imap: true,
  smtp: true,
  env: {
    IMAP_POLL_INTERVAL_MS: "60000",
    WEBHOOK_ALLOW_PRIVATE: "true",
    THREAD_SEND_LIMIT: String(THREAD_SEND_LIMIT),
    ADMIN_TOKEN: ADMIN,
  },
});

const address = (agent: TestAgent) => `${agent.id}@mail.example`;

const report = (name: string, agent: TestAgent, original: string, messageId: string) =>
  reportAbout(name, address(agent), original, messageId);

async function send(agent: TestAgent, body: object) {
  return api.post(`/agents/${agent.id}/send`, { key: agent.apiKey, body: { subject: "Hello", text: "Hi.", ...body } });
}

async function messageIdOf(agent: TestAgent, sentId: string): Promise<string> {
  const reply = await api.graphql(
    "query($a: ID!, $s: ID!) { agent(id: $a) { sentEmail(id: $s) { messageId } } }",
    { a: agent.id, s: sentId },
    agent.apiKey,
  );
  return reply.body.data.agent.sentEmail.messageId;
}

const sentEmail = (agent: TestAgent, sentId: string) =>
  api.get(`/agents/${agent.id}/sent/${sentId}`, { key: agent.apiKey });

async function statusBecomes(agent: TestAgent, sentId: string, status: string) {
  return waitFor(
    async () => {
      const reply = await sentEmail(agent, sentId);
      return reply.body.deliveryStatus === status ? reply.body : null;
    },
    15_000,
    `deliveryStatus ${status}`,
  );
}

describe("delivery reports", () => {
  test("a hard bounce: recorded on the sent email, an event and a webhook, the address suppressed, not filed", async () => {
    const agent = await createVerifiedAgent(api, x);
    const receiver = await WebhookReceiver.start();
    const hook = await api.post(`/agents/${agent.id}/webhooks`, {
      key: agent.apiKey,
      body: { url: receiver.url, events: ["email.bounced"] },
    });
    expect(hook.status).toBe(201);
    const sent = await send(agent, { to: "nobody@gone.example.net" });
    expect(sent.status).toBe(201);
    const before = await sentEmail(agent, sent.body.id);
    expect(before.body).toMatchObject({
      id: sent.body.id,
      to: "nobody@gone.example.net",
      deliveryStatus: "sent",
      deliveries: [],
    });
    const messageId = await messageIdOf(agent, sent.body.id);

    await dovecot.append(report("postfix-bounce.eml", agent, "POSTFIX-ORIGINAL@mail.example.org", messageId));
    const after = await statusBecomes(agent, sent.body.id, "bounced");
    expect(after.deliveries).toEqual([
      {
        recipient: "nobody@gone.example.net",
        status: "bounced",
        action: "failed",
        statusCode: "5.1.1",
        diagnosticCode:
          "550 5.1.1 <nobody@gone.example.net>: Recipient address rejected: User unknown in virtual mailbox table",
        remoteMta: "mx.gone.example.net",
        at: Date.parse("2026-11-26T09:12:02Z"),
      },
    ]);
    const listed = await api.get(`/agents/${agent.id}/sent`, { key: agent.apiKey });
    expect(listed.body.data[0]).toMatchObject({ id: sent.body.id, deliveryStatus: "bounced" });

    const events = await api.get(`/agents/${agent.id}/events?types=email.bounced`, { key: agent.apiKey });
    expect(events.body.data.map((event: { data: unknown }) => event.data)).toEqual([
      {
        sentId: sent.body.id,
        threadId: sent.body.threadId,
        recipient: "nobody@gone.example.net",
        status: "bounced",
        diagnosticCode: after.deliveries[0].diagnosticCode,
      },
    ]);
    const delivered = await waitFor(() => receiver.received[0] ?? null, 15_000, "the webhook");
    expect(delivered.body).toMatchObject({ type: "email.bounced", data: { sentId: sent.body.id } });
    await receiver.down();

    // Not filed: the inbox is empty, and only the sent message counts against storage.
    expect((await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.total).toBe(0);
    const suppressions = await api.get(`/agents/${agent.id}/suppressions`, { key: agent.apiKey });
    expect(suppressions.body).toEqual({
      data: [
        {
          address: "nobody@gone.example.net",
          reason: "bounced",
          statusCode: "5.1.1",
          sentId: sent.body.id,
          createdAt: expect.any(Number),
        },
      ],
      total: 1,
      limit: 50,
      offset: 0,
    });

    // Refused without case, nothing sent and nothing counted; then sent again once removed.
    const handedOver = provider.deliveries.length;
    const refused = await send(agent, { to: ["friend@example.com"], cc: ["NoBody@Gone.Example.net"] });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "RECIPIENT_SUPPRESSED", recipients: ["nobody@gone.example.net"] });
    expect(provider.deliveries.length).toBe(handedOver);
    const quota = await api.graphql(
      "query($a: ID!) { agent(id: $a) { sendQuota { used } } }",
      { a: agent.id },
      agent.apiKey,
    );
    expect(quota.body.data.agent.sendQuota.used).toBe(1);
    const removed = await api.delete(`/agents/${agent.id}/suppressions/NoBody@Gone.Example.net`, { key: agent.apiKey });
    expect(removed.body).toMatchObject({ success: true });
    expect((await send(agent, { to: "nobody@gone.example.net" })).status).toBe(201);
    expect(
      (await api.delete(`/agents/${agent.id}/suppressions/nobody@gone.example.net`, { key: agent.apiKey })).status,
    ).toBe(404);
  });

  test("the operator sees and clears an agent's suppressions", async () => {
    const agent = await createVerifiedAgent(api, x);
    const sent = await send(agent, { to: "nobody@gone.example.net" });
    const messageId = await messageIdOf(agent, sent.body.id);
    await dovecot.append(report("postfix-bounce.eml", agent, "POSTFIX-ORIGINAL@mail.example.org", messageId));
    await statusBecomes(agent, sent.body.id, "bounced");
    const listed = await api.get(`/admin/agents/${agent.id}/suppressions`, { key: ADMIN });
    expect(listed.body).toMatchObject({ total: 1, data: [{ address: "nobody@gone.example.net", reason: "bounced" }] });
    expect((await api.get(`/admin/agents/${agent.id}/suppressions`, { key: agent.apiKey })).status).toBe(403);
    const cleared = await api.delete(`/admin/agents/${agent.id}/suppressions/nobody@gone.example.net`, { key: ADMIN });
    expect(cleared.body).toMatchObject({ success: true });
    expect((await api.get(`/agents/${agent.id}/suppressions`, { key: agent.apiKey })).body.total).toBe(0);
    expect((await api.get("/admin/agents/nobody-here/suppressions", { key: ADMIN })).status).toBe(404);
  });

  test("two recipients in one report: a 5.x.x failure suppresses, a 4.x.x one does not; a complaint does", async () => {
    const agent = await createVerifiedAgent(api, x);
    const sent = await send(agent, { to: ["Gone.Person@example.com", "full@example.com"] });
    const messageId = await messageIdOf(agent, sent.body.id);
    await dovecot.append(report("gmail-two-recipients.eml", agent, "GMAIL-ORIGINAL@mail.example.org", messageId));
    const after = await statusBecomes(agent, sent.body.id, "bounced");
    expect(after.deliveries.map((d: { recipient: string; statusCode: string }) => [d.recipient, d.statusCode])).toEqual(
      [
        ["Gone.Person@example.com", "5.1.1"],
        ["full@example.com", "4.2.2"],
      ],
    );

    const digest = await send(agent, { to: "reader@yahoo.example" });
    const digestId = await messageIdOf(agent, digest.body.id);
    await dovecot.append(report("yahoo-complaint.eml", agent, "ARF-ORIGINAL@mail.example.org", digestId));
    await statusBecomes(agent, digest.body.id, "complained");
    const graphql = await api.graphql(
      `query($a: ID!) { agent(id: $a) { suppressions { data { address reason } total } } }`,
      { a: agent.id },
      agent.apiKey,
    );
    expect(graphql.body.data.agent.suppressions).toEqual({
      data: expect.arrayContaining([
        { address: "gone.person@example.com", reason: "bounced" },
        { address: "reader@yahoo.example", reason: "complained" },
      ]),
      total: 2,
    });
  });

  test("a report about nothing the agent sent is filed as mail, auto-generated; the list tells machines from people", async () => {
    const agent = await createVerifiedAgent(api, x);
    await dovecot.append(
      report("references-only.eml", agent, "TINY-ORIGINAL@mail.example.org", "<unknown@mail.example>"),
    );
    await dovecot.append(rawMessage({ to: address(agent), subject: "From a person", body: "Hello." }));
    const all = await waitFor(async () => {
      const reply = await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey });
      return reply.body.total === 2 ? reply.body : null;
    });
    expect(
      all.data.map((email: { subject: string; autoSubmitted: string | null }) => [email.subject, email.autoSubmitted]),
    ).toEqual(
      expect.arrayContaining([
        ["failure notice", "auto-generated"],
        ["From a person", null],
      ]),
    );
    // Its report fields stay in it: the delivery-status part is read into its text.
    const filedReport = all.data.find((email: { subject: string }) => email.subject === "failure notice");
    expect(filedReport.bodyText).toContain("Final-Recipient: rfc822; <Closed@Tiny.Example>");
    const people = await api.get(`/agents/${agent.id}/emails?autoSubmitted=false`, { key: agent.apiKey });
    expect(people.body.data.map((email: { subject: string }) => email.subject)).toEqual(["From a person"]);
    const machines = await api.get(`/agents/${agent.id}/emails?autoSubmitted=true`, { key: agent.apiKey });
    expect(machines.body.data.map((email: { subject: string }) => email.subject)).toEqual(["failure notice"]);
  });
});

describe("loops", () => {
  test("what the service sends says a program sent it, unless a person dictates it", async () => {
    const agent = await createVerifiedAgent(api, x);
    const headerOf = async (body: object) => {
      const sent = await send(agent, { to: "friend@example.com", ...body });
      expect(sent.status).toBe(201);
      const raw = provider.deliveries.at(-1)?.raw.toString("utf8") ?? "";
      return /^Auto-Submitted: (.*)$/m.exec(raw)?.[1]?.trim() ?? null;
    };
    expect(await headerOf({})).toBe("auto-generated");
    expect(await headerOf({ autoSubmitted: "no" })).toBeNull();
    const bad = await send(agent, { to: "friend@example.com", autoSubmitted: "yes" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toMatch(/autoSubmitted/);
  });

  test(`at most ${THREAD_SEND_LIMIT} sends into one thread per hour, counted exactly under parallel replies on two instances`, async () => {
    const agent = await createVerifiedAgent(api, x);
    await dovecot.append(rawMessage({ to: address(agent), subject: "Ping", body: "Are you there?" }));
    const email = await waitFor(
      async () => (await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.data[0],
    );
    const instances = [api, new Api((await svc.startAnother()).url)];
    const replies = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        (instances[i % 2] ?? api).post(`/agents/${agent.id}/emails/${email.id}/reply`, {
          key: agent.apiKey,
          body: { text: "Pong." },
        }),
      ),
    );
    expect(replies.filter((reply) => reply.status === 201)).toHaveLength(THREAD_SEND_LIMIT);
    const refused = replies.filter((reply) => reply.status === 429);
    expect(refused).toHaveLength(6 - THREAD_SEND_LIMIT);
    expect(refused[0]?.body).toMatchObject({
      code: "THREAD_SEND_LIMIT_EXCEEDED",
      limit: THREAD_SEND_LIMIT,
      current: THREAD_SEND_LIMIT,
      resetAt: expect.any(Number),
    });
    const raw = provider.deliveries.at(-1)?.raw.toString("utf8") ?? "";
    expect(raw).toMatch(/^Auto-Submitted: auto-replied\r?$/m);
    // A new thread is not held back.
    expect((await send(agent, { to: "friend@example.com" })).status).toBe(201);
  });
});
