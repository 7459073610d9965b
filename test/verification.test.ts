import { describe, expect, test } from "vitest";
import { Api, createAgent, publishPost, type TestAgent, uniqueAuthor, verifyAgent } from "./support/api.ts";
import { embedHtml } from "./support/oembed-server.ts";
import { served } from "./support/served.ts";
import { withService } from "./support/service.ts";

const { svc, api, x } = served();

const MINUTE = 60_000;

async function started(agent?: TestAgent) {
  const a = agent ?? (await createAgent(api));
  const start = await api.post("/verify/start", { key: a.apiKey });
  expect(start.status).toBe(200);
  return { agent: a, code: start.body.verificationCode as string, tweetText: start.body.tweetText as string };
}

function complete(agent: TestAgent, tweetUrl: unknown) {
  return api.post("/verify/complete", { key: agent.apiKey, body: { tweetUrl } });
}

function expectError(reply: { status: number; body: unknown }, status: number, error: string, code?: string) {
  expect(reply.status).toBe(status);
  expect(reply.body).toEqual({ error, statusCode: status, message: expect.any(String), ...(code ? { code } : {}) });
}

describe("POST /verify/start", () => {
  test("issues a code valid 15 minutes with a ready-made post and intent link", async () => {
    const agent = await createAgent(api);
    const before = svc.clock.now().getTime();
    const reply = await api.post("/verify/start", { key: agent.apiKey });
    expect(reply.status).toBe(200);
    expect(Object.keys(reply.body)).toEqual(["verificationCode", "expiresAt", "tweetText", "socialIntentUrl"]);
    const { verificationCode, expiresAt, tweetText, socialIntentUrl } = reply.body;
    expect(verificationCode).toMatch(/^PIGEON-[ABCDEFGHJKMNPQRSTUVWXYZ23456789]{6}$/);
    expect(expiresAt - before).toBeGreaterThanOrEqual(15 * MINUTE);
    expect(expiresAt - before).toBeLessThan(15 * MINUTE + 5000);
    expect(tweetText).toContain("@pigeonhole");
    expect(tweetText).toContain(verificationCode);
    expect(tweetText).toContain(`${agent.id}@mail.example`);
    const intent = new URL(socialIntentUrl);
    expect(`${intent.origin}${intent.pathname}`).toBe("https://twitter.com/intent/tweet");
    expect(intent.searchParams.get("text")).toBe(tweetText);
  });

  test("starting again replaces the earlier code", async () => {
    const first = await started();
    const second = await started(first.agent);
    expect(second.code).not.toBe(first.code);
    const old = await complete(first.agent, publishPost(x, uniqueAuthor(), first.tweetText));
    expectError(old, 400, "Bad Request", "INVALID_TWEET");
    const fresh = await complete(first.agent, publishPost(x, uniqueAuthor(), second.tweetText));
    expect(fresh.status).toBe(200);
  });

  test("400 for an agent already verified, 401 without a key", async () => {
    const agent = await createAgent(api);
    await verifyAgent(api, x, agent);
    expectError(await api.post("/verify/start", { key: agent.apiKey }), 400, "Bad Request");
    expectError(await api.post("/verify/start"), 401, "Unauthorized");
  });
});

