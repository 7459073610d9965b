import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import type { Config } from "../config.ts";
import { keyPrefixOf } from "../wire-names.ts";
import { AGENT_COLUMNS, type AgentRecord, agentFromRow } from "./records.ts";
import type { Services } from "./services.ts";

// API keys are 32 random bytes behind a recognisable prefix. Only their
// SHA-256 is stored: a key has too much entropy to be guessed from it, and a
// fast hash lets every request find its key by an index.

/**
 * The token in a verification link: not the key, since a link ends up in
 * browser history, logs and Referer headers. It can only verify its agent.
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

export function hashApiKey(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("hex");
}

const BY_KEY = `SELECT ${AGENT_COLUMNS} FROM "Agent" WHERE "apiKeyHash" = ?`;
const BY_CLAIM = `SELECT ${AGENT_COLUMNS} FROM "Agent" WHERE "claimTokenHash" = ?`;

/** The agent a key belongs to, or null. */
export async function agentByKey({ sql }: Services, apiKey: string): Promise<AgentRecord | null> {
  const row = await sql.one(BY_KEY, [hashApiKey(apiKey)]);
  return row ? agentFromRow(sql, row) : null;
}

/** The agent a verification link is for, or null. */
export async function agentByClaimToken({ sql }: Services, claimToken: string): Promise<AgentRecord | null> {
  if (!CLAIM_TOKEN.test(claimToken)) return null;
  const row = await sql.one(BY_CLAIM, [hashApiKey(claimToken)]);
  return row ? agentFromRow(sql, row) : null;
}

/** Compared in constant time: digests of equal length, whatever was sent. */
export function sameSecret(given: string, secret: string): boolean {
  const digest = (value: string) => createHash("sha256").update(value).digest();
  return timingSafeEqual(digest(given), digest(secret));
}
