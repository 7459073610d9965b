import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { Clamd, EICAR, EICAR_SIGNATURE } from "./support/clamav.ts";
import { rawMessage } from "./support/mail.ts";
import { served } from "./support/served.ts";
import { waitFor } from "./support/wait.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

// The agent's reviewer decides its quarantined mail as it decides its held
// sends: a link mailed to them through the provider and POSTed to their
// webhook (email.quarantined) with the hold, whose page shows the message's
// text and releases it into the inbox (email.received then) or deletes it,
// once. The agent never sees the link and cannot use it. Mail is quarantined
// for real: EICAR through /inbound/raw, with a real clamd.

const ADMIN = "admin-token-quarantine-review-0123";
const INBOUND = "inbound-token-quarantine-review-01";
const REVIEWER = "reviewer@people.example";
const HOOK_SECRET = `whsec_${Buffer.alloc(32, 7).toString("base64")}`;
const TOKEN = /\/review\/(pr_[A-Za-z0-9_-]{43})/;
let reviewerHook: WebhookReceiver;
let clamd: Clamd;

beforeAll(async () => {
  [reviewerHook, clamd] = await Promise.all([WebhookReceiver.start(), Clamd.start()]);
  reviewerHook.secrets = [HOOK_SECRET];
});
afterAll(async () => {
  await Promise.all([reviewerHook?.down(), clamd?.stop()]);
});
// After the receiver and clamd above have started: the service is told of both.
const { svc, api, x, provider } = served({
  smtp: true,
  env: () => ({
    ADMIN_TOKEN: ADMIN,
    INBOUND_TOKEN: INBOUND,
    CLAMAV_URL: clamd.url,
    REVIEWER_EMAIL: REVIEWER,
    REVIEWER_WEBHOOK_URL: reviewerHook.url,
    REVIEWER_WEBHOOK_SECRET: HOOK_SECRET,
    WEBHOOK_ALLOW_PRIVATE: "true",
  }),
});

/** Posts a message carrying EICAR to the agent through /inbound/raw: clamd finds it, and it is quarantined. */
async function quarantine(agent: TestAgent, subject: string) {
  const to = `${agent.id}@mail.example`;
  const body = `Open the <b>file</b> below & pay.\r\n${EICAR}`;
  const posted = await fetch(`${api.url}/inbound/raw`, {
    method: "POST",
    body: rawMessage({ to, from: "Mallory <mallory@sender.example>", subject, body }),
    headers: {
      Authorization: `Bearer ${INBOUND}`,
      "Content-Type": "message/rfc822",
      "X-Envelope-To": to,
      "X-Envelope-From": "mallory@sender.example",
    },
  });
  expect(posted.status).toBe(200);
}

/** The notice mailed to the reviewer for the quarantined message with this subject, once it came. */
function noticeMailed(subject: string) {
  return waitFor(
    () =>
      provider.deliveries.find(
        (d) => d.to.includes(REVIEWER) && d.parsed.subject?.startsWith(`Quarantined: ${subject} (`),
      ) ?? null,
    10_000,
    `quarantine notice for ${subject}`,
  );
}

async function linkMailed(subject: string): Promise<string> {
  return TOKEN.exec((await noticeMailed(subject)).parsed.text ?? "")?.[1] ?? "";
}

