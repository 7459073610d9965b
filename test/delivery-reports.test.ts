import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Api, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { dkimKey, dkimSigned } from "./support/dkim.ts";
import { type DnsServer, startDnsServer } from "./support/dns-server.ts";
import { inboxOf } from "./support/inbox.ts";
import { deliveredTo, messageId as freshMessageId, rawMessage, reportAbout } from "./support/mail.ts";
import { callTool, connectMcp } from "./support/mcp.ts";
import { served } from "./support/served.ts";
import { doorPort } from "./support/service.ts";
import { WAIT_MS, waitFor } from "./support/wait.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

// What became of sent mail: a message goes out through the real SMTP server
// with a return path of its own, a report about it comes back to that return
// path (APPENDed to the Dovecot catch-all with the envelope its server
// records, or handed to the SMTP door or POST /inbound/raw), and it is
// recorded on the sent email (status, event, webhook, suppression) rather
// than filed. Reports that do not prove themselves are filed, saying why.
// Then the rules that keep an agent's mail welcome: no mail to suppressed
// addresses, Auto-Submitted on what it sends, and a cap on sends into one
// thread.

const THREAD_SEND_LIMIT = 3;
const ADMIN = "admin-token-for-delivery-reports-0123";
const INBOUND = "inbound-token-for-delivery-reports-0123";

const keys = { "fbl.example": dkimKey(), "stranger.example": dkimKey() };

let dns: DnsServer;
beforeAll(async () => {
  dns = await startDnsServer();
  for (const [domain, { record }] of Object.entries(keys)) dns.txt(`sel._domainkey.${domain}`, record);
});
afterAll(async () => {
  await dns?.close();
});
// After the DNS server above has started: the service asks it.
const { svc, api, x, dovecot, provider } = served({
  imap: true,
  smtp: true,
  env: () => ({
    IMAP_POLL_INTERVAL_MS: "60000",
    WEBHOOK_ALLOW_PRIVATE: "true",
    THREAD_SEND_LIMIT: String(THREAD_SEND_LIMIT),
    ADMIN_TOKEN: ADMIN,
    INBOUND_TOKEN: INBOUND,
    // A port of its own for each instance the file starts.
    SMTP_INGRESS_PORT: "0",
    SMTP_INGRESS_HOST: "127.0.0.1",
    FEEDBACK_LOOP_DOMAINS: "fbl.example",
    SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
    DNS_SERVERS: dns.address,
  }),
});

/** The SMTP door of an instance, the first unless told. */
function door(instance = 0) {
  return nodemailer.createTransport({ host: "127.0.0.1", port: doorPort(svc, instance), ignoreTLS: true });
}

const address = (agent: TestAgent) => `${agent.id}@mail.example`;

const report = (name: string, agent: TestAgent, original: string, messageId: string) =>
  reportAbout(name, address(agent), original, messageId);

/** A Postfix bounce about a sent email, naming `recipient` where it names nobody@gone.example.net; a Message-ID of its own. */
const bounceOf = (agent: TestAgent, sent: Sent, recipient = "nobody@gone.example.net") =>
  report("postfix-bounce.eml", agent, "POSTFIX-ORIGINAL@mail.example.org", sent.messageId)
    .replaceAll("nobody@gone.example.net", recipient)
    .replace("<20261126091204.4F1C21A0B7@mx1.example.org>", freshMessageId());

/** An ARF complaint about a sent email by the reader at `recipient`; a Message-ID of its own. */
const complaintOf = (agent: TestAgent, sent: Sent, recipient: string) =>
  report("yahoo-complaint.eml", agent, "ARF-ORIGINAL@mail.example.org", sent.messageId)
    .replaceAll("reader@yahoo.example", recipient)
    .replace("<1795690964.arf.0001@arf.mail.yahoo.example>", freshMessageId());

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

interface Sent {
  id: string;
  threadId: string;
  sentAt: number;
  messageId: string;
  /** The envelope sender the provider was given. */
  returnPath: string;
}

/** Sends, and what the provider saw of it. */
async function sendOne(agent: TestAgent, body: object): Promise<Sent> {
  const sent = await send(agent, body);
  expect(sent.status).toBe(201);
  const messageId = await messageIdOf(agent, sent.body.id);
  const delivery = provider.deliveries.find((handed) => handed.parsed.messageId === messageId);
  return { ...sent.body, messageId, returnPath: delivery?.from ?? "" };
}