describe("POST /verify/complete", () => {
  test("verifies the agent from a public post that mentions the handle and holds the code", async () => {
    const { agent, tweetText } = await started();
    const author = uniqueAuthor("Who");
    const reply = await complete(agent, publishPost(x, author, tweetText));
    expect(reply.status).toBe(200);
    expect(reply.body).toEqual({ success: true, verifiedAt: expect.any(Number), socialUsername: author });
    const status = await api.get("/verify/status", { key: agent.apiKey });
    expect(status.body).toEqual({
      mode: "social",
      verified: true,
      verifiedAt: reply.body.verifiedAt,
      hasActiveCode: false,
    });
    expectError(await complete(agent, publishPost(x, author, tweetText)), 400, "Bad Request");
  });

  test.each([
    "https://x.com/Some_User/status/123",
    "https://www.x.com/Some_User/status/123?s=20",
    "https://mobile.x.com/Some_User/status/123/",
    "https://twitter.com/Some_User/status/123",
    "https://www.twitter.com/Some_User/status/123#top",
    "https://mobile.twitter.com/Some_User/status/123",
  ])("accepts %s and looks it up by its canonical URL only", async (tweetUrl) => {
    const { agent } = await started();
    x.asked.length = 0;
    expectError(await complete(agent, tweetUrl), 400, "Bad Request", "INVALID_TWEET");
    expect(x.asked).toEqual(["https://twitter.com/Some_User/status/123"]);
  });

  test.each([
    "http://x.com/user/status/123",
    "https://evil.example/user/status/123",
    "https://x.com.evil.example/user/status/123",
    "https://x.com/user/statuses/123",
    "https://x.com/user/status/abc",
    "https://x.com/user/status/123/photo/1",
    "https://x.com:8443/user/status/123",
    "https://me@x.com/user/status/123",
    "https://x.com/abcdefghijklmnop/status/123",
    "https://x.com/dash-name/status/123",
    "not a url",
    "",
  ])("refuses %j with 400 and asks nobody", async (tweetUrl) => {
    const { agent } = await started();
    x.asked.length = 0;
    expectError(await complete(agent, tweetUrl), 400, "Bad Request");
    expect(x.asked).toEqual([]);
  });

  test("400 for a missing or non-string tweetUrl and for a body that is no JSON object", async () => {
    const { agent } = await started();
    const missing = await api.post("/verify/complete", { key: agent.apiKey, body: {} });
    expect(missing.body).toEqual({ error: "Bad Request", statusCode: 400, message: "tweetUrl is required" });
    expectError(await complete(agent, 42), 400, "Bad Request");
    expectError(await api.post("/verify/complete", { key: agent.apiKey, body: "[1]" }), 400, "Bad Request");
  });

  test("400 without a code when verification was never started", async () => {
    const agent = await createAgent(api);
    const reply = await complete(agent, publishPost(x, "someone", "@pigeonhole PIGEON-AAAAAA"));
    expectError(reply, 400, "Bad Request");
    expect(reply.body.message).toContain("/verify/start");
  });

  test("post not found or not public: 400 INVALID_TWEET", async () => {
    const { agent } = await started();
    for (const status of [404, 403] as const) {
      x.publish(`77${status}`, { status });
      const reply = await complete(agent, `https://x.com/someone/status/77${status}`);
      expectError(reply, 400, "Bad Request", "INVALID_TWEET");
      expect(reply.body.message).toContain("not found or not accessible");
    }
  });

  test.each([
    ["no mention at all", (code: string) => `verifying ${code}`, "does not mention @pigeonhole"],
    ["a longer handle", (code: string) => `@pigeonholes ${code}`, "does not mention @pigeonhole"],
    ["an email address, not a mention", (code: string) => `me@pigeonhole.example ${code}`, "does not mention"],
    ["the wrong code", () => "@pigeonhole PIGEON-ZZZZZZ", "does not contain the verification code"],
    ["no code", () => "hello @pigeonhole", "does not contain the verification code"],
    ["the code inside a longer word", (code: string) => `@pigeonhole ${code}X`, "does not contain"],
  ])("400 INVALID_TWEET for a post with %s", async (_, text, message) => {
    const { agent, code } = await started();
    const reply = await complete(agent, publishPost(x, uniqueAuthor(), text(code)));
    expectError(reply, 400, "Bad Request", "INVALID_TWEET");
    expect(reply.body.message).toContain(message);
  });

  test("only the post's text counts, not the byline of the embed", async () => {
    const { agent, code } = await started();
    // The author is @pigeonhole, so the byline holds the handle; the text does not.
    x.publish("8800", { status: 200, author: "pigeonhole", html: embedHtml(`just ${code}`, "pigeonhole") });
    const reply = await complete(agent, "https://x.com/pigeonhole/status/8800");
    expectError(reply, 400, "Bad Request", "INVALID_TWEET");
  });

  test.each([
    ["the handle in another case", (code: string) => `Hi @PigeonHole! ${code.toLowerCase()}`],
    ["the mention as X links it", (code: string) => `<a href="https://twitter.com/pigeonhole">@pigeonhole</a> ${code}`],
    ["HTML entities", (code: string) => `Tom &amp; Jerry &#64;pigeonhole &quot;${code}&quot; &#x1F426;`],
    ["line breaks", (code: string) => `@pigeonhole<br>${code}<br>thanks`],
  ])("accepts a post with %s", async (_, text) => {
    const { agent, code } = await started();
    const reply = await complete(agent, publishPost(x, uniqueAuthor(), text(code)));
    expect(reply.status).toBe(200);
  });

  test("X failing, stalling past 10 s or unreachable: 503, and the code stays usable", async () => {
    const { agent, tweetText } = await started();
    x.publish("9500", { status: 500 });
    expectError(await complete(agent, "https://x.com/someone/status/9500"), 503, "Service Unavailable");
    x.publish("9501", { status: "stall" });
    const began = Date.now();
    expectError(await complete(agent, "https://x.com/someone/status/9501"), 503, "Service Unavailable");
    expect(Date.now() - began).toBeGreaterThanOrEqual(9_000);
    await withService({ SOCIAL_OEMBED_URL: "http://127.0.0.1:9/oembed" }, async (down) => {
      const other = await createAgent(new Api(down.url));
      await new Api(down.url).post("/verify/start", { key: other.apiKey });
      const reply = await new Api(down.url).post("/verify/complete", {
        key: other.apiKey,
        body: { tweetUrl: "https://x.com/someone/status/1" },
      });
      expectError(reply, 503, "Service Unavailable");
    });
    expect((await complete(agent, publishPost(x, uniqueAuthor(), tweetText))).status).toBe(200);
  }, 40_000);

  test("a failed completion leaves the code usable", async () => {
    const { agent, tweetText } = await started();
    expectError(await complete(agent, publishPost(x, "someone", "no mention")), 400, "Bad Request", "INVALID_TWEET");
    expect((await api.get("/verify/status", { key: agent.apiKey })).body.hasActiveCode).toBe(true);
    expect((await complete(agent, publishPost(x, uniqueAuthor(), tweetText))).status).toBe(200);
  });

  test("an X account verifies one agent only, compared without case", async () => {
    const author = uniqueAuthor("Owner");
    await verifyAgent(api, x, await createAgent(api), author);
    const { agent, tweetText } = await started();
    const reply = await complete(agent, publishPost(x, author.toUpperCase(), tweetText));
    expectError(reply, 400, "Bad Request", "SOCIAL_ALREADY_USED");
  });

  test("two concurrent completions with one X account: exactly one wins", async () => {
    const author = uniqueAuthor("Twin");
    const a = await started();
    const b = await started();
    const replies = await Promise.all([
      complete(a.agent, publishPost(x, author, a.tweetText)),
      complete(b.agent, publishPost(x, author, b.tweetText)),
    ]);
    expect(replies.map((r) => r.status).sort()).toEqual([200, 400]);
    expect(replies.find((r) => r.status === 400)?.body.code).toBe("SOCIAL_ALREADY_USED");
  });

  test("a code older than 15 minutes: 400 VERIFICATION_EXPIRED", async () => {
    const { agent, tweetText } = await started();
    svc.clock.advance(15 * MINUTE + 1000);
    const reply = await complete(agent, publishPost(x, uniqueAuthor(), tweetText));
    expectError(reply, 400, "Bad Request", "VERIFICATION_EXPIRED");
    expect((await api.get("/verify/status", { key: agent.apiKey })).body).toEqual({
      mode: "social",
      verified: false,
      hasActiveCode: false,
    });
  });
});

