import { describe, expect, test } from "vitest";
import { Api, publishPost, uniqueAuthor, uniqueId } from "./support/api.ts";
import { served } from "./support/served.ts";
import { withService } from "./support/service.ts";

// A pod verified by its owner's post on X (through the same oEmbed lookup as
// an agent's), or by the operator, or as it is made where verification is
// off; the agents its keys make are verified with it once it is.

const TOKEN = "admin-token-pod-verification-0123";

const { api, x } = served({ env: { ADMIN_TOKEN: TOKEN } });

const operator = (target: Api, method: string, path: string, body?: unknown) =>
  target.call(method, `/admin${path}`, { key: TOKEN, body });

/** A pod's owner's key: every permission, as making agents takes (it hands out their primary keys). */
const OWNER = ["read", "send", "manage", "events", "agents"];

/** A new pod and a key of it with these permissions, made by the operator on this service. */
async function podWithKey(target: Api, permissions: string[]): Promise<{ podId: string; key: string }> {
  const podId = uniqueId("pod");
  expect((await operator(target, "POST", "/pods", { id: podId, name: "Crew" })).status).toBe(201);
  const made = await operator(target, "POST", `/pods/${podId}/keys`, { name: "owner", permissions });
  expect(made.status).toBe(201);
  return { podId, key: made.body.key };
}

async function makeAgent(target: Api, podId: string, key: string) {
  const made = await target.post(`/pods/${podId}/agents`, { key, body: { id: uniqueId("crew"), name: "Crew member" } });
  expect(made.status).toBe(201);
  return made.body as { agent: { id: string; verified: boolean }; apiKey: string; instruction: string };
}

const verifiedBy = async (target: Api, agentId: string) =>
  (await operator(target, "GET", `/agents/${agentId}`)).body.verifiedBy as string | null;

