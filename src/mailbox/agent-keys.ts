import { randomBytes } from "node:crypto";
import { deleteKey, insertKey, keysOf, type ListedKey } from "../db/keys.ts";
import { excerpt, ServiceError } from "../errors.ts";
import { newApiKey } from "./keys.ts";
import {
  assertPermitted,
  assertWithin,
  type Grant,
  inOrder,
  lacking,
  PERMISSIONS,
  type Permission,
  unlimited,
} from "./permissions.ts";
import { type AgentRecord, agentLimitOf, permissionsOf } from "./records.ts";
import type { Services } from "./services.ts";

// An agent's keys: the primary one (registration's, replaced by rotate-key,
// every permission) and those made from it, from each other or from its
// pod's keys, each within the grant of the key that made it. Making, listing
// and revoking need `manage`. The secret is shown once; only its hash is kept.

/** The primary key's id and name in the list: it is not a Key row, and is never deleted (rotate-key replaces it). */
export const PRIMARY = "primary";

export interface NewKey {
  name: string;
  permissions: Permission[];
  expiresAt?: Date | null;
  /** A pod's key only: ids of the pod's agents it reaches; all of them when left out. */
  agents?: readonly string[] | null;
  /** Barred from junk: never sees mail in the junk folder (false when left out). */
  hideJunk?: boolean | null;
}

/** A key as shown: never its secret, but once, when it is made. */
export interface KeyView {
  id: string;
  name: string;
  permissions: Permission[];
  /** A pod's key: the agents it reaches, null for every agent of the pod; an agent's key: null. */
  agents: string[] | null;
  expiresAt: Date | null;
  /** Never sees mail in the junk folder. */
  hideJunk: boolean;
  createdAt: Date;
}

const NAME_MAX = 100;

/** A key's id: never its secret. */
export const newKeyId = () => `key_${randomBytes(12).toString("base64url")}`;

/**
 * A new key's name, permissions (in order), expiry and junk bar, checked; the `agents` permission is a pod's key's
 * only.
 */
export function checked(
  input: NewKey,
  now: Date,
  owner: "agent" | "pod",
): Pick<Grant, "permissions" | "expiresAt"> & { name: string; hideJunk: boolean } {
  const name = input.name.trim();
  if (name === "" || name.length > NAME_MAX) {
    throw new ServiceError("BAD_REQUEST", `A key's name is 1 to ${NAME_MAX} characters`);
  }
  if (input.permissions.length === 0) throw new ServiceError("BAD_REQUEST", "A key needs at least one permission");
  if (owner === "agent" && input.permissions.includes("agents")) {
    throw new ServiceError("BAD_REQUEST", "The agents permission is for a pod's keys only");
  }
  if (owner === "agent" && input.agents != null) {
    throw new ServiceError("BAD_REQUEST", "agents limits a pod's keys only: an agent's key reaches its agent alone");
  }
  const expiresAt = input.expiresAt ?? null;
  if (expiresAt !== null && expiresAt <= now) throw new ServiceError("BAD_REQUEST", "expiresAt must be in the future");
  return { name, permissions: inOrder(input.permissions), expiresAt, hideJunk: input.hideJunk ?? false };
}

export const viewOf = (key: ListedKey): KeyView => ({
  ...key,
  permissions: permissionsOf(key.permissions),
  agents: agentLimitOf(key.agents),
});

/**
 * A new key of the agent within the grant of the key that asks (which needs `manage`): the agent's own key, or its
 * pod's; its secret shown this once.
 */
export async function createKey(
  services: Services,
  agent: AgentRecord,
  grant: Grant,
  input: NewKey,
): Promise<KeyView & { key: string }> {
  assertPermitted(grant, "manage");
  const now = services.clock.now();
  const child = checked(input, now, "agent");
  assertWithin(grant, { ...child, agents: [agent.idKey] });
  // An agent's key with every permission and no limit may replace the primary key (rotate-key); a pod's key limited
  // to some agents may not, so it makes no such key.
  if (unlimited({ keyId: null, ...child }) && !unlimited(grant)) {
    throw lacking(
      "manage",
      "A key limited to some of the pod's agents cannot make a key that may replace an agent's primary key: leave out a permission, or give an expiresAt",
    );
  }
  const { apiKey, apiKeyHash } = newApiKey(services.config);
  const row = await insertKey(services, {
    id: newKeyId(),
    agentId: agent.id,
    hash: apiKeyHash,
    ...child,
    createdAt: now,
  });
  return { ...viewOf(row), key: apiKey };
}

/** The agent's keys, the primary one first: never a secret. */
export async function listKeys(services: Services, agent: AgentRecord, grant: Grant): Promise<KeyView[]> {
  assertPermitted(grant, "manage");
  const primary: KeyView = {
    id: PRIMARY,
    name: PRIMARY,
    permissions: [...PERMISSIONS],
    agents: null,
    expiresAt: null,
    hideJunk: false,
    createdAt: agent.createdAt,
  };
  return [primary, ...(await keysOf(services, { agentId: agent.id })).map(viewOf)];
}

/** Revokes one of the agent's keys at once, on every instance (each request reads its key's row). */
export async function revokeKey(
  services: Services,
  agent: AgentRecord,
  grant: Grant,
  keyId: string,
): Promise<{ success: boolean; message: string }> {
  assertPermitted(grant, "manage");
  if (keyId === PRIMARY) {
    throw new ServiceError("BAD_REQUEST", "The primary key is not revoked: rotate-key replaces it");
  }
  if (!(await deleteKey(services, { agentId: agent.id }, keyId))) {
    throw new ServiceError("NOT_FOUND", `Key ${excerpt(keyId)} not found`);
  }
  return { success: true, message: `Key ${keyId} was revoked; it no longer works` };
}