describe("GET /verify/status", () => {
  test("follows the agent from new to active code to verified", async () => {
    const agent = await createAgent(api);
    expect((await api.get("/verify/status", { key: agent.apiKey })).body).toEqual({
      mode: "social",
      verified: false,
      hasActiveCode: false,
    });
    const { code, tweetText } = await started(agent);
    const active = await api.get("/verify/status", { key: agent.apiKey });
    expect(active.body).toEqual({
      mode: "social",
      verified: false,
      hasActiveCode: true,
      codeExpiresAt: expect.any(Number),
    });
    expect(code).toMatch(/^PIGEON-/);
    await complete(agent, publishPost(x, uniqueAuthor(), tweetText));
    const done = await api.get("/verify/status", { key: agent.apiKey });
    expect(done.body).toEqual({ mode: "social", verified: true, verifiedAt: expect.any(Number), hasActiveCode: false });
    expectError(await api.get("/verify/status"), 401, "Unauthorized");
    expectError(await api.get("/verify/status", { key: "ph_wrong" }), 401, "Unauthorized");
  });
});

describe("an agent older than 24 hours, before the cleanup job reaches it", () => {
  test("cannot start or complete verification, has no active code, and counts as gone for others", async () => {
    const { agent, tweetText } = await started();
    const other = await createAgent(api);
    svc.clock.advance(24 * 60 * MINUTE);
    const laterCode = await complete(agent, publishPost(x, uniqueAuthor(), tweetText));
    expectError(laterCode, 400, "Bad Request", "VERIFICATION_EXPIRED");
    expectError(await api.post("/verify/start", { key: agent.apiKey }), 400, "Bad Request", "VERIFICATION_EXPIRED");
    expect((await api.get("/verify/status", { key: agent.apiKey })).body).toEqual({
      mode: "social",
      verified: false,
      hasActiveCode: false,
    });
    const fresh = await createAgent(api);
    expectError(await api.delete(`/agents/${other.id}`, { key: fresh.apiKey }), 404, "Not Found");
  });
});

