import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Api, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { launchBrowser, visit } from "./support/browser.ts";
import { rawMessage } from "./support/mail.ts";
import { served } from "./support/served.ts";
import { waitFor } from "./support/wait.ts";

// Sending on the owner's terms: a send asked for later answers 202 and waits
// as a scheduled draft; under an operator's send policy a send waits for a
// person, who decides on the review page (in Chromium) or the operator does.
// Held mail never reaches the SMTP server before approval, and a message is
// decided and sent once.

const ADMIN = "admin-token-approval-0123456789";
const { svc, api, x, dovecot, provider } = served({
  imap: true,
  smtp: true,
  env: { ADMIN_TOKEN: ADMIN, IMAP_POLL_INTERVAL_MS: "60000" },
});

const admin = { key: ADMIN };
const setPolicy = (agent: TestAgent, sendPolicy: string | null) =>
  api.call("PUT", `/admin/agents/${agent.id}/policy`, { ...admin, body: { sendPolicy } });
const send = (agent: TestAgent, body: object, headers: Record<string, string> = {}) =>
  api.post(`/agents/${agent.id}/send`, {
    key: agent.apiKey,
    headers,
    body: { to: "pat@example.com", subject: "Hello", text: "Hello there.", ...body },
  });
const arrivalsOf = (subject: string) => provider.deliveries.filter((d) => d.parsed.subject === subject);
const eventsOf = async (agent: TestAgent, types: string) =>
  (await api.get(`/agents/${agent.id}/events?types=${types}`, { key: agent.apiKey })).body.data as {
    type: string;
    data: Record<string, unknown>;
  }[];
const tokenOf = (reviewUrl: string) => new URL(reviewUrl).pathname.split("/")[2] as string;

async function receive(agent: TestAgent, from: string, subject: string) {
  await dovecot.append(rawMessage({ to: `${agent.id}@mail.example`, from, subject, body: "Hi." }));
  return waitFor(async () => {
    const list = await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey });
    return list.body.data.find((email: { subject: string }) => email.subject === subject) ?? null;
  });
}

describe("scheduled sends from POST /send, reply and forward", () => {
  test("answer 202 {id, status, sendAt, to, subject}, wait as a draft, and go at their time", async () => {
    const agent = await createVerifiedAgent(api, x);
    const sendAt = Date.now() + 1500;
    const subject = `Later ${agent.id}`;
    const later = await send(agent, { subject, sendAt });
    expect(later.status).toBe(202);
    expect(later.body).toEqual({
      id: expect.any(String),
      status: "scheduled",
      sendAt,
      to: ["pat@example.com"],
      subject,
    });
    const draft = await api.get(`/agents/${agent.id}/drafts/${later.body.id}`, { key: agent.apiKey });
    expect(draft.body).toMatchObject({ sendStatus: "scheduled", sendAt, subject });
    expect(arrivalsOf(subject)).toEqual([]);
    await waitFor(() => arrivalsOf(subject).length === 1 || null, 10_000, "the scheduled send");
    expect(arrivalsOf(subject)[0]?.arrivedAt).toBeGreaterThanOrEqual(sendAt);
    // A time past, or within a second, is now: 201 as ever.
    const now = await send(agent, { subject: `Now ${agent.id}`, sendAt: Date.now() - 60_000 });
    expect(now.status).toBe(201);
    const far = await send(agent, { sendAt: Date.now() + 31 * 24 * 3_600_000 });
    expect([far.status, far.body.message]).toEqual([400, "sendAt may be at most 30 days ahead"]);
  });

  test("a scheduled reply keeps its thread and headers; a scheduled forward its attachments", async () => {
    const agent = await createVerifiedAgent(api, x);
    const email = await receive(agent, "alice@sender.example", `Lunch ${agent.id}`);
    const sendAt = Date.now() + 1200;
    const reply = await api.post(`/agents/${agent.id}/emails/${email.id}/reply`, {
      key: agent.apiKey,
      body: { text: "Friday works.", sendAt },
    });
    expect(reply).toMatchObject({ status: 202, body: { status: "scheduled", subject: `Re: Lunch ${agent.id}` } });
    const draft = await api.get(`/agents/${agent.id}/drafts/${reply.body.id}`, { key: agent.apiKey });
    expect(draft.body.inReplyTo).toBe(email.id);
    const forward = await api.post(`/agents/${agent.id}/emails/${email.id}/forward`, {
      key: agent.apiKey,
      body: { to: "sam@example.com", text: "FYI", sendAt },
    });
    expect(forward).toMatchObject({ status: 202, body: { status: "scheduled", to: ["sam@example.com"] } });
    await waitFor(() => arrivalsOf(`Re: Lunch ${agent.id}`).length === 1 || null, 10_000, "the reply");
    const raw = arrivalsOf(`Re: Lunch ${agent.id}`)[0]?.raw.toString() ?? "";
    expect(raw).toMatch(/^In-Reply-To: <[^>]+>\r?$/m);
    expect(raw).toMatch(/^Auto-Submitted: auto-replied\r?$/m);
    await waitFor(() => arrivalsOf(`Fwd: Lunch ${agent.id}`).length === 1 || null, 10_000, "the forward");
    const sent = await api.get(`/agents/${agent.id}/sent`, { key: agent.apiKey });
    const threads = sent.body.data.map((s: { threadId: string }) => s.threadId);
    expect(threads).toEqual([email.threadId, email.threadId]);
  });
});

