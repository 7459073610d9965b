import type { Config } from "../config.ts";

// An agent's limits: the operator's for that agent (admin API or CLI), else
// the instance's STORAGE_LIMIT_BYTES and DAILY_SEND_LIMIT.

export interface AgentLimits {
  storageBytes: number;
  dailySends: number;
}

export function limitsOf(
  agent: { storageLimit: number | null; dailySendLimit: number | null },
  config: Pick<Config, "storageLimitBytes" | "dailySendLimit">,
): AgentLimits {
  return {
    storageBytes: agent.storageLimit ?? config.storageLimitBytes,
    dailySends: agent.dailySendLimit ?? config.dailySendLimit,
  };
}
