import { expect, test } from "vitest";
import { publishPost, uniqueAuthor, uniqueId } from "./support/api.ts";
import { served } from "./support/served.ts";

// WIRE_NAMES=clawmail: the REST layer answers with ClawMail's names where the
// spec has neutral ones, as a client written for clawmail.to reads them;
// GraphQL keeps the neutral names.

const { api, x } = served({
  smtp: true,
  env: { MAIL_DOMAIN: "clawmail.example", WIRE_NAMES: "clawmail", DAILY_SEND_LIMIT: "1" },
});

async function register() {
  const id = uniqueId();
  const reply = await api.post("/agents", { body: { id, name: "Claw" } });
  expect(reply.status).toBe(201);
  return { id, apiKey: reply.body.apiKey as string };
}

test("keys, verification, sent mail and codes under ClawMail's names; nothing else changes", async () => {
  const agent = await register();
  expect(agent.apiKey).toMatch(/^cmail_[A-Za-z0-9_-]{43}$/);
  const start = await api.post("/verify/start", { key: agent.apiKey });
  expect(Object.keys(start.body)).toEqual(["verificationCode", "expiresAt", "tweetText", "twitterIntentUrl"]);
  const author = uniqueAuthor();
  const tweetUrl = publishPost(x, author, start.body.tweetText);
  const done = await api.post("/verify/complete", { key: agent.apiKey, body: { tweetUrl } });
  expect(done.body).toEqual({ success: true, verifiedAt: expect.any(Number), twitterUsername: author });

  const sent = await api.post(`/agents/${agent.id}/send`, {
    key: agent.apiKey,
    body: { to: "pat@example.com", subject: "Hi", text: "Hello." },
  });
  expect(sent.status).toBe(201);
  const list = await api.get(`/agents/${agent.id}/sent`, { key: agent.apiKey });
  expect(list.body.data[0]).toHaveProperty("resendId", expect.any(String));
  expect(list.body.data[0]).not.toHaveProperty("providerId");
  // The daily limit's refusal in ClawMail's words, which its clients compare.
  const over = await api.post(`/agents/${agent.id}/send`, {
    key: agent.apiKey,
    body: { to: "pat@example.com", subject: "Again", text: "Hello." },
  });
  expect(over.status).toBe(429);
  expect(over.body).toMatchObject({ error: "Rate Limit Exceeded", code: "DAILY_SEND_LIMIT_EXCEEDED", statusCode: 429 });

  const second = await register();
  const again = await api.post("/verify/start", { key: second.apiKey });
  const reused = publishPost(x, author, again.body.tweetText);
  const refused = await api.post("/verify/complete", { key: second.apiKey, body: { tweetUrl: reused } });
  expect(refused.body).toEqual({
    error: "Bad Request",
    statusCode: 400,
    message: expect.stringContaining("already verified another agent"),
    code: "TWITTER_ALREADY_USED",
  });
});

test("GraphQL keeps the neutral names", async () => {
  const agent = await register();
  const reply = await api.graphql("mutation { startVerification { socialIntentUrl } }", {}, agent.apiKey);
  expect(reply.body.data.startVerification.socialIntentUrl).toMatch(/^https:\/\/twitter\.com\/intent\/tweet\?/);
});
