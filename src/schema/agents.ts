import { requestScope } from "../log.ts";
import { addressOf, agentWith, createAgent, deleteAgent, type Registration, rotateKey } from "../mailbox/agents.ts";
import { limitsOf } from "../mailbox/limits.ts";
import { builder, OutcomeType } from "./builder.ts";
import type { Context } from "./context.ts";
import { forCaller, needing, ownAgentArg } from "./own-agent.ts";

// Agents and their keys. The Agent type is only ever seen by its own key, or
// by whoever has just registered it.

/** Scope granted to the agent in a registration's answer. */
const REGISTRATION = "registration";

export const AgentType = builder.prismaObject("Agent", {
  // What reached the agent has checked it already (a root field's scope, by ctx.acting): said at once, so that
  // reading its fields waits on nothing. Else checked here, or granted by a registration's answer.
  authScopes: (agent, ctx) =>
    ctx.knownActing(agent.id)?.verifiedAt != null || {
      $granted: REGISTRATION,
      verifiedAgent: { agentId: agent.id, permission: null },
    },
  fields: (t) => ({
    id: t.exposeID("id"),
    email: t.string({
      description: "The agent's mailbox address",
      resolve: (agent, _, ctx) => addressOf(agent, ctx.config),
    }),
    name: t.exposeString("name"),
    metadata: t.field({ type: "JSONObject", nullable: true, resolve: (agent) => agent.metadata }),
    createdAt: t.expose("createdAt", { type: "Timestamp" }),
    verified: t.boolean({ resolve: (agent) => agent.verifiedAt !== null }),
    verifiedAt: t.expose("verifiedAt", { type: "Timestamp", nullable: true }),
    storageUsed: t.exposeInt("storageUsed", { description: "Bytes in use" }),
    storageLimit: t.int({
      description: "Bytes allowed",
      resolve: (agent, _, ctx) => limitsOf(agent, ctx.config).storageBytes,
    }),
  }),
});

export const CreateAgentInput = builder.inputType("CreateAgentInput", {
  fields: (t) => ({
    id: t.string({
      required: true,
      description: "1-64 letters, digits, dashes or underscores; the address's local part",
    }),
    name: t.string({ required: true, description: "Display name, 1-128 characters, without <, > or @" }),
    metadata: t.field({
      type: "JSONObject",
      description: "Custom key-value data, at most 16 KiB as JSON, nesting at most 10 levels",
    }),
    domain: t.string({
      description: "A domain open to registration (domains): the address's; the first when left out",
    }),
  }),
});

export const CreateAgentPayload = builder.objectRef<Registration>("CreateAgentPayload").implement({
  fields: (t) => ({
    agent: t.field({ type: AgentType, grantScopes: [REGISTRATION], resolve: (payload) => payload.agent }),
    apiKey: t.exposeString("apiKey", { description: "Shown only now" }),
    verifyUrl: t.exposeString("verifyUrl", {
      description: "A page where a person verifies this agent; it can do nothing else, so it is safe to hand over",
    }),
    instruction: t.exposeString("instruction", { description: "What a person does next to verify the agent" }),
  }),
});

const RotateApiKeyPayload = builder.objectRef<{ apiKey: string; message: string }>("RotateApiKeyPayload").implement({
  fields: (t) => ({
    apiKey: t.exposeString("apiKey", { description: "Shown only now; the previous key stopped working" }),
    message: t.exposeString("message"),
  }),
});

builder.queryField("agent", (t) =>
  t.prismaField({
    type: "Agent",
    nullable: true,
    description: "Your own agent; it must be verified.",
    args: { id: t.arg.id({ required: true }) },
    authScopes: needing(null, (_: unknown, args: { id: string }) => ({
      verifiedAgent: { agentId: args.id, permission: null },
    })),
    resolve: async (query, _, { id }, ctx) => agentWith(ctx, await ctx.acting(id), query),
  }),
);

builder.queryField("me", (t) =>
  t.prismaField({
    type: "Agent",
    nullable: true,
    description: "The agent the API key belongs to; it must be verified (null with NOT_VERIFIED until it is).",
    authScopes: needing(null, async (_: unknown, __: unknown, ctx: Context) => ({
      verifiedAgent: { agentId: (await ctx.caller()).id, permission: null },
    })),
    resolve: async (query, _, __, ctx) => agentWith(ctx, await ctx.caller(), query),
  }),
);

builder.mutationFields((t) => ({
  createAgent: t.field({
    type: CreateAgentPayload,
    description: "Registers an agent. Needs no API key.",
    args: { input: t.arg({ type: CreateAgentInput, required: true }) },
    resolve: async (_, { input }, ctx) => {
      await ctx.limits.registration(requestScope.getStore()?.clientIp ?? "unknown");
      return createAgent(ctx, input, "self");
    },
  }),
  rotateApiKey: t.field({
    type: RotateApiKeyPayload,
    description: "Issues a new API key; the current one stops working at once.",
    args: { agentId: t.arg.id({ required: true }) },
    authScopes: ownAgentArg("every"),
    resolve: forCaller((agent, _, ctx) => rotateKey(ctx, agent)),
  }),
  deleteAgent: t.field({
    type: OutcomeType,
    description: "Deletes the agent with all its mail and data, permanently.",
    args: { agentId: t.arg.id({ required: true }) },
    authScopes: ownAgentArg("manage"),
    resolve: forCaller((agent, _, ctx) => deleteAgent(ctx, agent)),
  }),
}));
