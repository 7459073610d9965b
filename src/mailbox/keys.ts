import { hash as digest, randomBytes, timingSafeEqual } from "node:crypto";
import type { Config } from "../config.ts";
import { agentByClaimHash, holderByKeyHash, type KeyGrantRow } from "../db/agents.ts";
import { podIdByClaimHash } from "../db/pods.ts";
import { keyPrefixOf } from "../wire-names.ts";
import { expired, FULL_GRANT, type Grant } from "./permissions.ts";
import { type AgentRecord, agentLimitOf, permissionsOf } from "./records.ts";
import type { Services } from "./services.ts";

// API keys are 32 random bytes behind a recognisable prefix. Only their
// SHA-256 is stored: a key has too much entropy to be guessed from it, and a
// fast hash lets every request find its key by an index.

/**
 * The token in a verification link: not the key, since a link ends up in
 * browser history, logs and Referer headers. It can only verify its agent
 * (or pod).
 */
const CLAIM_PREFIX = "pv_";
export const CLAIM_TOKEN = /^pv_[A-Za-z0-9_-]{43}$/;

/** A random secret behind its prefix, and the hash that is stored instead. */
function newSecret(prefix: string): { secret: string; hash: string } {
  const secret = prefix + randomBytes(32).toString("base64url");
  return { secret, hash: hashApiKey(secret) };
}

/** A key behind this instance's prefix (`ph_`, or ClawMail's `cmail_`): any prefix works, only the hash is looked up. */
export function newApiKey(config: Pick<Config, "wireNames">): { apiKey: string; apiKeyHash: string } {
  const { secret, hash } = newSecret(keyPrefixOf(config));
  return { apiKey: secret, apiKeyHash: hash };
}

export function newClaimToken(): { claimToken: string; claimTokenHash: string } {
  const { secret, hash } = newSecret(CLAIM_PREFIX);
  return { claimToken: secret, claimTokenHash: hash };
}

/** The token in a held message's review link: good for deciding that one message only. */
const REVIEW_PREFIX = "pr_";
export const REVIEW_TOKEN = /^pr_[A-Za-z0-9_-]{43}$/;

/** A review link: its token's hash, kept, and its address, which only the reviewer is told. */
export interface Link {
  tokenHash: string;
  url: string;
}

export function newReviewLink(config: Pick<Config, "publicUrl">): Link {
  const { secret, hash } = newSecret(REVIEW_PREFIX);
  return { tokenHash: hash, url: `${config.publicUrl}/review/${secret}` };
}

export function hashApiKey(apiKey: string): string {
  // The one-shot digest: no Hash object for a string hashed on every request.
  return digest("sha256", apiKey, "hex");
}

/**
 * The agent a key belongs to (none for a pod's key) and what the key may do; null for no such key, or one expired
 * (refused alike).
 */
export async function holderOfKey(services: Services, apiKey: string): Promise<KeyHolder | null> {
  const found = await holderByKeyHash(services, hashApiKey(apiKey));
  if (!found) return null;
  const grant = found.key === null ? FULL_GRANT : grantOf(found.key);
  return expired(grant, services.clock.now()) ? null : { agent: found.agent, grant };
}

/** The agent a key belongs to, or null (for a pod's key too). */
export async function agentByKey(services: Services, apiKey: string): Promise<AgentRecord | null> {
  return (await holderOfKey(services, apiKey))?.agent ?? null;
}

/** Whether the key is one of this instance's (an agent's or a pod's), in force. */
export async function isKey(services: Services, apiKey: string): Promise<boolean> {
  return (await holderOfKey(services, apiKey)) !== null;
}

/** An agent behind a key, and what that key may do; a pod's key has no agent of its own (its grant names its pod). */
export interface KeyHolder {
  agent: AgentRecord | null;
  grant: Grant;
}

const grantOf = (key: KeyGrantRow): Grant => ({
  keyId: key.id,
  permissions: permissionsOf(key.permissions),
  expiresAt: key.expiresAt,
  podId: key.podId,
  agents: agentLimitOf(key.agents)?.map((id) => id.toLowerCase()) ?? null,
  hideJunk: key.hideJunk,
});

/** The agent or (by its id) the pod a verification link is for, or null. */
export async function claimHolder(
  services: Services,
  claimToken: string,
): Promise<{ agent: AgentRecord } | { podId: string } | null> {
  if (!CLAIM_TOKEN.test(claimToken)) return null;
  const hash = hashApiKey(claimToken);
  const agent = await agentByClaimHash(services, hash);
  if (agent) return { agent };
  const podId = await podIdByClaimHash(services, hash);
  return podId === null ? null : { podId };
}

/** Compared in constant time: digests of equal length, whatever was sent. */
export function sameSecret(given: string, secret: string): boolean {
  const sha256 = (value: string) => digest("sha256", value, "buffer");
  return timingSafeEqual(sha256(given), sha256(secret));
}