describe("by its owner's post", () => {
  test("an unverified pod's key makes unverified agents; start and complete verify the pod, them and later ones", async () => {
    const { podId, key } = await podWithKey(api, OWNER);
    expect((await operator(api, "GET", `/pods/${podId}`)).body).toMatchObject({ verified: false, verifiedAt: null });
    const before = await makeAgent(api, podId, key);
    expect(before.agent.verified).toBe(false);
    expect(before.instruction).toContain("/verify/start");
    expect((await api.get(`/agents/${before.agent.id}/emails`, { key: before.apiKey })).status).toBe(403);

    const start = await api.post(`/pods/${podId}/verify/start`, { key });
    expect(start.status).toBe(200);
    expect(Object.keys(start.body)).toEqual([
      "verificationCode",
      "expiresAt",
      "tweetText",
      "socialIntentUrl",
      "verifyUrl",
    ]);
    const { verificationCode, tweetText, socialIntentUrl } = start.body;
    expect(tweetText).toContain(`pod ${podId}`);
    expect(tweetText).toContain("@pigeonhole");
    expect(tweetText).toContain(verificationCode);
    expect(new URL(socialIntentUrl).searchParams.get("text")).toBe(tweetText);

    const missing = await api.post(`/pods/${podId}/verify/complete`, {
      key,
      body: { tweetUrl: publishPost(x, uniqueAuthor(), "no code @pigeonhole") },
    });
    expect([missing.status, missing.body.code]).toEqual([400, "INVALID_TWEET"]);

    const author = uniqueAuthor("Owner");
    const done = await api.post(`/pods/${podId}/verify/complete`, {
      key,
      body: { tweetUrl: publishPost(x, author, tweetText) },
    });
    expect(done.status).toBe(200);
    expect(done.body).toEqual({ success: true, verifiedAt: expect.any(Number), socialUsername: author });
    expect((await operator(api, "GET", `/pods/${podId}`)).body).toMatchObject({
      verified: true,
      verifiedAt: done.body.verifiedAt,
      verifiedBy: "social",
    });
    expect(await verifiedBy(api, before.agent.id)).toBe("pod");
    expect((await api.get(`/agents/${before.agent.id}/emails`, { key: before.apiKey })).status).toBe(200);

    const after = await makeAgent(api, podId, key);
    expect(after.agent.verified).toBe(true);
    expect(await verifiedBy(api, after.agent.id)).toBe("pod");
    const listed = await api.get(`/pods/${podId}/agents`, { key });
    expect(listed.body.data.map((agent: { verified: boolean }) => agent.verified)).toEqual([true, true]);

    const again = await api.post(`/pods/${podId}/verify/start`, { key });
    expect([again.status, again.body.message]).toEqual([400, "Pod is already verified"]);
  });

  test("an agent of the pod verified on its own stays so; one X account verifies one pod", async () => {
    const { podId, key } = await podWithKey(api, OWNER);
    const own = await makeAgent(api, podId, key);
    const ownStart = await api.post("/verify/start", { key: own.apiKey });
    const author = uniqueAuthor("Both");
    const ownDone = await api.post("/verify/complete", {
      key: own.apiKey,
      body: { tweetUrl: publishPost(x, author, ownStart.body.tweetText) },
    });
    expect(ownDone.status).toBe(200);
    const { tweetText } = (await api.post(`/pods/${podId}/verify/start`, { key })).body;
    const done = await api.post(`/pods/${podId}/verify/complete`, {
      key,
      body: { tweetUrl: publishPost(x, author, tweetText) },
    });
    expect(done.status).toBe(200);
    expect(await verifiedBy(api, own.agent.id)).toBe("social");

    const other = await podWithKey(api, OWNER);
    const otherText = (await api.post(`/pods/${other.podId}/verify/start`, { key: other.key })).body.tweetText;
    const taken = await api.post(`/pods/${other.podId}/verify/complete`, {
      key: other.key,
      body: { tweetUrl: publishPost(x, author, otherText) },
    });
    expect([taken.status, taken.body.code]).toEqual([400, "SOCIAL_ALREADY_USED"]);
  });

  test("GraphQL carries the same; a key without agents, or of another pod, is refused 403", async () => {
    const { podId, key } = await podWithKey(api, OWNER);
    const started = await api.graphql(
      "mutation($p: ID!) { startPodVerification(podId: $p) { tweetText } }",
      { p: podId },
      key,
    );
    const tweetText = started.body.data.startPodVerification.tweetText;
    const done = await api.graphql(
      "mutation($p: ID!, $u: String!) { completePodVerification(podId: $p, tweetUrl: $u) { success } }",
      { p: podId, u: publishPost(x, uniqueAuthor(), tweetText) },
      key,
    );
    expect(done.body.data.completePodVerification.success).toBe(true);

    const manage = await operator(api, "POST", `/pods/${podId}/keys`, { name: "m", permissions: ["manage", "read"] });
    for (const step of ["start", "complete"]) {
      const refused = await api.post(`/pods/${podId}/verify/${step}`, {
        key: manage.body.key,
        body: { tweetUrl: "https://x.com/a/status/1" },
      });
      expect([refused.status, refused.body.permission]).toEqual([403, "agents"]);
    }
    const viaGraphql = await api.graphql(
      "mutation($p: ID!) { startPodVerification(podId: $p) { tweetText } }",
      { p: podId },
      manage.body.key,
    );
    expect(viaGraphql.body.errors[0].extensions).toMatchObject({ code: "FORBIDDEN", permission: "agents" });
    const other = await podWithKey(api, OWNER);
    expect((await api.post(`/pods/${podId}/verify/start`, { key: other.key })).status).toBe(403);
  });
});

