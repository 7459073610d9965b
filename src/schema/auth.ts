import { createHash, randomBytes } from "node:crypto";
import { ServiceError } from "../errors.ts";
import type { Agent } from "../generated/prisma/sqlite/client.ts";
import { expiredAgents } from "../lifetimes.ts";
import type { Context } from "./context.ts";

// API keys are 32 random bytes behind a recognisable prefix. Only their
// SHA-256 is stored: a key has too much entropy to be guessed from it, and a
// fast hash lets every request look its key up by an index.

const KEY_PREFIX = "ph_";

export function newApiKey(): { apiKey: string; apiKeyHash: string } {
  const apiKey = KEY_PREFIX + randomBytes(32).toString("base64url");
  return { apiKey, apiKeyHash: hashApiKey(apiKey) };
}

export function hashApiKey(apiKey: string): string {
  return createHash("sha256").update(apiKey).digest("hex");
}

/** The agent the request's key belongs to: 401 without a key or with a wrong one. */
export async function keyAgent(ctx: Context): Promise<Agent> {
  const { apiKey } = ctx;
  if (apiKey === null) throw new ServiceError("UNAUTHORIZED", "API key is required");
  ctx.keyAgent ??= ctx.prisma.agent.findUnique({ where: { apiKeyHash: hashApiKey(apiKey) } });
  const agent = await ctx.keyAgent;
  if (!agent) throw new ServiceError("UNAUTHORIZED", "API key is invalid");
  return agent;
}

/**
 * The agent named in the path, when the key is its own. A key acts only on its
 * own agent: another existing agent is 403 and a missing one 404. Ownership is
 * checked before verification.
 */
export async function ownAgent(ctx: Context, agentId: string, { verified }: { verified: boolean }): Promise<Agent> {
  const agent = await keyAgent(ctx);
  if (agent.idKey !== agentId.toLowerCase()) {
    // An expired agent is gone already, whether or not the cleanup job has run.
    const other = await ctx.prisma.agent.findFirst({
      where: { idKey: agentId.toLowerCase(), NOT: expiredAgents(ctx.clock.now()) },
      select: { id: true },
    });
    if (!other) throw new ServiceError("NOT_FOUND", `Agent ${agentId} not found`);
    throw new ServiceError("FORBIDDEN", "This API key belongs to another agent");
  }
  if (verified && agent.verifiedAt === null) {
    throw new ServiceError("FORBIDDEN", "Agent is not verified: complete verification first", { code: "NOT_VERIFIED" });
  }
  return agent;
}
