import { randomBytes } from "node:crypto";
import { Webhook } from "standardwebhooks";
import { expect, test } from "vitest";
import { isWebhookSecret, signedHeaders, statusProblem } from "./webhooks.ts";

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
