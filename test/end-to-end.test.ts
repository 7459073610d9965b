import { expect, test } from "vitest";
import { Api, createVerifiedAgent } from "./support/api.ts";
import { inboxOf } from "./support/inbox.ts";
import { served } from "./support/served.ts";

// Agent A sends to agent B's address on the same instance: the message is
// filed in B's inbox at once, as mail from elsewhere is filed, and the
// provider beside the service is never asked.

const { svc, x, provider } = served({ smtp: true });

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
  expect(email).toMatchObject({
    agentId: b.id,
    from: { address: `${a.id}@mail.example`, name: `Agent ${a.id}` },
    to: `${b.id}@mail.example`,
    subject: "Hello B",
    bodyText: "From A, with love.",
    bodyHtml: "<p>From A</p>",
    messageId: expect.stringMatching(/^<[^@<>]+@mail\.example>$/),
    folder: "inbox",
  });
  expect(record).toMatchObject({ subject: "Hello B", providerId: "local" });
  expect(provider.deliveries).toEqual([]);
});
