import type { Browser } from "playwright-core";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { publishPost, uniqueAuthor, uniqueId } from "./support/api.ts";
import { launchBrowser, visit } from "./support/browser.ts";
import { served } from "./support/served.ts";

// The verification link a person opens: a claim token that is not the key,
// a self-contained page, and JSON endpoints scoped to the token that share
// /verify/start and /verify/complete. Then the whole walk in Chromium.

const { svc, api, x } = served();

interface Registered {
  id: string;
  apiKey: string;
  token: string;
}

async function register(name = "Scout"): Promise<Registered> {
  const id = uniqueId();
  const reply = await api.post("/agents", { body: { id, name } });
  expect(reply.status).toBe(201);
  const token = /\/verify\/(pv_[A-Za-z0-9_-]{43})$/.exec(reply.body.verifyUrl)?.[1] as string;
  expect(token).toBeDefined();
  return { id, apiKey: reply.body.apiKey, token };
}

const page = (token: string) => api.get(`/verify/${token}`, { headers: { accept: "text/html" } });

describe("the claim token", () => {
  test("starts and completes verification without the key, as /verify/start and /verify/complete do", async () => {
    const agent = await register();
    expect((await api.get(`/agents/${agent.id}`, { key: agent.apiKey })).status).toBe(403);
    const start = await api.post(`/verify/${agent.token}/start`);
    expect(start.status).toBe(200);
    expect(Object.keys(start.body)).toEqual(["verificationCode", "expiresAt", "tweetText", "socialIntentUrl"]);
    const status = await api.get("/verify/status", { key: agent.apiKey });
    expect(status.body).toMatchObject({ verified: false, hasActiveCode: true });
    const author = uniqueAuthor();
    const tweetUrl = publishPost(x, author, start.body.tweetText);
    const done = await api.post(`/verify/${agent.token}/complete`, { body: { tweetUrl } });
    expect(done).toMatchObject({ status: 200, body: { success: true, socialUsername: author } });
    expect((await api.get(`/agents/${agent.id}`, { key: agent.apiKey })).status).toBe(200);
  });

  test("can do nothing else: not a key, not another agent's verification, and spent once verified", async () => {
    const agent = await register();
    expect((await api.get(`/agents/${agent.id}`, { key: agent.token })).status).toBe(401);
    expect((await api.post("/verify/start", { key: agent.token })).status).toBe(401);
    const other = await register();
    await api.post(`/verify/${agent.token}/start`);
    expect((await api.get("/verify/status", { key: other.apiKey })).body.hasActiveCode).toBe(false);
    const start = await api.post(`/verify/${agent.token}/start`);
    const tweetUrl = publishPost(x, uniqueAuthor(), start.body.tweetText);
    await api.post(`/verify/${agent.token}/complete`, { body: { tweetUrl } });
    // A used link's endpoints answer as its page does: 410.
    const gone = {
      status: 410,
      body: { error: "Gone", statusCode: 410, message: expect.stringContaining("been used") },
    };
    expect(await api.post(`/verify/${agent.token}/start`)).toMatchObject(gone);
    expect(await api.post(`/verify/${agent.token}/complete`, { body: { tweetUrl } })).toMatchObject(gone);
    const late = await register();
    svc.clock.advance(24 * 60 * 60 * 1000);
    expect(await api.post(`/verify/${late.token}/start`)).toMatchObject({
      status: 410,
      body: { message: expect.stringContaining("expired") },
    });
  });

  test("an unknown token is 404 in the spec's shape; the same mistakes as /verify/complete are refused alike", async () => {
    const unknown = await api.post(`/verify/pv_${"A".repeat(43)}/start`);
    expect(unknown).toMatchObject({ status: 404, body: { error: "Not Found", statusCode: 404 } });
    expect((await api.post("/verify/not-a-token/start")).status).toBe(404);
    const agent = await register();
    const early = await api.post(`/verify/${agent.token}/complete`, { body: { tweetUrl: "https://x.com/a/status/1" } });
    const viaKey = await api.post("/verify/complete", {
      key: agent.apiKey,
      body: { tweetUrl: "https://x.com/a/status/1" },
    });
    expect(early.status).toBe(400);
    expect(early.body).toEqual(viaKey.body);
    const missing = await api.post(`/verify/${agent.token}/complete`, { body: {} });
    expect(missing).toMatchObject({ status: 400, body: { message: "tweetUrl is required" } });
  });

  test("survives a key rotation, dies with the agent; GraphQL answers verifyUrl too", async () => {
    const agent = await register();
    const rotated = await api.post(`/agents/${agent.id}/rotate-key`, { key: agent.apiKey });
    expect((await api.post(`/verify/${agent.token}/start`)).status).toBe(200);
    await api.delete(`/agents/${agent.id}`, { key: rotated.body.apiKey });
    expect((await api.post(`/verify/${agent.token}/start`)).status).toBe(404);
    expect((await page(agent.token)).status).toBe(404);
    const created = await api.graphql(
      `mutation($input: CreateAgentInput!) { createAgent(input: $input) { verifyUrl apiKey } }`,
      { input: { id: uniqueId(), name: "Via GraphQL" } },
    );
    expect(created.body.data.createAgent.verifyUrl).toMatch(/\/verify\/pv_[A-Za-z0-9_-]{43}$/);
  });
});

