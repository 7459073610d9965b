import { ServiceError } from "../errors.ts";
import { assertVerified } from "../mailbox/access.ts";
import {
  assertMayDirectWebhooks,
  assertPermitted,
  assertUnlimited,
  type Grant,
  type Permission,
} from "../mailbox/permissions.ts";
import { openQuarantineLink } from "../mailbox/quarantine.ts";
import type { Context } from "./context.ts";

// The one authorization choke point: every field that reaches an agent's data
// names a scope, and the Agent type carries one of its own. A scope either
// holds or throws the spec's error (401, 403 or 404, NOT_VERIFIED), with
// ownership checked first, then the key's permission, then verification.

/**
 * What a field needs of the key: a permission, several (each of them: an answer that shows mail needs read besides
 * what the act needs), those of a webhook ("webhooks", below), every permission with no limit ("every"), or nothing
 * beyond the key.
 */
export type Need = Permission | readonly [Permission, ...Permission[]] | "webhooks" | "every" | null;

/**
 * What making a webhook, pointing it elsewhere or taking its secret needs ("webhooks"): manage, and events, which
 * it hears; the key not barred from junk, as a webhook hears of junk mail too.
 */
const WEBHOOKS_NEED = ["manage", "events"] as const;

/** The agent a field acts on, and what it needs of the key. */
export interface AgentAccess {
  agentId: string;
  permission: Need;
}

/** What a scope's result is kept by for the request: an access by its agent and permission, else the argument itself. */
export function scopeKey(argument: unknown): unknown {
  if (typeof argument !== "object" || argument === null || !("agentId" in argument)) return argument;
  const { agentId, permission } = argument as AgentAccess;
  return `${String(permission ?? "")}\u0000${agentId}`;
}

/** The permissions a need names, each of them needed. */
export const needed = (need: Exclude<Need, "every" | null>): readonly Permission[] =>
  need === "webhooks" ? WEBHOOKS_NEED : typeof need === "string" ? [need] : need;

function assertNeed(grant: Grant, need: Need): void {
  if (need === null) return;
  if (need !== "every") {
    for (const permission of needed(need)) assertPermitted(grant, permission);
    if (need === "webhooks") assertMayDirectWebhooks(grant);
    return;
  }
  assertUnlimited(grant, "Only a key with every permission and no expiry or other limit can do this");
}

/** A pod a field acts on, and what it needs of the key. */
export interface PodAccess {
  podId: string;
  permission: Need;
}

export function scopesOf(ctx: Context) {
  const own = async ({ agentId, permission }: AgentAccess) => {
    const agent = await ctx.acting(agentId);
    assertNeed(await ctx.grant(), permission);
    return agent;
  };
  return {
    key: async () => {
      await ctx.caller();
      return true;
    },
    ownAgent: async (access: AgentAccess) => {
      await own(access);
      return true;
    },
    podKey: async ({ podId, permission }: PodAccess) => {
      const { grant } = await ctx.holder();
      if (grant.podId == null || grant.podId !== podId.toLowerCase()) {
        throw new ServiceError("FORBIDDEN", "This API key is not a key of this pod");
      }
      assertNeed(grant, permission);
      return true;
    },
    operator: async () => {
      await ctx.operator();
      return true;
    },
    verifier: async (claimToken: string | null) => {
      await ctx.verifying(claimToken);
      return true;
    },
    reviewer: async (token: string) => {
      await ctx.notAnAgent();
      await ctx.reviewing(token);
      return true;
    },
    quarantineReviewer: async (token: string) => {
      await ctx.notAnAgent();
      await openQuarantineLink(ctx, token);
      return true;
    },
    verifiedAgent: async (access: AgentAccess) => {
      assertVerified(await own(access));
      return true;
    },
  };
}
