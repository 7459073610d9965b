import { describe, expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { reachedAgent } from "./access.ts";
import { createKey } from "./agent-keys.ts";
import { createAgent } from "./agents.ts";
import { holderOfKey, type KeyHolder } from "./keys.ts";
import {
  createPodKey,
  createPodKeyAsOperator,
  listPodKeys,
  listPodKeysAsOperator,
  revokePodKey,
  revokePodKeyAsOperator,
} from "./pod-keys.ts";
import { createPod } from "./pods.ts";

const memory = memoryOfFile({ VERIFICATION_MODE: "none" });

async function podWithAgents(id: string, agents: string[]) {
  await createPod(memory.services, { id, name: id });
  for (const agent of agents) {
    await createAgent(memory.services, { id: agent, name: agent, podId: id }, "operator");
  }
}

const holderOf = async (key: string) => (await holderOfKey(memory.services, key)) as KeyHolder;

describe("a pod's keys", () => {
  test("the operator's key of a pod has no agent, names its pod, and reaches its agents only", async () => {
    await podWithAgents("alpha", ["a1", "a2"]);
    await createAgent(memory.services, { id: "loner", name: "Loner" }, "operator");
    const made = await createPodKeyAsOperator(memory.services, "alpha", {
      name: "all",
      permissions: ["read", "agents"],
    });
    expect(made).toMatchObject({ permissions: ["read", "agents"], agents: null, expiresAt: null });
    const holder = await holderOf(made.key);
    expect(holder.agent).toBeNull();
    expect(holder.grant).toMatchObject({ keyId: made.id, podId: "alpha", agents: null });
    expect((await reachedAgent(memory.services, holder, "A1")).id).toBe("a1");
    await expect(reachedAgent(memory.services, holder, "loner")).rejects.toMatchObject({ kind: "FORBIDDEN" });
    await expect(reachedAgent(memory.services, holder, "nobody")).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });

  test("a child key never exceeds its parent: permissions, agents, expiry (403 naming the permission)", async () => {
    await podWithAgents("beta", ["b1", "b2", "b3"]);
    const expiresAt = new Date(memory.clock.now().getTime() + 3_600_000);
    const parent = await createPodKeyAsOperator(memory.services, "beta", {
      name: "parent",
      permissions: ["read", "manage"],
      agents: ["b1", "B2"],
      expiresAt,
    });
    expect(parent.agents).toEqual(["b1", "b2"]);
    const grant = (await holderOf(parent.key)).grant;
    const make = (input: Parameters<typeof createPodKey>[3]) => createPodKey(memory.services, "beta", grant, input);
    await expect(make({ name: "x", permissions: ["send"], agents: ["b1"], expiresAt })).rejects.toMatchObject({
      kind: "FORBIDDEN",
      details: { permission: "send" },
    });
    await expect(make({ name: "x", permissions: ["read"], agents: ["b3"], expiresAt })).rejects.toMatchObject({
      kind: "FORBIDDEN",
    });
    await expect(make({ name: "x", permissions: ["read"], expiresAt })).rejects.toMatchObject({ kind: "FORBIDDEN" });
    await expect(make({ name: "x", permissions: ["read"], agents: ["b1"] })).rejects.toMatchObject({
      kind: "FORBIDDEN",
    });
    const child = await make({ name: "child", permissions: ["read"], agents: ["b1"], expiresAt });
    const childHolder = await holderOf(child.key);
    await expect(reachedAgent(memory.services, childHolder, "b2")).rejects.toMatchObject({ kind: "FORBIDDEN" });
    const b1 = await reachedAgent(memory.services, childHolder, "b1");
    await expect(
      createKey(memory.services, b1, childHolder.grant, { name: "y", permissions: ["read"], expiresAt }),
    ).rejects.toMatchObject({ kind: "FORBIDDEN", details: { permission: "manage" } });
    const agentKey = await createKey(memory.services, b1, grant, { name: "z", permissions: ["read"], expiresAt });
    expect((await holderOf(agentKey.key)).agent?.id).toBe("b1");
  });

  test("agents is a pod key's permission; a key names only its pod's agents; revoked, it is no key", async () => {
    await podWithAgents("gamma", ["g1"]);
    await createAgent(memory.services, { id: "stranger", name: "S" }, "operator");
    const bad = createPodKeyAsOperator(memory.services, "gamma", {
      name: "x",
      permissions: ["read"],
      agents: ["stranger"],
    });
    await expect(bad).rejects.toMatchObject({ kind: "BAD_REQUEST" });
    const made = await createPodKeyAsOperator(memory.services, "gamma", { name: "m", permissions: ["manage", "read"] });
    const grant = (await holderOf(made.key)).grant;
    const g1 = await reachedAgent(memory.services, await holderOf(made.key), "g1");
    await expect(createKey(memory.services, g1, grant, { name: "a", permissions: ["agents"] })).rejects.toMatchObject({
      kind: "BAD_REQUEST",
    });
    expect((await listPodKeys(memory.services, "gamma", grant)).map((key) => key.id)).toEqual([made.id]);
    await revokePodKey(memory.services, "gamma", grant, made.id);
    expect(await holderOfKey(memory.services, made.key)).toBeNull();
  });

  test("the operator lists and revokes a pod's keys by the pod's id; no such pod or key is a 404", async () => {
    await podWithAgents("delta", []);
    const made = await createPodKeyAsOperator(memory.services, "delta", { name: "d", permissions: ["read"] });
    expect((await listPodKeysAsOperator(memory.services, "delta")).map((key) => key.id)).toEqual([made.id]);
    await expect(listPodKeysAsOperator(memory.services, "nowhere")).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await revokePodKeyAsOperator(memory.services, "delta", made.id);
    expect(await holderOfKey(memory.services, made.key)).toBeNull();
    await expect(revokePodKeyAsOperator(memory.services, "delta", made.id)).rejects.toMatchObject({
      kind: "NOT_FOUND",
      message: `Key ${made.id} not found`,
    });
  });

  test("a key limited to some agents sees and revokes only the keys limited to agents it reaches", async () => {
    await podWithAgents("epsilon", ["e1", "e2"]);
    const key = (name: string, agents?: string[]) =>
      createPodKeyAsOperator(memory.services, "epsilon", { name, permissions: ["read", "manage"], agents });
    const limited = await key("limited", ["e1"]);
    const [wide, theirs, mine] = [await key("wide"), await key("theirs", ["e2"]), await key("mine", ["E1"])];
    const grant = (await holderOf(limited.key)).grant;
    // Oldest first, but made in the same instant here: by name.
    const listed = (await listPodKeys(memory.services, "epsilon", grant)).map((made) => made.name).sort();
    expect(listed).toEqual(["limited", "mine"]);
    for (const other of [wide, theirs]) {
      await expect(revokePodKey(memory.services, "epsilon", grant, other.id)).rejects.toMatchObject({
        kind: "NOT_FOUND",
      });
      expect(await holderOfKey(memory.services, other.key)).not.toBeNull();
    }
    await revokePodKey(memory.services, "epsilon", grant, mine.id);
    expect(await holderOfKey(memory.services, mine.key)).toBeNull();
    const whole = (await holderOf(wide.key)).grant;
    expect(await listPodKeys(memory.services, "epsilon", whole)).toHaveLength(3);
  });

  test("a key limited to some agents makes none of their keys that may replace the primary one", async () => {
    await podWithAgents("zeta", ["z1"]);
    const every = ["read", "send", "manage", "events"] as const;
    const limited = await createPodKeyAsOperator(memory.services, "zeta", {
      name: "limited",
      permissions: [...every],
      agents: ["z1"],
    });
    const holder = await holderOf(limited.key);
    const { grant } = holder;
    const agent = await reachedAgent(memory.services, holder, "z1");
    await expect(
      createKey(memory.services, agent, grant, { name: "full", permissions: [...every] }),
    ).rejects.toMatchObject({
      kind: "FORBIDDEN",
      details: { permission: "manage" },
    });
    const expiresAt = new Date(memory.clock.now().getTime() + 60_000);
    const lapsing = await createKey(memory.services, agent, grant, {
      name: "lapsing",
      permissions: [...every],
      expiresAt,
    });
    expect(lapsing.expiresAt).toEqual(expiresAt);
    const unlimitedPod = await createPodKeyAsOperator(memory.services, "zeta", {
      name: "all",
      permissions: [...every],
    });
    const full = await createKey(memory.services, agent, (await holderOf(unlimitedPod.key)).grant, {
      name: "full",
      permissions: [...every],
    });
    expect(full.permissions).toEqual([...every]);
  });
});