describe("over GraphQL", () => {
  test("start, complete and status, with the spec's codes in extensions", async () => {
    const agent = await createAgent(api);
    const start = await api.graphql(
      "mutation { startVerification { verificationCode expiresAt tweetText socialIntentUrl } }",
      {},
      agent.apiKey,
    );
    const { tweetText, verificationCode } = start.body.data.startVerification;
    expect(verificationCode).toMatch(/^PIGEON-/);
    const completeMutation = `mutation($url: String!) { completeVerification(tweetUrl: $url) { success verifiedAt socialUsername } }`;
    const noMention = await api.graphql(
      completeMutation,
      { url: publishPost(x, "someone", verificationCode) },
      agent.apiKey,
    );
    expect(noMention.body.errors[0].extensions).toEqual({ code: "INVALID_TWEET", status: 400 });
    x.publish("4242", { status: 500 });
    const down = await api.graphql(completeMutation, { url: "https://x.com/a/status/4242" }, agent.apiKey);
    expect(down.body.errors[0].extensions).toEqual({ code: "SERVICE_UNAVAILABLE", status: 503 });
    const author = uniqueAuthor();
    const done = await api.graphql(completeMutation, { url: publishPost(x, author, tweetText) }, agent.apiKey);
    expect(done.body.data.completeVerification).toEqual({
      success: true,
      verifiedAt: expect.any(Number),
      socialUsername: author,
    });
    const status = await api.graphql("{ verificationStatus { verified verifiedAt hasActiveCode } }", {}, agent.apiKey);
    expect(status.body.data.verificationStatus).toEqual({
      verified: true,
      verifiedAt: done.body.data.completeVerification.verifiedAt,
      hasActiveCode: false,
    });
    const second = await started();
    const used = await api.graphql(
      completeMutation,
      { url: publishPost(x, author, second.tweetText) },
      second.agent.apiKey,
    );
    expect(used.body.errors[0].extensions).toEqual({ code: "SOCIAL_ALREADY_USED", status: 400 });
    svc.clock.advance(16 * MINUTE);
    const late = await api.graphql(
      completeMutation,
      { url: publishPost(x, uniqueAuthor(), second.tweetText) },
      second.agent.apiKey,
    );
    expect(late.body.errors[0].extensions).toEqual({ code: "VERIFICATION_EXPIRED", status: 400 });
  });
});

describe("other handles and prefixes", () => {
  test("SOCIAL_HANDLE and VERIFICATION_CODE_PREFIX shape the code and the check", async () => {
    await withService(
      {
        SOCIAL_OEMBED_URL: x.url,
        SOCIAL_HANDLE: "MailHub",
        VERIFICATION_CODE_PREFIX: "HUB",
        SOCIAL_INTENT_URL: "https://x.example/compose",
      },
      async (other) => {
        const otherApi = new Api(other.url);
        const agent = await createAgent(otherApi);
        const start = await otherApi.post("/verify/start", { key: agent.apiKey });
        expect(start.body.verificationCode).toMatch(/^HUB-[A-Z2-9]{6}$/);
        expect(start.body.tweetText).toContain("@MailHub");
        expect(start.body.socialIntentUrl).toMatch(/^https:\/\/x\.example\/compose\?text=/);
        const wrong = await otherApi.post("/verify/complete", {
          key: agent.apiKey,
          body: { tweetUrl: publishPost(x, "someone", `@pigeonhole ${start.body.verificationCode}`) },
        });
        expect(wrong.body.code).toBe("INVALID_TWEET");
        const right = await otherApi.post("/verify/complete", {
          key: agent.apiKey,
          body: { tweetUrl: publishPost(x, uniqueAuthor(), start.body.tweetText) },
        });
        expect(right.status).toBe(200);
      },
    );
  });
});