const emailsOf = async (agent: TestAgent) =>
  (await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.data as { id: string; subject: string }[];

describe("a quarantined message's review link", () => {
  test("reaches the reviewer by mail and by their webhook, never the agent, whose key cannot use it", async () => {
    const agent = await createVerifiedAgent(api, x);
    const subject = `Invoice ${agent.id}`;
    await quarantine(agent, subject);
    const mail = await noticeMailed(subject);
    expect(mail.parsed.text).toContain("From: mallory@sender.example");
    expect(mail.parsed.text).toContain(`Why: malware (${EICAR_SIGNATURE})`);
    const token = TOKEN.exec(mail.parsed.text ?? "")?.[1] ?? "";
    const [posted] = await waitFor(() => {
      const found = reviewerHook.received.filter(
        (r) => r.body.type === "email.quarantined" && r.body.data?.subject === subject,
      );
      return found.length > 0 ? found : null;
    });
    expect(posted?.verifiedWith).toBe(HOOK_SECRET);
    expect(posted?.body.data).toMatchObject({
      quarantinedId: expect.any(String),
      agentId: agent.id,
      to: `${agent.id}@mail.example`,
      from: "mallory@sender.example",
      reason: "malware",
      detail: EICAR_SIGNATURE,
      receivedAt: expect.any(Number),
    });
    expect(TOKEN.exec(posted?.body.data.reviewUrl)?.[1]).toBe(token);
    // The agent sees nothing of it: no email, no event, no link.
    const events = await api.get(`/agents/${agent.id}/events`, { key: agent.apiKey });
    for (const text of [events.text, JSON.stringify(svc.logs)])
      expect(text).not.toMatch(/pr_[A-Za-z0-9_-]{43}|reviewUrl/);
    expect(await emailsOf(agent)).toEqual([]);
    // With the token in hand all the same, the agent's key does nothing with it, by any door.
    const asAgent = { key: agent.apiKey };
    const refusals = await Promise.all([
      api.post(`/review/${token}/release`, asAgent),
      api.post(`/review/${token}/delete`, asAgent),
      api.get(`/review/${token}/quarantined`, asAgent),
      api.graphql(`mutation($t: String!) { releaseByReview(token: $t) { emailId } }`, { t: token }, agent.apiKey),
      api.graphql(`mutation($t: String!) { deleteByReview(token: $t) { success } }`, { t: token }, agent.apiKey),
    ]);
    expect(refusals.map((r) => r.status)).toEqual([403, 403, 403, 200, 200]);
    for (const graphql of refusals.slice(3)) expect(graphql.body.errors[0].extensions.code).toBe("FORBIDDEN");
    expect((await api.get(`/review/${token}/quarantined`)).status).toBe(200);
  });

  test("opens a page that shows the message's text escaped, and loads nothing", async () => {
    const agent = await createVerifiedAgent(api, x);
    const subject = `Page ${agent.id}`;
    await quarantine(agent, subject);
    const token = await linkMailed(subject);
    const page = await fetch(`${api.url}/review/${token}`);
    expect(page.status).toBe(200);
    expect(page.headers.get("content-security-policy")).toContain("default-src 'none'");
    const html = await page.text();
    expect(html).toContain("mallory@sender.example");
    expect(html).toContain(EICAR_SIGNATURE);
    expect(html).toContain("Open the &lt;b&gt;file&lt;/b&gt; below &amp; pay.");
    expect(html).not.toContain("<iframe");
    const read = await api.get(`/review/${token}/quarantined`);
    expect(read.body).toMatchObject({ from: "mallory@sender.example", subject, reason: "malware" });
    expect(read.body.text).toContain("Open the <b>file</b> below & pay.");
  });

  test("releases it into the inbox, where the agent reads it with email.received; used again, 410", async () => {
    const agent = await createVerifiedAgent(api, x);
    const subject = `Release ${agent.id}`;
    await quarantine(agent, subject);
    const token = await linkMailed(subject);
    const released = await api.post(`/review/${token}/release`);
    expect(released.status).toBe(200);
    const emails = await emailsOf(agent);
    expect(emails.map((e) => [e.id, e.subject])).toEqual([[released.body.emailId, subject]]);
    const events = await api.get(`/agents/${agent.id}/events?types=email.received`, { key: agent.apiKey });
    expect(events.body.data.map((e: { data: { emailId?: string } }) => e.data.emailId)).toContain(
      released.body.emailId,
    );
    const again = await api.post(`/review/${token}/release`);
    expect([again.status, again.body.message]).toEqual([410, expect.stringContaining("already released")]);
    expect((await api.post(`/review/${token}/delete`)).status).toBe(410);
    expect((await fetch(`${api.url}/review/${token}`)).status).toBe(410);
  });

  test("deletes it for good; used again, 410", async () => {
    const agent = await createVerifiedAgent(api, x);
    const subject = `Delete ${agent.id}`;
    await quarantine(agent, subject);
    const token = await linkMailed(subject);
    const deleted = await api.post(`/review/${token}/delete`);
    expect([deleted.status, deleted.body.success]).toEqual([200, true]);
    expect((await api.get(`/review/${token}/quarantined`)).status).toBe(410);
    expect((await api.post(`/review/${token}/release`)).status).toBe(410);
    expect(await emailsOf(agent)).toEqual([]);
  });
});
