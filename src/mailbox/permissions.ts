import { ServiceError } from "../errors.ts";

// What a key may do. A key's permissions are a whitelist: read (mail, threads,
// attachments, search), send (send, reply, forward, drafts), manage (folders,
// labels, deletion, lists, webhooks, keys) and events (long polls, streams,
// subscriptions), and for a pod's key agents (its agents and their keys). It
// may be limited further, by an expiry time, (a pod's key) to some of the
// pod's agents, and by hideJunk: barred from junk, it never sees mail in the
// junk folder by any read (quarantined mail no key sees: it is held out of
// the mailbox until a person releases it). An agent's primary key (from registration and rotate-key) has
// every permission of an agent and no expiry; a key makes keys only within
// its own grant.

/** Every permission an agent's key may hold. */
export const PERMISSIONS = ["read", "send", "manage", "events"] as const;
/** Every permission a pod's key may hold: an agent's, and agents. */
export const POD_PERMISSIONS = [...PERMISSIONS, "agents"] as const;
export type Permission = (typeof POD_PERMISSIONS)[number];

/** What the key a request presents may do. */
export interface Grant {
  /** The key's id; null for the agent's primary key. */
  keyId: string | null;
  permissions: readonly Permission[];
  /** Refused as invalid from then on; null: never. */
  expiresAt: Date | null;
  /** A pod's key: its pod; an agent's key has none. */
  podId?: string | null;
  /** A pod's key: the ids of the agents it reaches, lower case; null or left out: every agent of its pod. */
  agents?: readonly string[] | null;
  /** Barred from junk: it never sees mail in the junk folder. Left out: false. */
  hideJunk?: boolean;
}

/** The primary key's grant: everything, for ever. */
export const FULL_GRANT: Grant = { keyId: null, permissions: PERMISSIONS, expiresAt: null };

/** Whether the grant reaches the agent (by its id in lower case): an agent's key its own, a pod's key within its limit. */
export const reaches = (grant: Grant, idKey: string) => !grant.agents || grant.agents.includes(idKey);

/** A refusal naming the permission the key lacks: 403, the spec's body and `permission`. */
export const lacking = (permission: Permission, message = `This API key lacks the ${permission} permission`) =>
  new ServiceError("FORBIDDEN", message, { permission });

/** Whether the grant holds the permission. */
export const holds = (grant: Grant, permission: Permission) => grant.permissions.includes(permission);

export function assertPermitted(grant: Grant, permission: Permission): void {
  if (!holds(grant, permission)) throw lacking(permission);
}

/** Refuses (403, manage) a pod's key limited to some of its agents a change to what all of them share. */
export function assertReachesAll(grant: Grant): void {
  if (grant.agents) {
    throw lacking("manage", "A key limited to some of the pod's agents does not change what all of them share");
  }
}

/** Refuses (403, manage) a key barred from junk a webhook made or pointed elsewhere: a webhook hears of junk too. */
export function assertMayDirectWebhooks(grant: Grant): void {
  if (grant.hideJunk) {
    throw lacking("manage", "A key barred from junk cannot make or change a webhook: a webhook hears of junk mail too");
  }
}

/** The folder whose mail the grant never sees, by any read: junk for a key barred from it; null for none. */
export const hiddenFolder = (grant: Pick<Grant, "hideJunk">): string | null => (grant.hideJunk ? "junk" : null);

/** Whether the grant has lapsed by now: its key is then refused as an invalid one. */
export const expired = (grant: Grant, now: Date) => grant.expiresAt !== null && grant.expiresAt <= now;

/** Permissions as stored and shown: each once, in the canonical order. */
export const inOrder = (permissions: readonly Permission[]): Permission[] =>
  POD_PERMISSIONS.filter((permission) => permissions.includes(permission));

/**
 * Refuses (403, naming what the parent lacks) a child grant that would exceed its parent: a permission the parent
 * lacks, a later expiry (or none under an expiring parent), an agent beyond the parent's (or all of them), or junk
 * under a parent barred from it.
 */
export function assertWithin(parent: Grant, child: Omit<Grant, "keyId">): void {
  for (const permission of child.permissions) {
    if (!parent.permissions.includes(permission)) {
      throw lacking(permission, `A key cannot make a key with the ${permission} permission it lacks itself`);
    }
  }
  if (parent.expiresAt !== null && (child.expiresAt === null || child.expiresAt > parent.expiresAt)) {
    throw lacking("manage", "A key cannot make a key that outlives it: give an expiresAt no later than its own");
  }
  const limit = parent.agents;
  if (limit && (!child.agents || child.agents.some((agent) => !limit.includes(agent)))) {
    throw lacking("manage", "A key cannot make a key that reaches an agent it does not reach itself");
  }
  if (parent.hideJunk && !child.hideJunk) {
    throw lacking("manage", "A key barred from junk cannot make a key that sees junk: give hideJunk true");
  }
}

/**
 * Whether the grant holds every permission of an agent with no expiry, no agent limit and junk in sight: what only the
 * primary key's equal may do (rotate it).
 */
export const unlimited = (grant: Grant) =>
  PERMISSIONS.every((permission) => holds(grant, permission)) &&
  grant.expiresAt === null &&
  !grant.agents &&
  !grant.hideJunk;

/** Refuses (403) a grant that is not unlimited: naming the first permission it lacks, else manage, with `why`. */
export function assertUnlimited(grant: Grant, why: string): void {
  for (const permission of PERMISSIONS) assertPermitted(grant, permission);
  if (!unlimited(grant)) throw lacking("manage", why);
}
