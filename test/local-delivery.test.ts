import { describe, expect, test } from "vitest";
import { type Api, createAgent, type TestAgent } from "./support/api.ts";
import { served } from "./support/served.ts";
import { waitFor } from "./support/wait.ts";

// Mail between agents of one instance, with the default MAIL_DOMAIN and no
// mail server at all: filed at once through the filing rules, counted on
// both sides, and never handed to a provider; beside a provider, only the
// recipients elsewhere go to it.

const TOKEN = "local-delivery-admin-token-0123456789";
const alone = served({ env: { MAIL_DOMAIN: "localhost", VERIFICATION_MODE: "none", ADMIN_TOKEN: TOKEN } });
const beside = served({ smtp: true, env: { MAIL_DOMAIN: "localhost", VERIFICATION_MODE: "none" } });

const send = (api: Api, from: TestAgent, body: unknown, headers: Record<string, string> = {}) =>
  api.post(`/agents/${from.id}/send`, { key: from.apiKey, body, headers });
const inboxOf = async (api: Api, agent: TestAgent) =>
  (await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.data as Record<string, unknown>[];
const sentOf = async (api: Api, agent: TestAgent, id: string) =>
  (await api.get(`/agents/${agent.id}/sent/${id}`, { key: agent.apiKey })).body;
const usage = async (api: Api, agent: TestAgent) =>
  (
    await api.graphql(
      `query($id: ID!) { agent(id: $id) { storageUsed sendQuota { used } } }`,
      { id: agent.id },
      agent.apiKey,
    )
  ).body.data.agent;

describe("with no mail server", () => {
  const { api } = alone;

  test("two agents write to each other: filed at once, a thread on both sides, counted as sent and as received", async () => {
    const [scout, ranger] = [await createAgent(api), await createAgent(api)];
    const first = await send(api, scout, { to: `${ranger.id}@localhost`, subject: "Camp", text: "North ridge?" });
    expect(first.status).toBe(201);
    expect(await sentOf(api, scout, first.body.id)).toMatchObject({
      providerId: "local",
      deliveryStatus: "delivered",
      deliveries: [{ recipient: `${ranger.id}@localhost`, status: "delivered" }],
    });
    const [received] = await inboxOf(api, ranger);
    expect(received).toMatchObject({ from: { address: `${scout.id}@localhost` }, subject: "Camp" });

    const reply = await api.post(`/agents/${ranger.id}/emails/${received?.id}/reply`, {
      key: ranger.apiKey,
      body: { text: "Yes, at dawn." },
    });
    expect(reply.status).toBe(201);
    const [answer] = await inboxOf(api, scout);
    expect(answer).toMatchObject({ from: { address: `${ranger.id}@localhost` }, subject: "Re: Camp" });
    expect(answer?.threadId).toBe(first.body.threadId);
    expect(reply.body.threadId).toBe(received?.threadId);

    const [sender, recipient] = [await usage(api, scout), await usage(api, ranger)];
    expect(sender.sendQuota.used).toBe(1);
    expect(recipient.sendQuota.used).toBe(1);
    expect(sender.storageUsed).toBeGreaterThan(0);
    expect(recipient.storageUsed).toBeGreaterThan(0);
  });

  test("sent again with the same Idempotency-Key: filed once", async () => {
    const [scout, ranger] = [await createAgent(api), await createAgent(api)];
    const body = { to: `${ranger.id}@localhost`, subject: "Once", text: "Only once." };
    const headers = { "idempotency-key": "local-once" };
    const [first, again] = [await send(api, scout, body, headers), await send(api, scout, body, headers)];
    expect(again.body.id).toBe(first.body.id);
    expect(await inboxOf(api, ranger)).toHaveLength(1);
    expect((await usage(api, scout)).sendQuota.used).toBe(1);
  });

  test("an address here that no agent has is refused whole, before anything is taken", async () => {
    const [scout, ranger] = [await createAgent(api), await createAgent(api)];
    const reply = await send(api, scout, {
      to: [`${ranger.id}@localhost`, "nobody@localhost"],
      subject: "Hello",
      text: "Anyone?",
    });
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({
      code: "NO_SUCH_MAILBOX",
      recipients: ["nobody@localhost"],
      message: "No mailbox here for nobody@localhost: no verified agent of this instance has that address",
    });
    expect(await inboxOf(api, ranger)).toHaveLength(0);
    expect((await usage(api, scout)).sendQuota.used).toBe(0);
  });

  test("the recipient's mailbox full: sent, and bounced for that recipient with the reason", async () => {
    const [scout, ranger] = [await createAgent(api), await createAgent(api)];
    const limits = await api.call("PUT", `/admin/agents/${ranger.id}/limits`, {
      key: TOKEN,
      body: { storageLimit: 10 },
    });
    expect(limits.status).toBe(200);
    const reply = await send(api, scout, { to: `${ranger.id}@localhost`, subject: "Full?", text: "Room?" });
    expect(reply.status).toBe(201);
    expect(await sentOf(api, scout, reply.body.id)).toMatchObject({
      providerId: "local",
      deliveryStatus: "bounced",
      deliveries: [
        {
          recipient: `${ranger.id}@localhost`,
          status: "bounced",
          statusCode: "5.2.2",
          diagnosticCode: "smtp; 552 5.2.2 The recipient's mailbox is full",
        },
      ],
    });
    expect(await inboxOf(api, ranger)).toHaveLength(0);
  });

  test("a send policy holds it first: filed only once the operator approves", async () => {
    const [scout, ranger] = [await createAgent(api), await createAgent(api)];
    const policy = await api.call("PUT", `/admin/agents/${scout.id}/policy`, {
      key: TOKEN,
      body: { sendPolicy: "review_all" },
    });
    expect(policy.status).toBe(200);
    const held = await send(api, scout, { to: `${ranger.id}@localhost`, subject: "Held", text: "Wait for it." });
    expect(held.status).toBe(202);
    expect(await inboxOf(api, ranger)).toHaveLength(0);
    const approved = await api.post(`/admin/agents/${scout.id}/drafts/${held.body.id}/approve`, { key: TOKEN });
    expect(approved.status).toBe(200);
    // Approved, it is scheduled for now: the scheduled-send job sends it.
    const [filed] = await waitFor(async () => {
      const inbox = await inboxOf(api, ranger);
      return inbox.length > 0 ? inbox : null;
    });
    expect(filed).toMatchObject({ subject: "Held" });
  });

  test("mail to another domain answers 503: sending out is not configured", async () => {
    const scout = await createAgent(api);
    const reply = await send(api, scout, { to: "someone@example.com", subject: "Out", text: "Hi" });
    expect(reply.status).toBe(503);
  });
});

describe("beside a provider", () => {
  const { api, provider } = beside;

  test("a mixed list: the agent here gets it filed, only the address elsewhere goes to the provider", async () => {
    const [scout, ranger] = [await createAgent(api), await createAgent(api)];
    const reply = await send(api, scout, {
      to: [`${ranger.id}@localhost`, "friend@example.com"],
      subject: "Mixed",
      text: "Both of you.",
    });
    expect(reply.status).toBe(201);
    const delivery = provider.deliveries.find((d) => d.to.includes("friend@example.com"));
    expect(delivery?.to).toEqual(["friend@example.com"]);
    expect(provider.deliveries.some((d) => d.to.includes(`${ranger.id}@localhost`))).toBe(false);
    expect(await inboxOf(api, ranger)).toMatchObject([{ subject: "Mixed" }]);
    expect(await sentOf(api, scout, reply.body.id)).toMatchObject({
      providerId: expect.stringMatching(/^Q\d+$/),
      deliveries: [{ recipient: `${ranger.id}@localhost`, status: "delivered" }],
    });
  });
});
