import { createAgent } from "../mailbox/agents.ts";
import type { Grant } from "../mailbox/permissions.ts";
import { createPod } from "../mailbox/pods.ts";
import type { AgentRecord } from "../mailbox/records.ts";
import type { Memory } from "./memory.ts";

// Pods for unit tests: a pod made by the operator with its agents, and the
// grant of a key of the pod.

/** A pod holding these agents, made by the operator; the agents as stored, one for each id. */
export async function createPodWithAgents<const Ids extends readonly string[]>(
  memory: Memory,
  id: string,
  agents: Ids,
): Promise<{ [K in keyof Ids]: AgentRecord }> {
  await createPod(memory.services, { id, name: id });
  const made: AgentRecord[] = [];
  for (const agent of agents) {
    await createAgent(memory.services, { id: agent, name: agent, podId: id }, "operator");
    made.push(await memory.reload({ id: agent } as AgentRecord));
  }
  return made as { [K in keyof Ids]: AgentRecord };
}

/** A key of the pod with these permissions, on every agent of it unless `rest` names some. */
export const podGrant = (
  podId: string,
  permissions: Grant["permissions"] = ["read"],
  rest: Partial<Grant> = {},
): Grant => ({
  keyId: "key_pod",
  permissions,
  expiresAt: null,
  podId,
  agents: null,
  ...rest,
});
