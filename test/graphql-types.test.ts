import { expect, test } from "vitest";
import { createAgent, createVerifiedAgent } from "./support/api.ts";
import { served } from "./support/served.ts";

// GraphQL as a typed client reads it: `me` for the key's agent, lookups by id
// that answer null for what is missing without wiping their siblings, and
// closed sets as enums whose values are the words REST answers.

const TOKEN = "admin-token-for-tests-0123456789";
const { api, x } = served({ env: { ADMIN_TOKEN: TOKEN } });

/** Each error as its path and code, in a stable order. */
const failures = (errors: { path: (string | number)[]; extensions: { code: string } }[]) =>
  errors.map((error) => [error.path.join("."), error.extensions.code]).sort();

test("me is the key's agent; without a key, or unverified, it is null with the error and its siblings stand", async () => {
  const agent = await createVerifiedAgent(api, x);
  const mine = await api.graphql("{ me { id email verified } domains }", {}, agent.apiKey);
  expect(mine.body).toEqual({
    data: { me: { id: agent.id, email: `${agent.id}@mail.example`, verified: true }, domains: ["mail.example"] },
  });

  const anonymous = await api.graphql("{ me { id } domains }");
  expect(anonymous.body.data).toEqual({ me: null, domains: ["mail.example"] });
  expect(failures(anonymous.body.errors)).toEqual([["me", "UNAUTHORIZED"]]);

  const fresh = await createAgent(api);
  const unverified = await api.graphql("{ me { id } verificationStatus { verified } }", {}, fresh.apiKey);
  expect(unverified.body.data).toEqual({ me: null, verificationStatus: { verified: false } });
  expect(failures(unverified.body.errors)).toEqual([["me", "NOT_VERIFIED"]]);
});

test("a lookup by id of what is missing is null with NOT_FOUND at its path; its siblings stand", async () => {
  const agent = await createVerifiedAgent(api, x);
  const reply = await api.graphql(
    `query($a: ID!) {
      thread(agentId: $a, threadId: "nope") { id }
      email(agentId: $a, emailId: "nope") { id }
      webhook(agentId: $a, webhookId: "nope") { id }
      agent(id: $a) { id draft(id: "nope") { id } sentEmail(id: "nope") { id } }
      me { id }
    }`,
    { a: agent.id },
    agent.apiKey,
  );
  expect(reply.body.data).toEqual({
    thread: null,
    email: null,
    webhook: null,
    agent: { id: agent.id, draft: null, sentEmail: null },
    me: { id: agent.id },
  });
  expect(failures(reply.body.errors)).toEqual([
    ["agent.draft", "NOT_FOUND"],
    ["agent.sentEmail", "NOT_FOUND"],
    ["email", "NOT_FOUND"],
    ["thread", "NOT_FOUND"],
    ["webhook", "NOT_FOUND"],
  ]);

  const operator = await api.graphql('{ admin { agent(id: "nope") { id } stats { agents } } }', {}, TOKEN);
  expect(operator.body.data).toEqual({ admin: { agent: null, stats: { agents: expect.any(Number) } } });
  expect(failures(operator.body.errors)).toEqual([["admin.agent", "NOT_FOUND"]]);
});

test("REST still answers a missing one 404 in the spec's shape", async () => {
  const agent = await createVerifiedAgent(api, x);
  const paths = ["threads", "emails", "webhooks", "drafts", "sent"].map((area) => `/agents/${agent.id}/${area}/nope`);
  for (const path of paths) {
    const reply = await api.get(path, { key: agent.apiKey });
    expect([path, reply.status, reply.body]).toEqual([
      path,
      404,
      { error: "Not Found", statusCode: 404, message: expect.any(String) },
    ]);
  }
  const operator = await api.get("/admin/agents/nope", { key: TOKEN });
  expect([operator.status, operator.body.statusCode]).toEqual([404, 404]);
});

test("closed sets are enums, their values the words REST answers", async () => {
  const reply = await api.graphql(
    `{ __schema { types { name kind enumValues { name } } } }`,
    {},
    (await createVerifiedAgent(api, x)).apiKey,
  );
  const enums = Object.fromEntries(
    (reply.body.data.__schema.types as { name: string; kind: string; enumValues: { name: string }[] | null }[])
      .filter((type) => type.kind === "ENUM" && !type.name.startsWith("__"))
      .map((type) => [type.name, type.enumValues?.map((value) => value.name).sort()]),
  );
  expect(enums).toMatchObject({
    SendStatus: ["draft", "failed", "pending_approval", "rejected", "scheduled"],
    DeliveryStatus: ["bounced", "complained", "delayed", "delivered", "sent"],
    Direction: ["received", "sent"],
    AutoSubmitted: ["auto_generated", "auto_replied", "list"],
    WebhookDeliveryStatus: ["delivered", "given_up", "pending"],
  });
  // The operator's types are shown to the operator only (SendPolicy is a pod's key's too, in its pod's policy).
  expect(enums).toHaveProperty("SendPolicy");
  expect(enums).not.toHaveProperty("ScreeningPolicy");
});
