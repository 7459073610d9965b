import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { expect, test } from "vitest";
import { isWebhookSecret, postWebhook, signedHeaders, statusProblem } from "./webhooks.ts";

test("a secret is whsec_ and 24-64 random bytes in base64, as Standard Webhooks libraries take it", () => {
  expect(isWebhookSecret(`whsec_${randomBytes(24).toString("base64")}`)).toBe(true);
  expect(isWebhookSecret(`whsec_${randomBytes(64).toString("base64")}`)).toBe(true);
  expect(isWebhookSecret(`whsec_${randomBytes(23).toString("base64")}`)).toBe(false);
  expect(isWebhookSecret(`whsec_${randomBytes(65).toString("base64")}`)).toBe(false);
  expect(isWebhookSecret(randomBytes(32).toString("base64"))).toBe(false);
  expect(isWebhookSecret("whsec_not base64 at all!")).toBe(false);
});

test("signed headers verify with the secret, for that message, time and body only", () => {
  const secret = `whsec_${randomBytes(32).toString("base64")}`;
  const body = JSON.stringify({ type: "email.held" });
  const headers = signedHeaders("msg_1", secret, new Date(), body);
  expect(new Webhook(secret).verify(body, headers)).toEqual({ type: "email.held" });
  expect(() => new Webhook(secret).verify(`${body} `, headers)).toThrow();
  expect([statusProblem(204), statusProblem(302), statusProblem(500)]).toEqual([
    null,
    "HTTP 302: redirects are not followed",
    "HTTP 500",
  ]);
});

test("a name with a private address and one with none are refused in the same words, naming no address", async () => {
  const post = (url: string) =>
    postWebhook({
      url,
      headers: {},
      body: "{}",
      allowPrivate: false,
      timeoutMs: 10_000,
      signal: new AbortController().signal,
    });
  await expect(post("https://localhost/hook")).rejects.toThrow(/^localhost has no public address$/);
  // RFC 6761: no resolver answers a name under .invalid.
  await expect(post("https://no-such-host.invalid/hook")).rejects.toThrow(
    /^no-such-host\.invalid has no public address$/,
  );
});