describe("the send policy", () => {
  test("is the operator's: the agent's own key cannot set it, an unknown policy is a 400", async () => {
    const agent = await createVerifiedAgent(api, x);
    const own = await api.call("PUT", `/admin/agents/${agent.id}/policy`, {
      key: agent.apiKey,
      body: { sendPolicy: "open" },
    });
    expect(own.status).toBe(403);
    const wrong = await setPolicy(agent, "whenever");
    expect([wrong.status, wrong.body.message]).toEqual([
      400,
      "sendPolicy must be open, review_new_recipients, review_all or null",
    ]);
    const set = await setPolicy(agent, "review_all");
    expect(set.body).toMatchObject({ sendPolicy: "review_all", sendPolicyOverride: "review_all" });
    const reset = await setPolicy(agent, null);
    expect(reset.body).toMatchObject({ sendPolicy: "open", sendPolicyOverride: null });
  });

  test("review_all holds a send: 202 with a review link, nothing counted or sent, the agent may read but not change it", async () => {
    const agent = await createVerifiedAgent(api, x);
    await setPolicy(agent, "review_all");
    const subject = `Held ${agent.id}`;
    const held = await send(agent, { subject });
    expect(held.status).toBe(202);
    expect(held.body).toEqual({
      id: expect.any(String),
      status: "pending_approval",
      to: ["pat@example.com"],
      subject,
      reviewUrl: expect.stringMatching(/\/review\/pr_[A-Za-z0-9_-]{43}$/),
    });
    expect(held.body.reviewUrl).not.toContain(agent.apiKey);
    const [event] = await eventsOf(agent, "email.held");
    expect(event?.data).toEqual({
      draftId: held.body.id,
      to: ["pat@example.com"],
      subject,
      reviewUrl: held.body.reviewUrl,
    });
    const quota = await api.graphql(
      "query($a: ID!) { agent(id: $a) { sendQuota { used } } }",
      { a: agent.id },
      agent.apiKey,
    );
    expect(quota.body.data.agent.sendQuota.used).toBe(0);
    const draftPath = `/agents/${agent.id}/drafts/${held.body.id}`;
    expect((await api.get(draftPath, { key: agent.apiKey })).body.sendStatus).toBe("pending_approval");
    const change = await api.call("PATCH", draftPath, { key: agent.apiKey, body: { to: "other@example.com" } });
    expect([change.status, change.body.code]).toEqual([409, "AWAITING_APPROVAL"]);
    expect((await api.post(`${draftPath}/send`, { key: agent.apiKey })).status).toBe(409);
    const listed = await api.get("/admin/held", admin);
    expect(listed.body.data.map((d: { id: string }) => d.id)).toContain(held.body.id);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(arrivalsOf(subject)).toEqual([]);
    // Withdrawn: its link is dead.
    expect((await api.delete(draftPath, { key: agent.apiKey })).status).toBe(200);
    expect((await api.get(`/review/${tokenOf(held.body.reviewUrl)}/message`)).status).toBe(404);
  });

  test("a reply, a forward and a draft's send are held alike", async () => {
    const agent = await createVerifiedAgent(api, x);
    const email = await receive(agent, "alice@sender.example", `Question ${agent.id}`);
    await setPolicy(agent, "review_all");
    const pending = {
      status: 202,
      body: { status: "pending_approval", reviewUrl: expect.stringContaining("/review/pr_") },
    };
    const base = `/agents/${agent.id}`;
    const reply = await api.post(`${base}/emails/${email.id}/reply`, { key: agent.apiKey, body: { text: "Yes." } });
    expect(reply).toMatchObject(pending);
    const forward = await api.post(`${base}/emails/${email.id}/forward`, {
      key: agent.apiKey,
      body: { to: "sam@example.com", text: "FYI" },
    });
    expect(forward).toMatchObject(pending);
    const draft = await api.post(`${base}/drafts`, {
      key: agent.apiKey,
      body: { to: "pat@example.com", subject: `Drafted ${agent.id}`, text: "Hi." },
    });
    const sent = await api.post(`${base}/drafts/${draft.body.id}/send`, { key: agent.apiKey });
    expect(sent).toMatchObject({ ...pending, body: { ...pending.body, id: draft.body.id } });
    expect((await eventsOf(agent, "email.held")).map((e) => e.data.draftId)).toEqual([
      reply.body.id,
      forward.body.id,
      draft.body.id,
    ]);
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(arrivalsOf(`Re: Question ${agent.id}`)).toEqual([]);
    expect(arrivalsOf(`Drafted ${agent.id}`)).toEqual([]);
  });

  test("approved by its link: sent once, counted then; deciding twice is 410, another link 404", async () => {
    const agent = await createVerifiedAgent(api, x);
    await setPolicy(agent, "review_all");
    const subject = `Approve me ${agent.id}`;
    const held = await send(agent, { subject, cc: "cc@example.com", bcc: "bcc@example.com" });
    const token = tokenOf(held.body.reviewUrl);
    const message = await api.get(`/review/${token}/message`);
    expect(message.body).toMatchObject({
      id: held.body.id,
      agent: { id: agent.id, email: `${agent.id}@mail.example` },
      from: `${agent.id}@mail.example`,
      to: ["pat@example.com"],
      cc: ["cc@example.com"],
      bcc: ["bcc@example.com"],
      subject,
      text: "Hello there.",
    });
    // On two instances at once, by link and by the operator: one decision.
    const other = new Api((await svc.startAnother()).url);
    const approvals = await Promise.all([
      api.post(`/review/${token}/approve`),
      other.post(`/review/${token}/approve`),
      api.post(`/admin/agents/${agent.id}/drafts/${held.body.id}/approve`, admin),
      other.post(`/review/${token}/reject`, { body: {} }),
    ]);
    expect(approvals.map((a) => a.status).sort()).toEqual([200, 410, 410, 410]);
    expect(approvals.find((a) => a.status === 200)?.body).toMatchObject({ draftId: held.body.id });
    await waitFor(() => arrivalsOf(subject).length === 1 || null, 10_000, "the approved send");
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(arrivalsOf(subject)).toHaveLength(1);
    const types = (await eventsOf(agent, "email.held,email.approved,email.sent")).map((e) => e.type);
    expect(types).toEqual(["email.held", "email.approved", "email.sent"]);
    expect((await api.post(`/review/${token}/approve`)).status).toBe(404);
    expect((await api.post(`/review/pr_${"A".repeat(43)}/approve`)).status).toBe(404);
    expect((await api.post(`/review/${agent.apiKey}/approve`)).status).toBe(404);
  });

  test("withdrawn and approved at once: either it goes once or it never goes", async () => {
    const agent = await createVerifiedAgent(api, x);
    await setPolicy(agent, "review_all");
    const subjects = [1, 2, 3, 4].map((n) => `Race ${agent.id} ${n}`);
    const outcomes = await Promise.all(
      subjects.map(async (subject) => {
        const held = await send(agent, { subject });
        const [approve, withdraw] = await Promise.all([
          api.post(`/review/${tokenOf(held.body.reviewUrl)}/approve`),
          api.delete(`/agents/${agent.id}/drafts/${held.body.id}`, { key: agent.apiKey }),
        ]);
        return { subject, approved: approve.status === 200, withdrawn: withdraw.status === 200 };
      }),
    );
    await new Promise((resolve) => setTimeout(resolve, 2500));
    for (const { subject, approved, withdrawn } of outcomes) {
      expect(approved || withdrawn, subject).toBe(true);
      // Approved first and then withdrawn before it went, or withdrawn first: never sent. Else once.
      expect(arrivalsOf(subject).length, subject).toBe(withdrawn ? 0 : 1);
    }
  });

  test("review_new_recipients holds mail to an address not heard from nor approved", async () => {
    const agent = await createVerifiedAgent(api, x);
    await setPolicy(agent, "review_new_recipients");
    await receive(agent, "Known.Friend@sender.example", `Hi ${agent.id}`);
    const known = await send(agent, { to: "known.friend@sender.example", subject: `Known ${agent.id}` });
    expect(known.status).toBe(201);
    const stranger = await send(agent, { to: "stranger@example.com", subject: `Stranger ${agent.id}` });
    expect(stranger.body.status).toBe("pending_approval");
    const mixed = await send(agent, { to: ["known.friend@sender.example", "stranger@example.com"], subject: "Mixed" });
    expect(mixed.status).toBe(202);
    const approved = await api.post(`/admin/agents/${agent.id}/drafts/${stranger.body.id}/approve`, admin);
    expect(approved.body.status).toBe("scheduled");
    await waitFor(() => arrivalsOf(`Stranger ${agent.id}`).length === 1 || null, 10_000, "the approved send");
    // Approved once, the address is known.
    expect((await send(agent, { to: "Stranger@example.com", subject: `Again ${agent.id}` })).status).toBe(201);
  });

  test("rejected by the operator with a reason: never sent, email.rejected, the draft kept as rejected", async () => {
    const agent = await createVerifiedAgent(api, x);
    await setPolicy(agent, "review_all");
    const subject = `Reject me ${agent.id}`;
    const held = await send(agent, { subject });
    const rejected = await api.post(`/admin/agents/${agent.id}/drafts/${held.body.id}/reject`, {
      ...admin,
      body: { reason: "Not to this client" },
    });
    expect(rejected.body).toEqual({
      draftId: held.body.id,
      status: "rejected",
      sendAt: null,
      reason: "Not to this client",
    });
    const again = await api.post(`/review/${tokenOf(held.body.reviewUrl)}/approve`);
    expect([again.status, again.body.code]).toEqual([410, "ALREADY_DECIDED"]);
    const draftPath = `/agents/${agent.id}/drafts/${held.body.id}`;
    const draft = await api.get(draftPath, { key: agent.apiKey });
    expect(draft.body).toMatchObject({ sendStatus: "rejected", rejectReason: "Not to this client" });
    // As it was rejected: not changed, not sent again.
    const resend = await api.post(`${draftPath}/send`, { key: agent.apiKey });
    expect([resend.status, resend.body.code]).toEqual([409, "MESSAGE_REJECTED"]);
    const change = await api.call("PATCH", draftPath, { key: agent.apiKey, body: { sendAt: null } });
    expect(change.status).toBe(409);
    const [event] = await eventsOf(agent, "email.rejected");
    expect(event?.data).toEqual({ draftId: held.body.id, reason: "Not to this client" });
    await new Promise((resolve) => setTimeout(resolve, 1500));
    expect(arrivalsOf(subject)).toEqual([]);
  });

  test("a retried held send with one Idempotency-Key is one held message, answered alike", async () => {
    const agent = await createVerifiedAgent(api, x);
    await setPolicy(agent, "review_all");
    const key = { "Idempotency-Key": `held-${agent.id}` };
    const first = await send(agent, { subject: "Once held" }, key);
    const second = await send(agent, { subject: "Once held" }, key);
    expect(second.status).toBe(202);
    expect(second.body).toEqual(first.body);
    const drafts = await api.get(`/agents/${agent.id}/drafts`, { key: agent.apiKey });
    expect(drafts.body.total).toBe(1);
  });

  test("GraphQL answers a SendResult: SentEmail, or a PendingSend with its draft", async () => {
    const agent = await createVerifiedAgent(api, x);
    await setPolicy(agent, "review_all");
    const reply = await api.graphql(
      `mutation($a: ID!, $input: SendEmailInput!) {
        sendEmail(agentId: $a, input: $input) {
          __typename ... on SentEmail { id } ... on PendingSend { status reviewUrl draft { sendStatus subject } }
        }
      }`,
      { a: agent.id, input: { to: ["pat@example.com"], subject: "Via GraphQL", text: "Hi." } },
      agent.apiKey,
    );
    expect(reply.body.data.sendEmail).toMatchObject({
      __typename: "PendingSend",
      status: "pending_approval",
      draft: { sendStatus: "pending_approval", subject: "Via GraphQL" },
    });
  });
});

