import type { AgentRecord } from "../mailbox/records.ts";
import type { Context } from "./context.ts";
import type { Need } from "./scopes.ts";

// A field that acts on the caller's own agent names it by an `agentId`
// argument. Its scope checks that the agent is the key's (403 for another,
// 404 for none), that the key holds the permission the field needs (403
// naming it) and, for most fields, that the agent is verified; its resolver
// is then given that agent. Each scope says what it needs as `permission`,
// which the MCP tool list, the OpenAPI document and a test read.

/** A scope function, with the permission it needs said where the schema's readers find it. */
export const needing = <F>(permission: Need, scope: F) => Object.assign(scope as F & object, { permission });

/** The scope of a field acting on the verified agent its agentId names, with the permission it needs. */
export const verifiedAgentArg = (permission: Need) =>
  needing(permission, (_parent: unknown, args: { agentId: string }) => ({
    verifiedAgent: { agentId: args.agentId, permission },
  }));

/** The scope of a field acting on the agent its agentId names, verified or not. */
export const ownAgentArg = (permission: Need) =>
  needing(permission, (_parent: unknown, args: { agentId: string }) => ({
    ownAgent: { agentId: args.agentId, permission },
  }));

/** The scope of a field of the (verified) Agent type. */
export const agentField = (permission: Need) =>
  needing(permission, (agent: AgentRecord) => ({ verifiedAgent: { agentId: agent.id, permission } }));

/** The scope of a field of a record the (verified) agent its agentId names holds. */
export const heldField = (permission: Need) =>
  needing(permission, (record: { agentId: string }) => ({ verifiedAgent: { agentId: record.agentId, permission } }));

/** The permission a field's scope declares: undefined when it declares none. */
export const permissionOf = (authScopes: unknown): Need | undefined =>
  (authScopes as { permission?: Need } | undefined)?.permission;

/** A resolver given the agent its agentId names, as its scope checked it (ctx.acting). */
export const forCaller =
  <Args extends { agentId: string }, T>(work: (agent: AgentRecord, args: Args, ctx: Context) => Promise<T>) =>
  async (_parent: unknown, args: Args, ctx: Context): Promise<T> =>
    work(await ctx.acting(args.agentId), args, ctx);

/** A Prisma field's resolver given the agent its agentId names, and the selection's query (name its type: the field's own is not inferred). */
export const forCallerWith =
  <Query, Args extends { agentId: string }, T>(
    work: (agent: AgentRecord, query: Query, args: Args, ctx: Context) => Promise<T>,
  ) =>
  async (query: Query, _parent: unknown, args: Args, ctx: Context): Promise<T> =>
    work(await ctx.acting(args.agentId), query, args, ctx);
