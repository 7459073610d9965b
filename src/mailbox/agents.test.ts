import { describe, expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { createAgent, deleteAgent, recipientAt, recipientsAt, rotateKey } from "./agents.ts";
import { deleteExpiredAgents } from "./cleanup.ts";
import { agentByKey } from "./keys.ts";
import { UNVERIFIED_LIFETIME_MS } from "./lifetimes.ts";

const memory = memoryOfFile({ VERIFICATION_MODE: "social", RESERVED_LOCAL_PARTS: "ceo" });

const register = (id: string, by: "self" | "operator" = "self", extra = {}) =>
  createAgent(memory.services, { id, name: `Agent ${id}`, ...extra }, by);

describe("registration", () => {
  test("an agent registers itself unverified, with a key that finds it and a verify link", async () => {
    const { agent, apiKey, verifyUrl, instruction } = await register("scout");
    expect(agent).toMatchObject({ id: "scout", verifiedAt: null, createdBy: "self", domain: "agents.example" });
    expect(verifyUrl).toMatch(/^https:\/\/mail\.agents\.example\/verify\/pv_/);
    expect(instruction).toContain("scout@agents.example");
    expect((await agentByKey(memory.services, apiKey))?.id).toBe("scout");
  });

  test("the operator's agent is verified at once", async () => {
    const { agent } = await register("made", "operator");
    expect(agent.verifiedAt).toEqual(memory.clock.now());
    expect(agent.verifiedBy).toBe("admin");
  });

  test("an id is taken whatever its case", async () => {
    await register("Taken");
    await expect(register("taken")).rejects.toMatchObject({ kind: "CONFLICT" });
  });

  test.each([
    ["", /id must be/],
    ["has space", /id must be/],
    ["x".repeat(65), /id must be/],
  ])("the id %j is refused", async (id, message) => {
    await expect(register(id)).rejects.toMatchObject({ kind: "BAD_REQUEST", message: expect.stringMatching(message) });
  });

  test.each([
    [{ name: "  " }, /name must be 1-128/],
    [{ name: "Pat <pat@x.example>" }, /must not contain/],
    [{ metadata: { a: { b: { c: { d: { e: { f: { g: { h: { i: { j: { k: 1 } } } } } } } } } } } }, /nest at most 10/],
    [{ metadata: { blob: "x".repeat(17_000) } }, /at most 16384 bytes/],
    [{ domain: "elsewhere.example" }, /./],
  ])("%j is refused", async (extra, message) => {
    await expect(register(`bad-${Math.random().toString(36).slice(2)}`, "self", extra)).rejects.toMatchObject({
      message: expect.stringMatching(message),
    });
  });

  test("reserved ids, built in or the operator's, are the operator's alone", async () => {
    await expect(register("postmaster")).rejects.toThrow(/reserved/);
    await expect(register("CEO")).rejects.toThrow(/RESERVED_LOCAL_PARTS/);
    expect((await register("abuse", "operator")).agent.verifiedBy).toBe("admin");
  });

  test("an id held by an agent nobody verified in time is free again", async () => {
    await register("lapsed");
    memory.clock.advance(UNVERIFIED_LIFETIME_MS + 1);
    const { agent } = await register("lapsed");
    expect(agent.createdAt).toEqual(memory.clock.now());
  });
});

describe("keys", () => {
  test("a rotated key replaces the old one at once; a second rotation with the old key fails", async () => {
    const { agent, apiKey } = await register("rotor");
    const { apiKey: next } = await rotateKey(memory.services, agent);
    expect(await agentByKey(memory.services, apiKey)).toBeNull();
    expect((await agentByKey(memory.services, next))?.id).toBe("rotor");
    await expect(rotateKey(memory.services, agent)).rejects.toMatchObject({ kind: "UNAUTHORIZED" });
  });
});

describe("deletion", () => {
  test("a deleted agent is gone with its key; deleting it again is a 404", async () => {
    const { agent, apiKey } = await register("gone");
    expect((await deleteAgent(memory.services, agent)).success).toBe(true);
    expect(await agentByKey(memory.services, apiKey)).toBeNull();
    await expect(deleteAgent(memory.services, agent)).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });

  test("the cleanup deletes unverified agents past their lifetime, and only those", async () => {
    const { agent: young } = await register("young");
    const { agent: verified } = await register("kept", "operator");
    memory.clock.advance(UNVERIFIED_LIFETIME_MS - 1_000);
    const { agent: younger } = await register("younger");
    memory.clock.advance(2_000);
    expect(await deleteExpiredAgents(memory.services)).toBeGreaterThanOrEqual(1);
    await expect(memory.reload(young)).rejects.toMatchObject({ kind: "NOT_FOUND" });
    expect((await memory.reload(verified)).id).toBe("kept");
    expect((await memory.reload(younger)).id).toBe("younger");
  });
});

describe("recipients", () => {
  test("each address's agent in one read: by its id in any case, at its own domain only", async () => {
    const { agent } = await register("Courier", "operator");
    const domain = memory.services.config.mailDomain;
    const addresses = [`courier@${domain}`, `COURIER@${domain}`, "courier@elsewhere.example", `nobody@${domain}`];
    const found = await memory.services.sql.transaction((tx) => recipientsAt(tx, memory.services.config, addresses));
    expect(addresses.map((address) => found.get(address)?.id ?? null)).toEqual([agent.id, agent.id, null, null]);
    expect(await recipientAt(memory.services.sql, memory.services.config, `courier@${domain}`)).toMatchObject({
      id: agent.id,
    });
  });
});
