import { describe, expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { podGrant } from "../testing/pods.ts";
import { createAgent } from "./agents.ts";
import { addDomain } from "./domains.ts";
import { POD_PERMISSIONS } from "./permissions.ts";
import { createPodAgent, listPodAgents } from "./pod-agents.ts";
import { createPod, deletePod, findPod, listPods, setPodPolicy, setPodSendPolicy, updatePod } from "./pods.ts";

const memory = memoryOfFile({ VERIFICATION_MODE: "none" });
const strict = memoryOfFile({ VERIFICATION_MODE: "none", SEND_POLICY: "review_all" });

describe("pods", () => {
  test("made, listed, renamed and deleted; an id is lower case only", async () => {
    const pod = await createPod(memory.services, { id: "team-a", name: "Team A" });
    expect(pod).toMatchObject({ id: "team-a", name: "Team A", domains: [], agents: 0 });
    expect((await listPods(memory.services)).map((p) => p.id)).toContain("team-a");
    expect((await updatePod(memory.services, "team-a", { name: " Renamed " })).name).toBe("Renamed");
    await expect(createPod(memory.services, { id: "team-a", name: "Again" })).rejects.toMatchObject({
      kind: "CONFLICT",
    });
    await expect(createPod(memory.services, { id: "Team-B", name: "B" })).rejects.toMatchObject({
      kind: "BAD_REQUEST",
    });
    await deletePod(memory.services, "team-a");
    await expect(findPod(memory.services, "team-a")).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });

  test("a pod's domains are served ones, one pod each; its agents go there, and nobody else does", async () => {
    await addDomain(memory.services, "pod.example", false);
    await expect(
      createPod(memory.services, { id: "nowhere", name: "N", domains: ["x.example"] }),
    ).rejects.toMatchObject({ kind: "BAD_REQUEST" });
    await createPod(memory.services, { id: "holder", name: "H", domains: ["POD.example."] });
    expect((await findPod(memory.services, "holder")).domains).toEqual(["pod.example"]);
    await expect(
      createPod(memory.services, { id: "second", name: "S", domains: ["pod.example"] }),
    ).rejects.toMatchObject({ kind: "CONFLICT" });
    const { agent } = await createAgent(memory.services, { id: "member", name: "M", podId: "holder" }, "operator");
    expect([agent.podId, agent.domain]).toEqual(["holder", "pod.example"]);
    const self = createAgent(memory.services, { id: "intruder", name: "I", domain: "pod.example" }, "self");
    await expect(self).rejects.toMatchObject({ kind: "FORBIDDEN" });
    const operator = createAgent(memory.services, { id: "outsider", name: "O", domain: "pod.example" }, "operator");
    await expect(operator).rejects.toMatchObject({ kind: "FORBIDDEN" });
    const elsewhere = createAgent(
      memory.services,
      { id: "astray", name: "A", domain: "agents.example", podId: "holder" },
      "operator",
    );
    await expect(elsewhere).rejects.toMatchObject({ kind: "BAD_REQUEST" });
    await expect(updatePod(memory.services, "holder", { domains: [] })).rejects.toMatchObject({ kind: "CONFLICT" });
  });

  test("a domain where agents outside the pod live is not given to it; a pod holding agents is not deleted", async () => {
    await createAgent(memory.services, { id: "resident", name: "R" }, "self");
    await expect(
      createPod(memory.services, { id: "grabber", name: "G", domains: ["agents.example"] }),
    ).rejects.toMatchObject({ kind: "CONFLICT" });
    await createPod(memory.services, { id: "busy", name: "B" });
    await createAgent(memory.services, { id: "busy-one", name: "B1", podId: "busy" }, "operator");
    expect((await findPod(memory.services, "busy")).agents).toBe(1);
    await expect(deletePod(memory.services, "busy")).rejects.toMatchObject({ kind: "CONFLICT" });
  });

  test("a pod's key with agents makes verified agents in the pod, on its domain; a limited key lists its own only", async () => {
    await addDomain(memory.services, "crew.example", false);
    await createPod(memory.services, { id: "crew", name: "Crew", domains: ["crew.example"] });
    const grant = { keyId: "k", permissions: POD_PERMISSIONS, expiresAt: null, podId: "crew", agents: null };
    const made = await createPodAgent(memory.services, "crew", grant, { id: "deckhand", name: "Deckhand" });
    expect(made.agent).toMatchObject({ podId: "crew", domain: "crew.example", createdBy: "pod", verifiedBy: "pod" });
    expect(made.apiKey).toMatch(/^ph_/);
    await createPodAgent(memory.services, "crew", grant, { id: "cook", name: "Cook" });
    await expect(createPodAgent(memory.services, "crew", grant, { id: "postmaster", name: "P" })).rejects.toMatchObject(
      { kind: "BAD_REQUEST" },
    );
    const limited = { ...grant, agents: ["cook"] };
    expect((await listPodAgents(memory.services, "crew", limited)).map((agent) => agent.id)).toEqual(["cook"]);
    // It hands out the new agent's primary key: a key short of one makes none.
    const short = [
      { ...grant, permissions: ["agents" as const] },
      { ...grant, expiresAt: new Date(Date.now() + 3_600_000) },
      { ...grant, hideJunk: true },
      limited,
    ];
    for (const grant of short) {
      await expect(createPodAgent(memory.services, "crew", grant, { id: "mate", name: "Mate" })).rejects.toMatchObject({
        kind: "FORBIDDEN",
      });
    }
    // Made at one instant of the test's clock: by id.
    expect((await listPodAgents(memory.services, "crew", grant)).map((agent) => agent.email)).toEqual([
      "cook@crew.example",
      "deckhand@crew.example",
    ]);
    await expect(createPodAgent(memory.services, "crew", limited, { id: "x", name: "X" })).rejects.toMatchObject({
      kind: "FORBIDDEN",
    });
    const readOnly = { ...grant, permissions: ["read"] as const };
    await expect(listPodAgents(memory.services, "crew", readOnly)).rejects.toMatchObject({
      kind: "FORBIDDEN",
      details: { permission: "agents" },
    });
  });
});

describe("a pod's send policy, set by its key", () => {
  const manager = podGrant("ratchet", ["manage"]);
  const bySet = (policy: string | null) => setPodPolicy(memory.services, "ratchet", manager, policy);

  test("only ever stricter: loosening it, or going back to a looser SEND_POLICY, is the operator's", async () => {
    await createPod(memory.services, { id: "ratchet", name: "Ratchet" });
    expect(await bySet("review_new_recipients")).toEqual({
      sendPolicy: "review_new_recipients",
      sendPolicyOverride: "review_new_recipients",
    });
    expect(await bySet("review_all")).toMatchObject({ sendPolicy: "review_all" });
    expect(await bySet("review_all")).toMatchObject({ sendPolicy: "review_all" });
    for (const looser of ["open", "review_new_recipients", null]) {
      await expect(bySet(looser)).rejects.toMatchObject({ kind: "FORBIDDEN" });
    }
    expect(await setPodSendPolicy(memory.services, "ratchet", "open")).toMatchObject({ sendPolicy: "open" });
    expect(await bySet(null)).toEqual({ sendPolicy: "open", sendPolicyOverride: null });
  });

  test("under a strict SEND_POLICY a key can neither set a looser policy nor keep one the operator set", async () => {
    await createPod(strict.services, { id: "ratchet", name: "Ratchet" });
    const set = (policy: string | null) => setPodPolicy(strict.services, "ratchet", manager, policy);
    await expect(set("open")).rejects.toMatchObject({ kind: "FORBIDDEN" });
    expect(await set(null)).toEqual({ sendPolicy: "review_all", sendPolicyOverride: null });
    await setPodSendPolicy(strict.services, "ratchet", "open");
    expect(await set("review_new_recipients")).toMatchObject({ sendPolicy: "review_new_recipients" });
    await expect(set(null).then(() => set("open"))).rejects.toMatchObject({ kind: "FORBIDDEN" });
  });
});
