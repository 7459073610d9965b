import { expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { agentByIdKey, insertAgent, markPodAgentsVerified, markVerified, type NewAgentRow } from "./agents.ts";
import { insertPod, placementAt, withDomainsLocked } from "./pods.ts";

// An agent a key of its pod makes is verified with the pod as the insert's
// own transaction finds the pod, not as the maker read it before: a pod
// verified in between (its agents then being the ones already there) still
// verifies it. Its domain is found so too: one deleted in between takes no
// agent.

const memory = memoryOfFile();
const DAY_MS = 24 * 60 * 60 * 1000;

async function newPod(id: string) {
  const pod = {
    id,
    name: id,
    createdAt: memory.clock.now(),
    sendPolicy: null,
    verifiedAt: null,
    verifiedBy: null,
    socialUsername: null,
    verificationCode: null,
    verificationExpires: null,
    claimTokenHash: null,
  };
  expect(await withDomainsLocked(memory.services, [], (tx) => insertPod(tx, pod, []))).not.toBeNull();
}

/** The pod's verification as the operator's runs it: the pod, then its agents, in one transaction. */
async function verifyPod(id: string): Promise<string[]> {
  const at = memory.clock.now();
  const cutoff = new Date(at.getTime() - DAY_MS);
  return memory.services.sql.transaction(async (tx) => {
    const verification = { at, by: "admin", socialUsername: null, code: null } as const;
    expect(await markVerified(tx, "pod", id, verification, cutoff)).toBe("verified");
    return markPodAgentsVerified(tx, id, at, cutoff);
  });
}

const rowFor = (id: string, podId: string, createdBy = "pod"): NewAgentRow => ({
  id,
  idKey: id,
  name: id,
  domain: "agents.example",
  podId,
  apiKeyHash: `key-${id}`,
  claimTokenHash: `claim-${id}`,
  createdAt: memory.clock.now(),
  createdBy,
});

async function insert(row: NewAgentRow, withPod: boolean) {
  const placement = await placementAt(memory.services.sql, row.podId, row.domain);
  return insertAgent(memory.services, row, {
    configured: false,
    cutoff: new Date(memory.clock.now().getTime() - DAY_MS),
    withPod,
    placement,
  });
}

test("an agent made as its pod is verified, from a read of the pod before, is verified with it", async () => {
  await newPod("racing");
  const row = rowFor("latecomer", "racing");
  expect(await verifyPod("racing")).toEqual([]);
  const agent = await insert(row, true);
  expect(agent).toMatchObject({ id: "latecomer", verifiedBy: "pod", verifiedAt: row.createdAt, metadata: null });
});

test("an agent of an unverified pod waits; one made otherwise keeps the verification its row has", async () => {
  await newPod("waiting");
  expect(await insert(rowFor("waiter", "waiting"), true)).toMatchObject({ verifiedAt: null, verifiedBy: null });
  await newPod("vouched");
  await verifyPod("vouched");
  const byOperator = {
    ...rowFor("appointed", "vouched", "operator"),
    verifiedAt: memory.clock.now(),
    verifiedBy: "admin",
  };
  expect(await insert(byOperator, false)).toMatchObject({ verifiedBy: "admin", createdBy: "operator" });
  expect(await insert(rowFor("appointed", "vouched"), true)).toBe("taken");
});

test("an agent is not added at a domain no longer served, and its id stays free", async () => {
  const row = { ...rowFor("stray", "none", "operator"), podId: null, domain: "gone.example" };
  expect(await insert(row, false)).toBe("unserved");
  expect(await agentByIdKey(memory.services, "stray")).toBeNull();
});
