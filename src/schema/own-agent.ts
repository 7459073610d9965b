import type { AgentRecord } from "../mailbox/records.ts";
import type { Context } from "./context.ts";

// A field that acts on the caller's own agent names it by an `agentId`
// argument. Its scope checks that the agent is the key's (403 for another,
// 404 for none) and, for most fields, verified; its resolver is then given
// that agent.

/** The scope of a field acting on the verified agent its agentId names. */
export const verifiedAgentArg = (_parent: unknown, args: { agentId: string }) => ({ verifiedAgent: args.agentId });

/** The scope of a field acting on the agent its agentId names, verified or not. */
export const ownAgentArg = (_parent: unknown, args: { agentId: string }) => ({ ownAgent: args.agentId });

/** A resolver given the caller's agent. */
export const forCaller =
  <Args, T>(work: (agent: AgentRecord, args: Args, ctx: Context) => Promise<T>) =>
  async (_parent: unknown, args: Args, ctx: Context): Promise<T> =>
    work(await ctx.caller(), args, ctx);

/** A Prisma field's resolver given the caller's agent, and the selection's query (name its type: the field's own is not inferred). */
export const forCallerWith =
  <Query, Args, T>(work: (agent: AgentRecord, query: Query, args: Args, ctx: Context) => Promise<T>) =>
  async (query: Query, _parent: unknown, args: Args, ctx: Context): Promise<T> =>
    work(await ctx.caller(), query, args, ctx);