describe("the review page, in Chromium", () => {
  let browser: Browser;
  let tracker: Server;
  const fetched: string[] = [];
  beforeAll(async () => {
    browser = await launchBrowser();
    tracker = createServer((request, response) => {
      fetched.push(request.url ?? "");
      response.end();
    });
    await new Promise<void>((resolve) => tracker.listen(0, "127.0.0.1", resolve));
  });
  afterAll(async () => {
    await browser?.close();
    await new Promise((resolve) => tracker?.close(resolve));
  });
  const trackerUrl = () => `http://127.0.0.1:${(tracker.address() as AddressInfo).port}`;

  test("shows the message, its HTML sandboxed with nothing loaded; Approve sends it", async () => {
    const agent = await createVerifiedAgent(api, x);
    await setPolicy(agent, "review_all");
    const subject = `Page approve ${agent.id}`;
    const held = await send(agent, {
      subject,
      text: "Plain words <b>not bold</b>.",
      html: `<p>Rich</p><img src="${trackerUrl()}/pixel.png"><script>parent.document.title="owned"</script>`,
      attachments: [{ filename: "plan.txt", content: Buffer.from("step one").toString("base64") }],
    });
    const shown = await visit(browser, `${svc.url}/review/${tokenOf(held.body.reviewUrl)}`, [trackerUrl()]);
    try {
      const { page } = shown;
      await page.getByRole("heading", { name: /Review a message from/ }).waitFor({ timeout: 5000 });
      const text = await page.locator("main").innerText();
      expect(text).toContain(subject);
      expect(text).toContain("pat@example.com");
      expect(text).toContain("Plain words <b>not bold</b>.");
      expect(text).toContain("plan.txt (8 bytes)");
      await page.getByText("Show the HTML").click({ timeout: 5000 });
      expect(await page.locator("iframe").getAttribute("sandbox")).toBe("");
      await page.waitForTimeout(500);
      expect(await page.title()).not.toBe("owned");
      // By keyboard: a mouse click right after Playwright scrolls past the sandboxed frame can land in the
      // frame, whose hit-test region Chromium moves a moment later (it runs out of process). The reject
      // test below clicks with the mouse.
      await page.getByRole("button", { name: "Approve and send" }).press("Enter");
      await page.getByRole("heading", { name: "Approved" }).waitFor({ timeout: 5000 });
      await shown.screenshot("review-approved");
      expect(shown.blocked).toEqual([]);
      expect(fetched).toEqual([]);
    } finally {
      await shown.close();
    }
    await waitFor(() => arrivalsOf(subject).length === 1 || null, 10_000, "the approved send");
  });

  test("Reject with a reason: the agent hears it, nothing is sent; the link then says it was decided", async () => {
    const agent = await createVerifiedAgent(api, x);
    await setPolicy(agent, "review_all");
    const subject = `Page reject ${agent.id}`;
    const held = await send(agent, { subject });
    const shown = await visit(browser, `${svc.url}/review/${tokenOf(held.body.reviewUrl)}`);
    try {
      const { page } = shown;
      await page.getByLabel(/Reason/).fill("Wrong tone");
      await page.getByRole("button", { name: "Reject" }).click();
      await page.getByRole("heading", { name: "Rejected" }).waitFor();
      expect(await page.locator("#result-text").innerText()).toContain("Wrong tone");
      expect(shown.errors).toEqual([]);
    } finally {
      await shown.close();
    }
    const again = await api.get(`/review/${tokenOf(held.body.reviewUrl)}`, { headers: { accept: "text/html" } });
    expect(again.status).toBe(410);
    expect(again.text).toContain("already rejected");
    const [event] = await eventsOf(agent, "email.rejected");
    expect(event?.data.reason).toBe("Wrong tone");
    expect(arrivalsOf(subject)).toEqual([]);
  });
});

describe("a held message nobody decides", () => {
  test("is rejected as expired after APPROVAL_TIMEOUT_HOURS (72): its link answers 410", async () => {
    const agent = await createVerifiedAgent(api, x);
    await setPolicy(agent, "review_all");
    const held = await send(agent, { subject: `Expires ${agent.id}` });
    svc.clock.advance(73 * 3_600_000);
    const page = await api.get(`/review/${tokenOf(held.body.reviewUrl)}`, { headers: { accept: "text/html" } });
    expect(page.status).toBe(410);
    expect(page.text).toContain("expired");
    const draft = await api.get(`/agents/${agent.id}/drafts/${held.body.id}`, { key: agent.apiKey });
    expect(draft.body).toMatchObject({ sendStatus: "rejected", rejectReason: "expired" });
    const [event] = await eventsOf(agent, "email.rejected");
    expect(event?.data).toEqual({ draftId: held.body.id, reason: "expired" });
  });
});