const sentEmail = (agent: TestAgent, sentId: string) =>
  api.get(`/agents/${agent.id}/sent/${sentId}`, { key: agent.apiKey });

async function statusBecomes(agent: TestAgent, sentId: string, status: string) {
  return waitFor(
    async () => {
      const reply = await sentEmail(agent, sentId);
      return reply.body.deliveryStatus === status ? reply.body : null;
    },
    WAIT_MS,
    `deliveryStatus ${status}`,
  );
}

/** The agent's filed mail once it holds `count` emails: subject and reportIgnored of each, by subject. */
async function filed(agent: TestAgent, count: number) {
  const reply = await inboxOf(api, agent, count);
  return (reply.body.data as { subject: string; reportIgnored: string | null }[])
    .map(({ subject, reportIgnored }) => ({ subject, reportIgnored }))
    .sort((a, b) => a.subject.localeCompare(b.subject));
}

/** Signed by the domain, its line ends made CRLF first, as the message travels. */
const signed = (raw: string, domain: keyof typeof keys) =>
  dkimSigned(raw.replace(/\r?\n/g, "\r\n"), domain, keys[domain]);

describe("delivery reports", () => {
  test("a hard bounce at the return path: recorded on the sent email, an event and a webhook, the address suppressed, not filed", async () => {
    const agent = await createVerifiedAgent(api, x);
    const receiver = await WebhookReceiver.start();
    const hook = await api.post(`/agents/${agent.id}/webhooks`, {
      key: agent.apiKey,
      body: { url: receiver.url, events: ["email.bounced"] },
    });
    expect(hook.status).toBe(201);
    const sent = await sendOne(agent, { to: "nobody@gone.example.net" });
    // The envelope's sender is the email's own return path; From stays the agent's address.
    expect(sent.returnPath).toMatch(new RegExp(`^bounces\\+${sent.id}\\.[0-9a-f]{16}@mail\\.example$`));
    expect(provider.deliveries.at(-1)?.parsed.from?.value[0]?.address).toBe(address(agent));
    const before = await sentEmail(agent, sent.id);
    expect(before.body).toMatchObject({
      id: sent.id,
      to: "nobody@gone.example.net",
      deliveryStatus: "sent",
      deliveries: [],
    });

    await dovecot.append(deliveredTo(sent.returnPath, bounceOf(agent, sent)));
    const after = await statusBecomes(agent, sent.id, "bounced");
    expect(after.deliveries).toEqual([
      {
        recipient: "nobody@gone.example.net",
        status: "bounced",
        action: "failed",
        statusCode: "5.1.1",
        diagnosticCode:
          "550 5.1.1 <nobody@gone.example.net>: Recipient address rejected: User unknown in virtual mailbox table",
        remoteMta: "mx.gone.example.net",
        // The fixture is dated before the send: taken as the send's time.
        at: sent.sentAt,
      },
    ]);
    const listed = await api.get(`/agents/${agent.id}/sent`, { key: agent.apiKey });
    expect(listed.body.data[0]).toMatchObject({ id: sent.id, deliveryStatus: "bounced" });
    // A model reads the status, never the words the reporting server wrote.
    const mcp = await connectMcp(svc.url, agent.apiKey);
    for (const [tool, args] of [
      ["list_sent", {}],
      ["read_thread", { threadId: sent.threadId }],
    ] as const) {
      const { body } = await callTool(mcp, tool, args);
      const [read] = tool === "list_sent" ? body.data : body.messages;
      expect(read.deliveries, tool).toEqual([
        { recipient: "nobody@gone.example.net", status: "bounced", statusCode: "5.1.1", at: sent.sentAt },
      ]);
    }
    await mcp.close();

    const events = await api.get(`/agents/${agent.id}/events?types=email.bounced`, { key: agent.apiKey });
    expect(events.body.data.map((event: { data: unknown }) => event.data)).toEqual([
      {
        sentId: sent.id,
        threadId: sent.threadId,
        recipient: "nobody@gone.example.net",
        status: "bounced",
        diagnosticCode: after.deliveries[0].diagnosticCode,
      },
    ]);
    const delivered = await waitFor(() => receiver.received[0] ?? null, WAIT_MS, "the webhook");
    expect(delivered.body).toMatchObject({ type: "email.bounced", data: { sentId: sent.id } });
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
          sentId: sent.id,
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
    const sent = await sendOne(agent, { to: "nobody@gone.example.net" });
    await dovecot.append(deliveredTo(sent.returnPath, bounceOf(agent, sent)));
    await statusBecomes(agent, sent.id, "bounced");
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
    const sent = await sendOne(agent, { to: ["Gone.Person@example.com", "full@example.com"] });
    const gmail = report("gmail-two-recipients.eml", agent, "GMAIL-ORIGINAL@mail.example.org", sent.messageId);
    await dovecot.append(deliveredTo(sent.returnPath, gmail));
    const after = await statusBecomes(agent, sent.id, "bounced");
    expect(after.deliveries.map((d: { recipient: string; statusCode: string }) => [d.recipient, d.statusCode])).toEqual(
      [
        ["Gone.Person@example.com", "5.1.1"],
        ["full@example.com", "4.2.2"],
      ],
    );

    const digest = await sendOne(agent, { to: "reader@yahoo.example" });
    await dovecot.append(deliveredTo(digest.returnPath, complaintOf(agent, digest, "reader@yahoo.example")));
    await statusBecomes(agent, digest.id, "complained");
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

  test("a report about nothing the agent sent is filed as mail, auto-generated, saying why; the list tells machines from people", async () => {
    const agent = await createVerifiedAgent(api, x);
    await dovecot.append(
      report("references-only.eml", agent, "TINY-ORIGINAL@mail.example.org", "<unknown@mail.example>"),
    );
    await dovecot.append(rawMessage({ to: address(agent), subject: "From a person", body: "Hello." }));
    // A newsletter that says so by List-Id alone.
    const listIdOnly = rawMessage({
      to: address(agent),
      subject: "Release notes",
      headers: ["List-Id: <notes.example>"],
    });
    await dovecot.append(listIdOnly);
    const all = (await inboxOf(api, agent, 3)).body;
    expect(
      all.data.map((email: { subject: string; autoSubmitted: string | null; reportIgnored: string | null }) => [
        email.subject,
        email.autoSubmitted,
        email.reportIgnored,
      ]),
    ).toEqual(
      expect.arrayContaining([
        ["failure notice", "auto-generated", "not_at_return_path"],
        ["From a person", null, null],
        ["Release notes", "list", null],
      ]),
    );
    // Its report fields stay in it: the delivery-status part is read into its text.
    const filedReport = all.data.find((email: { subject: string }) => email.subject === "failure notice");
    expect(filedReport.bodyText).toContain("Final-Recipient: rfc822; <Closed@Tiny.Example>");
    const people = await api.get(`/agents/${agent.id}/emails?autoSubmitted=false`, { key: agent.apiKey });
    expect(people.body.data.map((email: { subject: string }) => email.subject)).toEqual(["From a person"]);
    const machines = await api.get(`/agents/${agent.id}/emails?autoSubmitted=true`, { key: agent.apiKey });
    expect(machines.body.data.map((email: { subject: string }) => email.subject).sort()).toEqual([
      "Release notes",
      "failure notice",
    ]);
  });
});

describe("reports prove themselves", () => {
  test("a co-recipient's forged bounces and complaints change nothing and are filed saying why; a real bounce at the return path does", async () => {
    const agent = await createVerifiedAgent(api, x);
    const [victim, mallory] = ["victim@example.com", "mallory@example.com"];
    const sent = await sendOne(agent, { to: [victim, mallory] });
    const bounce = () => bounceOf(agent, sent, victim);
    const complaint = () => complaintOf(agent, sent, victim);
    const onlyInReplyTo = report("references-only.eml", agent, "TINY-ORIGINAL@mail.example.org", sent.messageId)
      .replace("Subject: failure notice", "Subject: in reply only")
      .replaceAll("Closed@Tiny.Example", victim);
    // From his own address, to the agent's address or to the return path he read in his copy.
    await dovecot.append([
      deliveredTo(
        address(agent),
        bounce().replace("Subject: Undelivered", "Subject: to the agent, undelivered"),
        mallory,
      ),
      deliveredTo(
        sent.returnPath,
        bounce().replace("Subject: Undelivered", "Subject: to the return path, undelivered"),
        mallory,
      ),
      deliveredTo(address(agent), complaint().replace("Subject: FW:", "Subject: to the agent, FW:"), mallory),
      deliveredTo(sent.returnPath, complaint().replace("Subject: FW:", "Subject: to the return path, FW:"), mallory),
      // With the empty reverse path, and only an In-Reply-To naming the email.
      deliveredTo(address(agent), onlyInReplyTo),
    ]);
    expect(await filed(agent, 5)).toEqual([
      { subject: "in reply only", reportIgnored: "not_at_return_path" },
      { subject: "to the agent, FW: Weekly digest", reportIgnored: "not_at_return_path" },
      { subject: "to the agent, undelivered Mail Returned to Sender", reportIgnored: "not_at_return_path" },
      { subject: "to the return path, FW: Weekly digest", reportIgnored: "sender_not_empty" },
      { subject: "to the return path, undelivered Mail Returned to Sender", reportIgnored: "sender_not_empty" },
    ]);
    expect((await sentEmail(agent, sent.id)).body).toMatchObject({ deliveryStatus: "sent", deliveries: [] });
    expect((await api.get(`/agents/${agent.id}/suppressions`, { key: agent.apiKey })).body.total).toBe(0);
    expect((await send(agent, { to: victim })).status).toBe(201);

    await dovecot.append(deliveredTo(sent.returnPath, bounce()));
    const after = await statusBecomes(agent, sent.id, "bounced");
    expect(after.deliveries).toMatchObject([{ recipient: victim, status: "bounced" }]);
  });

  test("a real bounce is believed through the catch-all, another instance's SMTP door and POST /inbound/raw; without the reverse path, not", async () => {
    const agent = await createVerifiedAgent(api, x);
    const [viaImap, viaDoor, viaRaw] = ["imap@gone.example.net", "door@gone.example.net", "raw@gone.example.net"];
    const sent = await sendOne(agent, { to: [viaImap, viaDoor, viaRaw] });
    const post = (recipient: string, reversePath: Record<string, string>) =>
      fetch(`${api.url}/inbound/raw`, {
        method: "POST",
        body: bounceOf(agent, sent, recipient),
        headers: {
          Authorization: `Bearer ${INBOUND}`,
          "Content-Type": "message/rfc822",
          "X-Envelope-To": sent.returnPath,
          ...reversePath,
        },
      });

    await dovecot.append(deliveredTo(sent.returnPath, bounceOf(agent, sent, viaImap)));
    await waitFor(async () => ((await sentEmail(agent, sent.id)).body.deliveries.length === 1 ? true : null));
    // The key that signs return paths is the database's, sealed with SECRETS_KEY: every instance knows it.
    const secret = await svc.service.services.prisma.instanceSecret.findUniqueOrThrow({
      where: { name: "return-path" },
    });
    expect(secret.value).toMatch(/^sealed:/);
    await svc.startAnother();
    const answer = await door(svc.instances.length - 1).sendMail({
      envelope: { from: "", to: [sent.returnPath] },
      raw: bounceOf(agent, sent, viaDoor),
    });
    expect(answer.response).toMatch(/^250 /);
    // A provider that does not say who sent it: filed as mail, not believed.
    const unsaid = await post(viaRaw, {});
    expect((await unsaid.json()).recipients).toEqual([expect.objectContaining({ outcome: "filed", code: 250 })]);
    expect(await filed(agent, 1)).toEqual([
      { subject: "Undelivered Mail Returned to Sender", reportIgnored: "sender_not_empty" },
    ]);
    const said = await post(viaRaw, { "X-Envelope-From": "<>" });
    expect((await said.json()).recipients).toEqual([expect.objectContaining({ outcome: "filed", code: 250 })]);

    const after = await sentEmail(agent, sent.id);
    expect(after.body.deliveries.map((d: { recipient: string; status: string }) => [d.recipient, d.status])).toEqual([
      [viaDoor, "bounced"],
      [viaImap, "bounced"],
      [viaRaw, "bounced"],
    ]);
  });

  test("a bounce for an agent whose mailbox is full is kept at its return path, refused at its address", async () => {
    const agent = await createVerifiedAgent(api, x);
    const sent = await sendOne(agent, { to: "nobody@gone.example.net" });
    await api.call("PUT", `/admin/agents/${agent.id}/limits`, { key: ADMIN, body: { storageLimit: 10 } });
    const raw = bounceOf(agent, sent);
    await expect(door().sendMail({ envelope: { from: "", to: [address(agent)] }, raw })).rejects.toMatchObject({
      responseCode: 452,
    });
    // A return path whose MAC is wrong is no mailbox.
    const forged = sent.returnPath.replace(/([0-9a-f])@/, (_, digit: string) => `${digit === "0" ? "1" : "0"}@`);
    await expect(door().sendMail({ envelope: { from: "", to: [forged] }, raw })).rejects.toMatchObject({
      responseCode: 550,
    });
    const kept = await door().sendMail({ envelope: { from: "", to: [sent.returnPath] }, raw });
    expect(kept.response).toMatch(/^250 /);
    expect((await sentEmail(agent, sent.id)).body.deliveryStatus).toBe("bounced");
  });

  test("a report dated in the year 9999 or before the send is taken as now or the send's time: a later report still counts", async () => {
    const agent = await createVerifiedAgent(api, x);
    const sent = await sendOne(agent, { to: "slow@busy.example.com" });
    const delayed = report("exim-delayed.eml", agent, "EXIM-ORIGINAL@mail.example.org", sent.messageId).replace(
      "Will-Retry-Until:",
      "Last-Attempt-Date: Fri, 31 Dec 9999 23:59:59 +0000\nWill-Retry-Until:",
    );
    await dovecot.append(deliveredTo(sent.returnPath, delayed));
    const pinned = await statusBecomes(agent, sent.id, "delayed");
    expect(pinned.deliveries[0].at).toBeLessThanOrEqual(svc.clock.now().getTime());
    // A real failure after it, undated: it is the latest.
    const failed = bounceOf(agent, sent, "slow@busy.example.com").replace(/^Arrival-Date: .*\n/m, "");
    await dovecot.append(deliveredTo(sent.returnPath, failed));
    await statusBecomes(agent, sent.id, "bounced");

    const early = await sendOne(agent, { to: "early@gone.example.net" });
    const backdated = bounceOf(agent, early, "early@gone.example.net").replace(
      /^Arrival-Date: .*$/m,
      "Arrival-Date: Sat, 01 Jan 2000 00:00:00 +0000",
    );
    await dovecot.append(deliveredTo(early.returnPath, backdated));
    const recorded = await statusBecomes(agent, early.id, "bounced");
    expect(recorded.deliveries[0].at).toBe(early.sentAt);
  });

  test("a report speaks only for an address the email went to: not for a list's member, nor a forwarder's", async () => {
    const agent = await createVerifiedAgent(api, x);
    const sent = await sendOne(agent, { to: "team@lists.example" });
    await dovecot.append(deliveredTo(sent.returnPath, bounceOf(agent, sent, "member@example.org")));
    expect(await filed(agent, 1)).toEqual([
      { subject: "Undelivered Mail Returned to Sender", reportIgnored: "no_recipient_mailed" },
    ]);
    expect((await sentEmail(agent, sent.id)).body).toMatchObject({ deliveryStatus: "sent", deliveries: [] });
    expect((await api.get(`/agents/${agent.id}/suppressions`, { key: agent.apiKey })).body.total).toBe(0);
  });

  test("a complaint signed by a feedback loop the operator lists is believed wherever it arrives; another signature is not", async () => {
    const agent = await createVerifiedAgent(api, x);
    const sent = await sendOne(agent, { to: "reader@yahoo.example" });
    const complaint = () => complaintOf(agent, sent, "reader@yahoo.example");
    const fromFeedback = "feedback@fbl.example";
    await dovecot.append([
      deliveredTo(
        address(agent),
        await signed(complaint().replace("Subject: FW:", "Subject: Stranger, FW:"), "stranger.example"),
        fromFeedback,
      ),
    ]);
    expect(await filed(agent, 1)).toEqual([
      { subject: "Stranger, FW: Weekly digest", reportIgnored: "not_at_return_path" },
    ]);
    await dovecot.append(deliveredTo(address(agent), await signed(complaint(), "fbl.example"), fromFeedback));
    const after = await statusBecomes(agent, sent.id, "complained");
    expect(after.deliveries).toMatchObject([{ recipient: "reader@yahoo.example", action: "abuse" }]);
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
