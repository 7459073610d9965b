import { deleteKey, insertKey, keysOf } from "../db/keys.ts";
import { podAgentIds } from "../db/pods.ts";
import { excerpt, ServiceError } from "../errors.ts";
import { checked, type KeyView, type NewKey, newKeyId, viewOf } from "./agent-keys.ts";
import { newApiKey } from "./keys.ts";
import { assertPermitted, assertWithin, type Grant, POD_PERMISSIONS, reaches } from "./permissions.ts";
import { findPod } from "./pods.ts";
import type { Services } from "./services.ts";

// A pod's keys: made by the operator (any permissions) or by a pod's key
// holding `manage` (within its own permissions, expiry and agents), listed
// without secrets, revoked at once (by the operator, or by such a key). A pod's key may be limited to some of
// the pod's agents; it acts on the agent routes of the agents it reaches as
// their own key with the same permissions would (access.ts), and sees and
// revokes only the pod's keys limited to agents it reaches.

/** What the operator makes a pod's keys within: everything. */
const OPERATOR_GRANT: Grant = { keyId: null, permissions: POD_PERMISSIONS, expiresAt: null };

/** The agents a new key is limited to, each one of the pod's (400 otherwise); null: none named, all of them. */
async function agentLimit(services: Services, podId: string, ids: readonly string[] | null | undefined) {
  if (ids == null) return null;
  if (ids.length === 0) throw new ServiceError("BAD_REQUEST", "agents: name at least one, or leave it out for all");
  const found = await podAgentIds(services, podId, [...new Set(ids.map((id) => id.toLowerCase()))]);
  const missing = ids.find((id) => !found.some((agent) => agent.toLowerCase() === id.toLowerCase()));
  if (missing !== undefined) {
    throw new ServiceError("BAD_REQUEST", `agents: ${excerpt(missing)} is not an agent of pod ${podId}`);
  }
  return found;
}

async function makePodKey(services: Services, podId: string, grant: Grant, input: NewKey) {
  const now = services.clock.now();
  const child = checked(input, now, "pod");
  const agents = await agentLimit(services, podId, input.agents);
  assertWithin(grant, { ...child, agents: agents?.map((id) => id.toLowerCase()) ?? null });
  const { apiKey, apiKeyHash } = newApiKey(services.config);
  const row = await insertKey(services, {
    id: newKeyId(),
    podId,
    hash: apiKeyHash,
    ...child,
    ...(agents ? { agents } : {}),
    createdAt: now,
  });
  return { ...viewOf(row), key: apiKey };
}

/** A new key of the pod, made by the operator: any permissions; its secret shown this once. */
export async function createPodKeyAsOperator(services: Services, podId: string, input: NewKey) {
  const pod = await findPod(services, podId);
  return makePodKey(services, pod.id, OPERATOR_GRANT, input);
}

/** A new key of the pod within the grant of the pod's key that asks (which needs `manage`). */
export async function createPodKey(services: Services, podId: string, grant: Grant, input: NewKey) {
  assertPermitted(grant, "manage");
  return makePodKey(services, podId.toLowerCase(), grant, input);
}

/**
 * Whether a key of the pod is within the grant's reach: every key, for a key reaching all the pod's agents; else those
 * limited to agents it reaches (a key limited to some agents neither sees nor revokes a key reaching others).
 */
const withinReach = (grant: Grant, key: KeyView) =>
  !grant.agents || (key.agents?.every((id) => reaches(grant, id.toLowerCase())) ?? false);

/** The pod's keys within the grant's reach, oldest first: never a secret. */
export async function listPodKeys(services: Services, podId: string, grant: Grant): Promise<KeyView[]> {
  assertPermitted(grant, "manage");
  return (await keysOf(services, { podId: podId.toLowerCase() })).map(viewOf).filter((key) => withinReach(grant, key));
}

/** Revokes one of the pod's keys within the grant's reach at once, on every instance (each request reads its key's row). */
export async function revokePodKey(services: Services, podId: string, grant: Grant, keyId: string) {
  assertPermitted(grant, "manage");
  const notFound = () => new ServiceError("NOT_FOUND", `Key ${excerpt(keyId)} not found`);
  if (grant.agents && !(await listPodKeys(services, podId, grant)).some((key) => key.id === keyId)) throw notFound();
  if (!(await deleteKey(services, { podId: podId.toLowerCase() }, keyId))) throw notFound();
  return { success: true, message: `Key ${keyId} was revoked; it no longer works` };
}

/** The pod's keys, for the operator: 404 for no such pod. */
export async function listPodKeysAsOperator(services: Services, podId: string): Promise<KeyView[]> {
  const pod = await findPod(services, podId);
  return listPodKeys(services, pod.id, OPERATOR_GRANT);
}

/** Revokes one of the pod's keys at once, for the operator: 404 for no such pod or key. */
export async function revokePodKeyAsOperator(services: Services, podId: string, keyId: string) {
  const pod = await findPod(services, podId);
  return revokePodKey(services, pod.id, OPERATOR_GRANT, keyId);
}
