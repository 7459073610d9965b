import { expect, test } from "vitest";
import { Api, createVerifiedAgent } from "./support/api.ts";
import { inboxOf } from "./support/inbox.ts";
import { served } from "./support/served.ts";

// Agent A sends to agent B's address: the provider hands the message to the
// catch-all, as the receiving MX would (recording the envelope recipient),
// the poller files it, and B reads it.

const { svc, x, provider } = served({
  imap: true,
  smtp: true,
  wire: ({ provider, dovecot }) => {
    provider.relay = async ({ to, raw }) => {
      for (const rcpt of to) await dovecot.append(`X-Original-To: ${rcpt}\r\n${raw.toString()}`);
    };
  },
});

test("a message from one agent arrives in another's inbox with its sender and Message-ID", async () => {
  const api = new Api(svc.url);
  const [a, b] = [await createVerifiedAgent(api, x), await createVerifiedAgent(api, x)];
  const sent = await api.post(`/agents/${a.id}/send`, {
    key: a.apiKey,
    body: { to: `${b.id}@mail.example`, subject: "Hello B", text: "From A, with love.", html: "<p>From A</p>" },
  });
  expect(sent.status).toBe(201);
  const [email] = (await inboxOf(api, b, 1)).body.data;
  const [record] = (await api.get(`/agents/${a.id}/sent`, { key: a.apiKey })).body.data;
  const messageId = provider.deliveries.at(-1)?.parsed.messageId;
  expect(email).toMatchObject({
    agentId: b.id,
    from: { address: `${a.id}@mail.example`, name: `Agent ${a.id}` },
    to: `${b.id}@mail.example`,
    subject: "Hello B",
    bodyText: "From A, with love.",
    bodyHtml: "<p>From A</p>",
    messageId,
    folder: "inbox",
  });
  expect(record.subject).toBe("Hello B");
});
