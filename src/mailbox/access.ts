import { agentByIdKey, liveAgentExists } from "../db/agents.ts";
import { excerpt, ServiceError } from "../errors.ts";
import type { KeyHolder } from "./keys.ts";
import { expiryCutoff } from "./lifetimes.ts";
import { reaches } from "./permissions.ts";
import type { AgentRecord } from "./records.ts";
import type { Services } from "./services.ts";

// Who may act on which agent. An agent's key acts only on its own agent: another
// existing agent is 403 and a missing one 404 (an expired agent counts as
// missing, whether or not the cleanup job has run). A pod's key acts on the
// agents of its pod it reaches, and is answered as an agent's key is for any
// other. Ownership is checked before verification. The API's authorization
// scopes apply these rules.

export const keyRequired = () => new ServiceError("UNAUTHORIZED", "API key is required");
export const keyInvalid = () => new ServiceError("UNAUTHORIZED", "API key is invalid");
/** An Authorization header of another scheme: the spec's wording, and the scheme to use. */
export const keyNotBearer = () =>
  new ServiceError("UNAUTHORIZED", "API key is invalid: send it as Authorization: Bearer <API key>");
/** A verification link dies with its agent: deleted, or never issued. */
export const claimInvalid = () =>
  new ServiceError("NOT_FOUND", "This verification link is not valid: its agent does not exist (any more)");

const notFound = (agentId: string) => new ServiceError("NOT_FOUND", `Agent ${excerpt(agentId)} not found`);

export async function assertOwns(services: Services, caller: AgentRecord, agentId: string): Promise<void> {
  if (caller.idKey === agentId.toLowerCase()) return;
  const other = await liveAgentExists(services, agentId.toLowerCase(), expiryCutoff(services.clock.now()));
  if (!other) throw notFound(agentId);
  throw new ServiceError("FORBIDDEN", "This API key belongs to another agent");
}

/** The agent a key acts on by its id: an agent's key its own; a pod's key one of its pod's agents it reaches. */
export async function reachedAgent(services: Services, { agent, grant }: KeyHolder, agentId: string) {
  if (agent) {
    await assertOwns(services, agent, agentId);
    return agent;
  }
  const idKey = agentId.toLowerCase();
  const found = await agentByIdKey(services, idKey);
  const cutoff = expiryCutoff(services.clock.now());
  if (!found || (found.verifiedAt === null && found.createdAt <= cutoff)) throw notFound(agentId);
  if (found.podId !== grant.podId || !reaches(grant, idKey)) {
    throw new ServiceError("FORBIDDEN", "This API key belongs to another agent");
  }
  return found;
}

export function assertVerified(agent: AgentRecord): void {
  if (agent.verifiedAt !== null) return;
  throw new ServiceError("FORBIDDEN", "Agent is not verified: complete verification first", { code: "NOT_VERIFIED" });
}