describe("the page", () => {
  test("self-contained under a nonce policy, names the agent, never stored by a browser or proxy", async () => {
    const agent = await register(`Scout & Co's "bot"`);
    const reply = await page(agent.token);
    expect(reply.status).toBe(200);
    expect(reply.headers.get("content-type")).toBe("text/html; charset=utf-8");
    expect(reply.headers.get("cache-control")).toBe("no-store");
    expect(reply.headers.get("referrer-policy")).toBe("no-referrer");
    const policy = reply.headers.get("content-security-policy") ?? "";
    const nonce = /script-src 'nonce-([^']+)'/.exec(policy)?.[1];
    expect(policy).toContain("default-src 'none'");
    expect(policy).not.toMatch(/https?:|\*|unsafe/);
    expect(reply.text).toContain(`<script nonce="${nonce}">`);
    expect(reply.text).toContain(`<style nonce="${nonce}">`);
    expect(reply.text).toContain("Scout &amp; Co&#39;s &quot;bot&quot;");
    expect(reply.text).toContain(`${agent.id}@mail.example`);
    expect(reply.text).not.toMatch(/<(?:script|link|img)[^>]+(?:src|href)=/);
    expect(reply.text).not.toContain(agent.apiKey);
  });

  test("unknown, mistyped, used and expired links get a page that says so: 404 and 410", async () => {
    const unknown = await page(`pv_${"B".repeat(43)}`);
    expect(unknown.status).toBe(404);
    expect(unknown.text).toContain("Link not found");
    expect((await page("whatever")).status).toBe(404);
    const wrongMethod = await page("start");
    expect([wrongMethod.status, wrongMethod.body.error]).toEqual([405, "Method Not Allowed"]);
    const used = await register();
    const start = await api.post(`/verify/${used.token}/start`);
    const author = uniqueAuthor();
    await api.post(`/verify/${used.token}/complete`, {
      body: { tweetUrl: publishPost(x, author, start.body.tweetText) },
    });
    const spent = await page(used.token);
    expect(spent.status).toBe(410);
    expect(spent.text).toContain(`already verified by @${author.toLowerCase()}`);
    const late = await register();
    svc.clock.advance(24 * 60 * 60 * 1000);
    const expired = await page(late.token);
    expect(expired.status).toBe(410);
    expect(expired.text).toContain("This link has expired");
    expect(expired.text).not.toMatch(/at \w+ \(|node_modules|Error:/);
  });
});

describe("in Chromium, as the person would", () => {
  let browser: Browser;
  beforeAll(async () => {
    browser = await launchBrowser();
  });
  afterAll(async () => {
    await browser?.close();
  });

  test("get a code, post it, paste a wrong post (error), paste the right one (verified); the key then works", async () => {
    const agent = await register("Scout");
    const { page: tab, blocked, errors, screenshot, close } = await visit(browser, `${svc.url}/verify/${agent.token}`);
    try {
      await tab.setViewportSize({ width: 390, height: 844 });
      await tab.getByRole("heading", { name: "Verify Scout" }).waitFor();
      await screenshot("verify-page-start");
      // Focus order: the one button first.
      await tab.keyboard.press("Tab");
      expect(await tab.evaluate(() => document.activeElement?.id)).toBe("start");
      await tab.keyboard.press("Enter");
      await tab.getByRole("heading", { name: "1. Post this on X" }).waitFor();
      const code = (await tab.locator("#code").innerText()).trim();
      const postText = await tab.locator("#post-text").innerText();
      expect(postText).toContain(code);
      const intent = new URL((await tab.getByRole("link", { name: "Post on X" }).getAttribute("href")) ?? "");
      expect(intent.searchParams.get("text")).toBe(postText);

      await tab.getByLabel("Address of your post").fill("https://example.com/not-a-post");
      await tab.getByRole("button", { name: "Verify", exact: true }).click();
      await tab.getByRole("heading", { name: "Not verified yet" }).waitFor();
      const notAPost = await tab.locator("#problem-text").innerText();
      expect(notAPost).toMatch(/^The post's address must be the URL of a post/);
      expect(notAPost).not.toContain("tweetUrl");

      const author = uniqueAuthor();
      const wrong = publishPost(x, author, "Hello @pigeonhole, no code here");
      await tab.getByLabel("Address of your post").fill(wrong);
      await tab.getByRole("button", { name: "Verify", exact: true }).click();
      // The heading still shows from the first refusal: wait for the new answer's text itself.
      const noCode = `does not contain the verification code ${code}`;
      await tab.locator("#problem-text", { hasText: noCode }).waitFor();
      expect(await tab.locator("#problem-text").innerText()).toContain(noCode);
      await screenshot("verify-page-error");

      const right = publishPost(x, author, postText);
      await tab.getByLabel("Address of your post").fill(right);
      await tab.getByRole("button", { name: "Verify", exact: true }).click();
      await tab.getByRole("heading", { name: "Verified", exact: true }).waitFor();
      expect(await tab.locator("#who").innerText()).toBe(`@${author}`);
      expect(await tab.evaluate(() => document.activeElement?.id)).toBe("result-title");
      await screenshot("verify-page-verified");
      expect(blocked).toEqual([]);
      // Chromium reports the refused post's 400 on the console; nothing else may appear there.
      expect(errors.filter((error) => !error.includes("status of 400"))).toEqual([]);
    } finally {
      await close();
    }
    expect((await api.get(`/agents/${agent.id}`, { key: agent.apiKey })).status).toBe(200);
  });
});
