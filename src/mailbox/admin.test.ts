import { describe, expect, test } from "vitest";
import { memoryOfFile, rawMessage } from "../testing/memory.ts";
import {
  agentOverview,
  deleteAgentById,
  findAgent,
  instanceStats,
  keyCounts,
  keysOfAgentById,
  listAgents,
  reviewerCoverage,
  revokeKeyById,
  rotateKeyById,
  setLimits,
  setReviewer,
  setSendPolicy,
  verifyAgent,
} from "./admin.ts";
import { createKey } from "./agent-keys.ts";
import { createAgent } from "./agents.ts";
import { agentEvents } from "./events.ts";
import { agentByKey, isKey } from "./keys.ts";
import { sendEmail } from "./outbox.ts";
import { FULL_GRANT } from "./permissions.ts";
import { createPod, setPodSendPolicy } from "./pods.ts";
import { sendQuota } from "./sending.ts";

// The operator's acts on any agent: the agent's own rules, with the choice
// of agent by id, and the limits and policies only the operator sets.

const memory = memoryOfFile({ VERIFICATION_MODE: "admin", DAILY_SEND_LIMIT: "5", STORAGE_LIMIT_BYTES: "100000" });

const selfRegistered = async (id: string) =>
  createAgent(memory.services, { id, name: `Agent ${id}` }, "self").then((registration) => registration.agent);

describe("agents", () => {
  test("found by id in any case; a missing one is a 404 naming it", async () => {
    await memory.agent("Finder");
    expect((await findAgent(memory.services, "FINDER")).id).toBe("Finder");
    await expect(findAgent(memory.services, "missing")).rejects.toMatchObject({
      kind: "NOT_FOUND",
      message: "Agent missing not found",
    });
  });

  test("listed newest first, filtered by verification and id prefix", async () => {
    await memory.agent("list-a");
    memory.clock.advance(1_000);
    await selfRegistered("list-b");
    memory.clock.advance(1_000);
    const ids = async (query = {}) =>
      (await listAgents(memory.services, { prefix: "LIST-", ...query })).data.map((agent) => agent.id);
    expect(await ids()).toEqual(["list-b", "list-a"]);
    expect(await ids({ verified: false })).toEqual(["list-b"]);
    expect(await ids({ limit: 1, offset: 1 })).toEqual(["list-a"]);
  });

  test("verifying by the operator verifies, and tells the agent", async () => {
    const agent = await selfRegistered("verify-me");
    const overview = await verifyAgent(memory.services, "verify-me");
    expect(overview).toMatchObject({ verified: true, verifiedBy: "admin" });
    const events = (await agentEvents(memory.services, agent, {})).data;
    expect(events.map((event) => event.type)).toEqual(["agent.verified"]);
  });

  test("the operator rotates a key and deletes an agent by id", async () => {
    const { agent, apiKey } = await createAgent(memory.services, { id: "operated", name: "O" }, "operator");
    const { apiKey: next } = await rotateKeyById(memory.services, "OPERATED");
    expect(await agentByKey(memory.services, apiKey)).toBeNull();
    expect((await agentByKey(memory.services, next))?.id).toBe(agent.id);
    await deleteAgentById(memory.services, "operated");
    await expect(deleteAgentById(memory.services, "operated")).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });
});

