import { agentsOfPod } from "../db/pods.ts";
import { addressOf, createAgent, type Registration } from "./agents.ts";
import { assertPermitted, assertUnlimited, type Grant, lacking, PERMISSIONS } from "./permissions.ts";
import type { Services } from "./services.ts";

// A pod's agents as a key of the pod holding `agents` sees them: made in the
// pod (on its first domain when it has some, verified, since the operator
// vouched for the pod), and listed. A key limited to some agents lists those
// only, and makes none (it would not reach what it made); nor does a key less
// than an agent's primary key, which the new agent's answer hands out.

/** What making an agent needs of a pod's key: agents, and every permission of the agent's primary key it hands out. */
export const MAKES_AGENTS = ["agents", ...PERMISSIONS] as const;

export interface NewPodAgent {
  id: string;
  name: string;
}

/** An agent of a pod as its keys list it. */
export interface PodAgentView {
  id: string;
  email: string;
  name: string;
  createdAt: Date;
  verified: boolean;
}

/** A new agent of the pod, answered as a registration is: its primary key shown this once. */
export async function createPodAgent(
  services: Services,
  podId: string,
  grant: Grant,
  input: NewPodAgent,
): Promise<Registration> {
  assertPermitted(grant, "agents");
  if (grant.agents) throw lacking("agents", "A key limited to some of the pod's agents does not make agents");
  assertUnlimited(
    grant,
    "A key that makes an agent hands out its primary key, which may do everything for ever: it takes a key with no expiry that sees junk",
  );
  return createAgent(services, { id: input.id, name: input.name, podId: podId.toLowerCase() }, "pod");
}

/** The pod's agents the key reaches, oldest first. */
export async function listPodAgents(services: Services, podId: string, grant: Grant): Promise<PodAgentView[]> {
  assertPermitted(grant, "agents");
  const agents = await agentsOfPod(services, podId.toLowerCase(), grant.agents ?? null);
  return agents.map((agent) => ({
    id: agent.id,
    email: addressOf(agent, services.config),
    name: agent.name,
    createdAt: agent.createdAt,
    verified: agent.verifiedAt !== null,
  }));
}