describe("the verification page", () => {
  test("a pod's link shows a person the pod, and verifies it by the link's own calls; then it is spent", async () => {
    const { podId, key } = await podWithKey(api, OWNER);
    const waiting = await makeAgent(api, podId, key);
    const first = (await api.post(`/pods/${podId}/verify/start`, { key })).body.verifyUrl as string;
    const token = (await api.post(`/pods/${podId}/verify/start`, { key })).body.verifyUrl.split("/").at(-1);
    const html = { headers: { accept: "text/html" } };
    expect((await api.get(new URL(first).pathname, html)).status).toBe(404);
    const page = await api.get(`/verify/${token}`, html);
    expect(page.status).toBe(200);
    expect(page.text).toContain("A pod of AI agents asks you to vouch for it");
    expect(page.text).toContain(`pod ${podId}`);
    const start = await api.post(`/verify/${token}/start`);
    expect(start.status).toBe(200);
    expect(start.body.tweetText).toContain(`pod ${podId}`);
    const author = uniqueAuthor("Page");
    const done = await api.post(`/verify/${token}/complete`, {
      body: { tweetUrl: publishPost(x, author, start.body.tweetText) },
    });
    expect(done.body).toMatchObject({ success: true, socialUsername: author });
    expect(await verifiedBy(api, waiting.agent.id)).toBe("pod");
    expect((await api.get(`/verify/${token}`, html)).status).toBe(410);
    expect((await api.post(`/verify/${token}/start`)).status).toBe(410);
  });
});

describe("verified while its agents are made", () => {
  // Each round: a pod's key makes agents while the operator verifies the pod.
  // Whichever way the two interleave, every agent made ends verified with it.
  const ROUNDS = 20;
  const AGENTS = 10;

  test("every agent a pod's key makes as the pod is verified ends verified", async () => {
    for (let round = 0; round < ROUNDS; round++) {
      const { podId, key } = await podWithKey(api, OWNER);
      const made = Array.from({ length: AGENTS }, () => makeAgent(api, podId, key));
      const verified = operator(api, "POST", `/pods/${podId}/verify`);
      const more = Array.from({ length: AGENTS }, () => makeAgent(api, podId, key));
      expect((await verified).status).toBe(200);
      const agents = await Promise.all([...made, ...more]);
      const listed = (await api.get(`/pods/${podId}/agents`, { key })).body.data as { id: string; verified: boolean }[];
      expect(listed).toHaveLength(agents.length);
      expect(listed.filter((agent) => !agent.verified).map((agent) => agent.id)).toEqual([]);
    }
  });
});

describe("other modes", () => {
  test("admin: the operator verifies a pod, and with it its agents; the post flow is refused", async () => {
    await withService({ ADMIN_TOKEN: TOKEN, VERIFICATION_MODE: "admin" }, async (service) => {
      const target = new Api(service.url);
      const { podId, key } = await podWithKey(target, OWNER);
      const waiting = await makeAgent(target, podId, key);
      expect(waiting.agent.verified).toBe(false);
      const start = await target.post(`/pods/${podId}/verify/start`, { key });
      expect([start.status, start.body.message]).toEqual([
        400,
        "On this instance the operator verifies pods (VERIFICATION_MODE=admin): ask them to verify this one",
      ]);
      const verified = await operator(target, "POST", `/pods/${podId}/verify`);
      expect(verified.status).toBe(200);
      expect(verified.body).toMatchObject({ id: podId, verified: true, verifiedBy: "admin" });
      expect(await verifiedBy(target, waiting.agent.id)).toBe("pod");
      expect((await makeAgent(target, podId, key)).agent.verified).toBe(true);
      expect((await operator(target, "POST", `/pods/${podId}/verify`)).status).toBe(400);
      expect((await operator(target, "POST", "/pods/nosuchpod/verify")).status).toBe(404);
    });
  });

  test("none: a pod is verified as it is made, and so are the agents its keys make", async () => {
    await withService({ ADMIN_TOKEN: TOKEN, VERIFICATION_MODE: "none" }, async (service) => {
      const target = new Api(service.url);
      const { podId, key } = await podWithKey(target, OWNER);
      expect((await operator(target, "GET", `/pods/${podId}`)).body).toMatchObject({
        verified: true,
        verifiedBy: "none",
      });
      const made = await makeAgent(target, podId, key);
      expect(made.agent.verified).toBe(true);
      expect(await verifiedBy(target, made.agent.id)).toBe("pod");
    });
  });
});
