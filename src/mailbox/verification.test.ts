import { describe, expect, test } from "vitest";
import { memoryOfFile, openMemory } from "../testing/memory.ts";
import { podGrant } from "../testing/pods.ts";
import { createAgent } from "./agents.ts";
import { agentEvents } from "./events.ts";
import { UNVERIFIED_LIFETIME_MS, VERIFICATION_CODE_LIFETIME_MS } from "./lifetimes.ts";
import { POD_PERMISSIONS } from "./permissions.ts";
import { createPodAgent, listPodAgents } from "./pod-agents.ts";
import { createPod, findPod } from "./pods.ts";
import {
  agentOwner,
  claimOf,
  completeVerification,
  openClaim,
  podOwner,
  startVerification,
  verificationStatus,
  verifyByOperator,
} from "./verification.ts";

// Verification by a person's public post on X: a code for 15 minutes, the
// post must mention the handle and carry the code, and one X account
// verifies one agent.

const memory = memoryOfFile({ VERIFICATION_MODE: "social", SOCIAL_HANDLE: "pigeonhole" });

const register = (id: string) => createAgent(memory.services, { id, name: `Agent ${id}` }, "self");

/** Publishes a post the lookup will find; its URL. */
function post(user: string, text: string): string {
  const id = String(1_000 + memory.posts.size);
  memory.posts.set(`https://twitter.com/${user}/status/${id}`, { authorUsername: user, text });
  return `https://x.com/${user}/status/${id}`;
}

describe("by a post on X", () => {
  test("a post that mentions the handle and carries the code verifies the agent, once", async () => {
    const { agent } = await register("poster");
    const { verificationCode, tweetText, socialIntentUrl } = await startVerification(
      memory.services,
      agentOwner(agent),
    );
    expect(verificationCode).toMatch(/^PIGEON-[A-Z0-9]{6}$/);
    expect(tweetText).toContain("poster@agents.example");
    expect(new URL(socialIntentUrl).searchParams.get("text")).toBe(tweetText);
    const current = await memory.reload(agent);
    expect(verificationStatus(memory.services, agentOwner(current))).toMatchObject({
      hasActiveCode: true,
      verified: false,
    });
    const verified = await completeVerification(memory.services, agentOwner(current), post("Human1", tweetText));
    expect(verified).toMatchObject({ success: true, socialUsername: "Human1" });
    const events = (await agentEvents(memory.services, agent, {})).data;
    expect(events).toMatchObject([{ type: "agent.verified", data: { socialUsername: "Human1" } }]);
    await expect(startVerification(memory.services, agentOwner(await memory.reload(agent)))).rejects.toThrow(
      "Agent is already verified",
    );
  });

  test.each([
    ["not a post", "https://example.com/x", /tweetUrl must be the URL of a post/],
    ["missing", "https://x.com/ghost/status/1", /Post not found/],
    ["no mention", "code only", /does not mention @pigeonhole/],
    ["no code", "hi @pigeonhole", /does not contain the verification code/],
  ])("%s: refused", async (_, given, message) => {
    const { agent } = await register(`refused${Math.random().toString(36).slice(2, 8)}`);
    const { verificationCode } = await startVerification(memory.services, agentOwner(agent));
    const url = given.startsWith("https://") ? given : post("someone", given.replace("code", verificationCode));
    await expect(completeVerification(memory.services, agentOwner(await memory.reload(agent)), url)).rejects.toThrow(
      message,
    );
  });

  test("one X account verifies one agent", async () => {
    const first = (await register("first")).agent;
    const second = (await register("second")).agent;
    const a = await startVerification(memory.services, agentOwner(first));
    await completeVerification(memory.services, agentOwner(await memory.reload(first)), post("OneHuman", a.tweetText));
    const b = await startVerification(memory.services, agentOwner(second));
    await expect(
      completeVerification(memory.services, agentOwner(await memory.reload(second)), post("onehuman", b.tweetText)),
    ).rejects.toMatchObject({ details: { code: "SOCIAL_ALREADY_USED" } });
  });

  test("a code past its 15 minutes, or none, is refused", async () => {
    const { agent } = await register("slow");
    await expect(completeVerification(memory.services, agentOwner(agent), post("slowhuman", "x"))).rejects.toThrow(
      /No verification in progress/,
    );
    const { tweetText } = await startVerification(memory.services, agentOwner(agent));
    memory.clock.advance(VERIFICATION_CODE_LIFETIME_MS + 1);
    await expect(
      completeVerification(memory.services, agentOwner(await memory.reload(agent)), post("slowhuman", tweetText)),
    ).rejects.toMatchObject({ details: { code: "VERIFICATION_EXPIRED" } });
  });
});

