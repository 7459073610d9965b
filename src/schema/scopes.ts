import { assertOwns, assertVerified } from "../mailbox/access.ts";
import { openQuarantineLink } from "../mailbox/quarantine.ts";
import type { Context } from "./context.ts";

// The one authorization choke point: every field that reaches an agent's data
// names a scope, and the Agent type carries one of its own. A scope either
// holds or throws the spec's error (401, 403 or 404, NOT_VERIFIED), with
// ownership checked before verification.

export function scopesOf(ctx: Context) {
  return {
    key: async () => {
      await ctx.caller();
      return true;
    },
    ownAgent: async (agentId: string) => {
      await assertOwns(ctx, await ctx.caller(), agentId);
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
    verifiedAgent: async (agentId: string) => {
      const caller = await ctx.caller();
      await assertOwns(ctx, caller, agentId);
      assertVerified(caller);
      return true;
    },
  };
}