describe("limits and policies", () => {
  test("an agent's own limits replace the instance's; null gives them back", async () => {
    const agent = await memory.agent("limited");
    expect(await agentOverview(memory.services, "limited")).toMatchObject({
      dailySendLimit: 5,
      dailySendLimitOverride: null,
      storageLimit: 100_000,
    });
    await setLimits(memory.services, "limited", { dailySendLimit: 1 });
    const reloaded = await memory.reload(agent);
    expect((await sendQuota(memory.services, reloaded)).limit).toBe(1);
    await sendEmail(memory.services, reloaded, { to: ["pat@elsewhere.example"], subject: "One", text: "." });
    await expect(
      sendEmail(memory.services, reloaded, { to: ["pat@elsewhere.example"], subject: "Two", text: "." }),
    ).rejects.toMatchObject({ details: { code: "DAILY_SEND_LIMIT_EXCEEDED", limit: 1 } });
    expect(await setLimits(memory.services, "limited", { dailySendLimit: null })).toMatchObject({
      dailySendLimit: 5,
      sendsToday: 1,
    });
  });

  test.each([0, -1, 1.5, 2_147_483_648])("the limit %d is refused", async (value) => {
    await memory.agent(`limit${String(value).replace(/\W/g, "")}`);
    await expect(
      setLimits(memory.services, `limit${String(value).replace(/\W/g, "")}`, { storageLimit: value }),
    ).rejects.toThrow("storageLimit must be an integer from 1 to 2147483647, or null");
  });

  test("a reviewer is a person outside the served domains; a webhook comes with its secret", async () => {
    await memory.agent("reviewed");
    await expect(setReviewer(memory.services, "reviewed", { email: "boss@agents.example" })).rejects.toThrow(
      /at a domain this instance serves/,
    );
    await expect(
      setReviewer(memory.services, "reviewed", { webhookUrl: "https://hooks.example/review" }),
    ).rejects.toThrow(/go together/);
    const overview = await setReviewer(memory.services, "reviewed", { email: " Boss@Reviewers.example " });
    expect(overview).toMatchObject({
      reviewerEmail: "boss@reviewers.example",
      reviewerEmailOverride: "boss@reviewers.example",
    });
    expect(await setSendPolicy(memory.services, "reviewed", "review_all")).toMatchObject({
      sendPolicy: "review_all",
      sendPolicyOverride: "review_all",
    });
    expect(await setSendPolicy(memory.services, "reviewed", null)).toMatchObject({ sendPolicy: "open" });
  });
});

describe("a pod's send policy", () => {
  test("an agent without one of its own has its pod's in force; its own wins; nobody told counts either", async () => {
    await createPod(memory.services, { id: "governing", name: "Governing" });
    await createAgent(memory.services, { id: "member", name: "Member", podId: "governing" }, "operator");
    const untold = async () => (await reviewerCoverage(memory.services, memory.services.config)).untold.ids;
    expect(await agentOverview(memory.services, "member")).toMatchObject({ sendPolicy: "open" });
    expect(await setPodSendPolicy(memory.services, "governing", "review_all")).toMatchObject({
      sendPolicy: "review_all",
      sendPolicyOverride: "review_all",
    });
    expect(await agentOverview(memory.services, "member")).toMatchObject({
      sendPolicy: "review_all",
      sendPolicyOverride: null,
    });
    expect(await untold()).toContain("member");
    expect(await setSendPolicy(memory.services, "member", "open")).toMatchObject({ sendPolicy: "open" });
    expect(await untold()).not.toContain("member");
    await expect(setPodSendPolicy(memory.services, "governing", "sometimes")).rejects.toMatchObject({
      kind: "BAD_REQUEST",
    });
    await expect(setPodSendPolicy(memory.services, "nowhere", null)).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });
});

describe("the instance", () => {
  test("stats count agents and mail", async () => {
    const before = await instanceStats(memory.services);
    const agent = await memory.agent("counted");
    await memory.receive(rawMessage({ To: "counted@agents.example" }), ["counted@agents.example"]);
    const after = await instanceStats(memory.services);
    expect(after).toMatchObject({
      agents: before.agents + 1,
      verified: before.verified + 1,
      emails: before.emails + 1,
    });
    expect(after.bytes).toBeGreaterThan(before.bytes);
    expect((await agentOverview(memory.services, agent.id)).lastReceivedAt).toEqual(memory.clock.now());
  });
});

test("an agent's keys: listed by its id, the primary one first, revoked at once; counted, the expired apart", async () => {
  const agent = await memory.agent("Keyed");
  const later = new Date(memory.clock.now().getTime() + 60_000);
  const made = await createKey(memory.services, agent, FULL_GRANT, {
    name: "reader",
    permissions: ["read"],
    expiresAt: later,
  });
  expect((await keysOfAgentById(memory.services, "KEYED")).map((key) => key.id)).toEqual(["primary", made.id]);
  const now = await keyCounts(memory.services, memory.clock.now());
  expect(await keyCounts(memory.services, later)).toEqual({ ...now, expired: now.expired + 1 });
  await expect(revokeKeyById(memory.services, "keyed", "primary")).rejects.toMatchObject({ kind: "BAD_REQUEST" });
  await revokeKeyById(memory.services, "keyed", made.id);
  expect(await isKey(memory.services, made.key)).toBe(false);
  expect(await keyCounts(memory.services, later)).toEqual({ ...now, agents: now.agents - 1 });
  await expect(revokeKeyById(memory.services, "nobody", made.id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
});
