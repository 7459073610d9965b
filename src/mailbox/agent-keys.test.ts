import { describe, expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { createKey, listKeys, PRIMARY, revokeKey } from "./agent-keys.ts";
import { createAgent } from "./agents.ts";
import { holderOfKey } from "./keys.ts";
import { FULL_GRANT } from "./permissions.ts";

const memory = memoryOfFile({ VERIFICATION_MODE: "none" });

const register = (id: string) => createAgent(memory.services, { id, name: `Agent ${id}` }, "self");

describe("an agent's keys", () => {
  test("a key made by the primary one finds its agent with its own grant; the primary key has every permission", async () => {
    const { agent, apiKey } = await register("keeper");
    const made = await createKey(memory.services, agent, FULL_GRANT, { name: "worker", permissions: ["send", "read"] });
    expect(made).toMatchObject({ name: "worker", permissions: ["read", "send"], expiresAt: null });
    const holder = await holderOfKey(memory.services, made.key);
    expect(holder?.agent?.id).toBe("keeper");
    expect(holder?.grant).toEqual({
      keyId: made.id,
      permissions: ["read", "send"],
      expiresAt: null,
      podId: null,
      agents: null,
      hideJunk: false,
    });
    expect((await holderOfKey(memory.services, apiKey))?.grant).toEqual(FULL_GRANT);
  });

  test("listed without secrets, the primary key first; revoked, a key finds nothing", async () => {
    const { agent } = await register("lister");
    const made = await createKey(memory.services, agent, FULL_GRANT, { name: "dash", permissions: ["read"] });
    const listed = await listKeys(memory.services, agent, FULL_GRANT);
    expect(listed.map((key) => key.id)).toEqual([PRIMARY, made.id]);
    expect(JSON.stringify(listed)).not.toContain(made.key);
    await revokeKey(memory.services, agent, FULL_GRANT, made.id);
    expect(await holderOfKey(memory.services, made.key)).toBeNull();
    await expect(revokeKey(memory.services, agent, FULL_GRANT, made.id)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(revokeKey(memory.services, agent, FULL_GRANT, PRIMARY)).rejects.toMatchObject({ kind: "BAD_REQUEST" });
  });

  test("an expired key is no key", async () => {
    const { agent } = await register("lapsing");
    const expiresAt = new Date(memory.clock.now().getTime() + 60_000);
    const made = await createKey(memory.services, agent, FULL_GRANT, {
      name: "brief",
      permissions: ["read"],
      expiresAt,
    });
    expect(await holderOfKey(memory.services, made.key)).not.toBeNull();
    memory.clock.advance(60_000);
    expect(await holderOfKey(memory.services, made.key)).toBeNull();
  });

  test("making keys needs manage, and stays within the asking key's grant", async () => {
    const { agent } = await register("maker");
    const readOnly = { keyId: "k", permissions: ["read"] as const, expiresAt: null };
    await expect(
      createKey(memory.services, agent, readOnly, { name: "x", permissions: ["read"] }),
    ).rejects.toMatchObject({ kind: "FORBIDDEN", details: { permission: "manage" } });
    const manager = { keyId: "k", permissions: ["read", "manage"] as const, expiresAt: null };
    await expect(
      createKey(memory.services, agent, manager, { name: "x", permissions: ["send"] }),
    ).rejects.toMatchObject({ details: { permission: "send" } });
  });

  test("a name and a permission are required, and an expiry in the future", async () => {
    const { agent } = await register("strict");
    const make = (input: Parameters<typeof createKey>[3]) => createKey(memory.services, agent, FULL_GRANT, input);
    await expect(make({ name: " ", permissions: ["read"] })).rejects.toMatchObject({ kind: "BAD_REQUEST" });
    await expect(make({ name: "x", permissions: [] })).rejects.toMatchObject({ kind: "BAD_REQUEST" });
    await expect(make({ name: "x", permissions: ["read"], expiresAt: memory.clock.now() })).rejects.toMatchObject({
      kind: "BAD_REQUEST",
    });
  });

  test("an agent's key is limited to no agents: that is a pod's key's", async () => {
    const { agent } = await register("alone");
    await expect(
      createKey(memory.services, agent, FULL_GRANT, { name: "x", permissions: ["read"], agents: ["alone"] }),
    ).rejects.toMatchObject({ kind: "BAD_REQUEST", message: expect.stringContaining("a pod's keys only") });
    const made = await createKey(memory.services, agent, FULL_GRANT, { name: "y", permissions: ["read"] });
    expect(made.agents).toBeNull();
  });
});