describe("the verification link", () => {
  test("open while the agent waits, then used; unknown and expired links are refused", async () => {
    const { agent, verifyUrl } = await register("linked");
    const token = verifyUrl.split("/").at(-1) ?? "";
    expect((await openClaim(memory.services, token)).record.id).toBe("linked");
    await verifyByOperator(memory.services, agentOwner(agent));
    await expect(openClaim(memory.services, token)).rejects.toMatchObject({ kind: "GONE" });
    expect((await claimOf(memory.services, "pv_nothing")).state).toBe("unknown");
    const late = await register("late");
    memory.clock.advance(UNVERIFIED_LIFETIME_MS + 1);
    const lateToken = late.verifyUrl.split("/").at(-1) ?? "";
    await expect(openClaim(memory.services, lateToken)).rejects.toThrow(/expired/);
    await expect(verifyByOperator(memory.services, agentOwner(late.agent))).rejects.toMatchObject({
      details: { code: "VERIFICATION_EXPIRED" },
    });
  });
});

describe("where the operator verifies", () => {
  test("the post flow is refused", async () => {
    const admin = await openMemory({ VERIFICATION_MODE: "admin" });
    try {
      const { agent } = await createAgent(admin.services, { id: "waits", name: "W" }, "self");
      await expect(startVerification(admin.services, agentOwner(agent))).rejects.toThrow(/VERIFICATION_MODE=admin/);
    } finally {
      await admin.close();
    }
  });
});

describe("a pod", () => {
  const makeAgent = (podId: string, id: string) =>
    createPodAgent(memory.services, podId, podGrant(podId, [...POD_PERMISSIONS]), { id, name: id });

  test("an unverified pod's key makes unverified agents; its owner's post verifies it and them, and later ones", async () => {
    await createPod(memory.services, { id: "crew", name: "Crew" });
    const before = (await makeAgent("crew", "crewone")).agent;
    expect(before.verifiedAt).toBeNull();
    const own = (await makeAgent("crew", "crewself")).agent;
    await verifyByOperator(memory.services, agentOwner(own));
    const grant = podGrant("crew", [...POD_PERMISSIONS]);
    const { tweetText } = await startVerification(memory.services, await podOwner(memory.services, "crew", grant));
    expect(tweetText).toMatch(/pod crew at .* with @pigeonhole PIGEON-/);
    const verified = await completeVerification(
      memory.services,
      await podOwner(memory.services, "crew", grant),
      post("PodOwner", tweetText),
    );
    expect(verified).toMatchObject({ success: true, socialUsername: "PodOwner" });
    expect(await findPod(memory.services, "crew")).toMatchObject({ verifiedBy: "social", socialUsername: "podowner" });
    expect(await memory.reload(before)).toMatchObject({ verifiedBy: "pod" });
    expect(await memory.reload(own)).toMatchObject({ verifiedBy: "admin" });
    const events = (await agentEvents(memory.services, before, {})).data;
    expect(events).toMatchObject([{ type: "agent.verified", data: { socialUsername: "PodOwner" } }]);
    expect((await makeAgent("crew", "crewtwo")).agent).toMatchObject({ verifiedBy: "pod" });
    await expect(startVerification(memory.services, await podOwner(memory.services, "crew", grant))).rejects.toThrow(
      "Pod is already verified",
    );
  });

  test("the agents its key makes as it is verified all end verified, whichever goes first", async () => {
    await createPod(memory.services, { id: "busy", name: "Busy" });
    const grant = podGrant("busy", [...POD_PERMISSIONS]);
    const made = Array.from({ length: 5 }, (_, i) => makeAgent("busy", `busyfirst${i}`));
    const verified = podOwner(memory.services, "busy", grant).then((pod) => verifyByOperator(memory.services, pod));
    const more = Array.from({ length: 5 }, (_, i) => makeAgent("busy", `busythen${i}`));
    await Promise.all([...made, verified, ...more]);
    const agents = await listPodAgents(memory.services, "busy", grant);
    expect(agents).toHaveLength(10);
    expect(agents.filter((agent) => !agent.verified)).toEqual([]);
  });

  test("a key without agents, or limited to some agents, does not verify it", async () => {
    await createPod(memory.services, { id: "narrow", name: "Narrow" });
    await expect(podOwner(memory.services, "narrow", podGrant("narrow", ["manage"]))).rejects.toMatchObject({
      details: { permission: "agents" },
    });
    await expect(
      podOwner(memory.services, "narrow", podGrant("narrow", ["agents"], { agents: ["a"] })),
    ).rejects.toMatchObject({
      details: { permission: "agents" },
    });
  });

  test("an unverified agent past its lifetime is not verified with its pod", async () => {
    await createPod(memory.services, { id: "latecrew", name: "Late" });
    const late = (await makeAgent("latecrew", "latecomer")).agent;
    memory.clock.advance(UNVERIFIED_LIFETIME_MS + 1);
    await verifyByOperator(
      memory.services,
      await podOwner(memory.services, "latecrew", podGrant("latecrew", ["agents"])),
    );
    expect((await memory.reload(late)).verifiedAt).toBeNull();
  });

  test("where verification is off, a pod is verified as it is made", async () => {
    const none = await openMemory({ VERIFICATION_MODE: "none" });
    try {
      expect(await createPod(none.services, { id: "open", name: "Open" })).toMatchObject({ verifiedBy: "none" });
    } finally {
      await none.close();
    }
  });
});
