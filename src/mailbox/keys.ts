import { createHash, randomBytes } from "node:crypto";
import { AGENT_COLUMNS, type AgentRecord, agentFromRow } from "./records.ts";
import type { Services } from "./services.ts";

// API keys are 32 random bytes behind a recognisable prefix. Only their
// SHA-256 is stored: a key has too much entropy to be guessed from it, and a
// fast hash lets every request find its key by an index.

const KEY_PREFIX = "ph_";

export function newApiKey(): { apiKey: string; apiKeyHash: string } {
  const apiKey = KEY_PREFIX + randomBytes(32).toString("base64url");
  return { apiKey, apiKeyHash: hashApiKey(apiKey) };
}

export function hashApiKey(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("hex");
}

const BY_KEY = `SELECT ${AGENT_COLUMNS} FROM "Agent" WHERE "apiKeyHash" = ?`;

/** The agent a key belongs to, or null. */
export async function agentByKey({ sql }: Services, apiKey: string): Promise<AgentRecord | null> {
  const row = await sql.one(BY_KEY, [hashApiKey(apiKey)]);
  return row ? agentFromRow(sql, row) : null;
}
