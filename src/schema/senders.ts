import { ServiceError } from "../errors.ts";
import {
  type AgentSenders,
  getPodLists,
  getSenders,
  type ListOwner,
  type ScopeLists,
  type SenderLists,
  setPodLists,
  setSenders,
} from "../mailbox/senders.ts";
import { AgentType } from "./agents.ts";
import { builder } from "./builder.ts";
import { agentField, forCaller, verifiedAgentArg } from "./own-agent.ts";
import { podArgs, podKeyArg } from "./pods.ts";

// Allow and block lists: the agent's own receive lists, on the agent; a pod's
// lists for a key of the pod holding manage; every scope's lists for the
// operator (the admin namespace's fields, in admin.ts, take the arguments and
// resolvers below).

const SenderListsType = builder.objectRef<AgentSenders>("SenderLists").implement({
  description: "The agent's own receive lists: who it takes mail from.",
  fields: (t) => ({
    allow: t.exposeStringList("allow", {
      description: "Addresses, @domains and @*.domains (with subdomains), lower case: explicitly allowed",
    }),
    block: t.exposeStringList("block", { description: "Addresses, @domains and @*.domains never filed" }),
    allowOnly: t.exposeBoolean("allowOnly", { description: "Only senders in allow reach the agent" }),
  }),
});

builder.prismaObjectFields(AgentType, (t) => ({
  senders: t.field({
    type: SenderListsType,
    description: "Whose mail is filed for the agent: its own allow and block lists, and its allow-only mode.",
    authScopes: agentField("manage"),
    resolve: (agent, _, ctx) => getSenders(ctx, agent),
  }),
}));

builder.mutationField("setSenders", (t) =>
  t.field({
    type: SenderListsType,
    description: "Replaces the agent's own allow and block lists (at most 1,000 entries each), and its mode.",
    args: {
      agentId: t.arg.id({ required: true }),
      allow: t.arg.stringList({ description: "Addresses, @domains and @*.domains explicitly allowed" }),
      block: t.arg.stringList({ description: "Addresses, @domains and @*.domains never filed" }),
      allowOnly: t.arg.boolean({
        description: "Only senders in allow reach the agent; left out: on when allow has entries",
      }),
    },
    authScopes: verifiedAgentArg("manage"),
    resolve: forCaller((agent, args, ctx) => setSenders(ctx, agent, args)),
  }),
);

const ListsType = builder.objectRef<SenderLists>("Lists").implement({
  description: "One direction's lists of one scope",
  fields: (t) => ({
    allow: t.exposeStringList("allow", { description: "Addresses, @domains and @*.domains (with subdomains)" }),
    block: t.exposeStringList("block", { description: "Addresses, @domains and @*.domains (with subdomains)" }),
  }),
});

export const ScopeListsType = builder.objectRef<ScopeLists>("ScopeLists").implement({
  description: "The allow and block lists of the instance, a domain, a pod or an agent",
  fields: (t) => ({
    receive: t.expose("receive", { type: ListsType, description: "Who may mail it" }),
    send: t.expose("send", { type: ListsType, description: "Whom it may mail" }),
    allowOnly: t.exposeBoolean("allowOnly", {
      nullable: true,
      description: "An agent's: only senders its receive allow list names reach it; null for the others",
    }),
  }),
});

const ListsInput = builder.inputType("ListsInput", {
  description: "One direction's lists, replaced whole: a list left out becomes empty",
  fields: (t) => ({
    allow: t.stringList({ description: "At most 1,000 entries" }),
    block: t.stringList({ description: "At most 1,000 entries" }),
  }),
});

type InputFields = PothosSchemaTypes.InputFieldBuilder<typeof builder.$inferSchemaTypes, "InputObject">;

/** Both directions' lists, each replaced whole when given. */
const directions = (t: InputFields) => ({
  receive: t.field({ type: ListsInput, description: "Who may mail it; left out: kept" }),
  send: t.field({ type: ListsInput, description: "Whom it may mail; left out: kept" }),
});

export const ListsChange = builder.inputType("ListsChange", {
  description: "What to replace: each direction given, whole; a direction left out is kept",
  fields: (t) => ({
    ...directions(t),
    allowOnly: t.boolean({ description: "An agent's only: only senders its receive allow list names reach it" }),
  }),
});

const PodListsChange = builder.inputType("PodListsChange", {
  description: "What to replace of a pod's lists: each direction given, whole; a direction left out is kept",
  fields: directions,
});

/** Whose lists an operator's field reads or replaces. */
export const listOwnerArgs = builder.args((t) => ({
  domain: t.string({ description: "A served domain's lists" }),
  podId: t.id({ description: "A pod's lists" }),
  agentId: t.id({ description: "An agent's lists" }),
}));

/** The scope the operator's arguments name: an agent, a pod, a domain, or (none) the instance. */
export function ownerOf(args: { domain?: string | null; podId?: string | null; agentId?: string | null }): ListOwner {
  if ([args.domain, args.podId, args.agentId].filter((named) => named != null).length > 1) {
    throw new ServiceError("BAD_REQUEST", "Name one of a domain, a pod or an agent");
  }
  if (args.agentId != null) return { scope: "agent", id: args.agentId };
  if (args.podId != null) return { scope: "pod", id: args.podId };
  if (args.domain != null) return { scope: "domain", name: args.domain.toLowerCase() };
  return { scope: "instance" };
}

builder.queryField("podLists", (t) =>
  t.field({
    type: ScopeListsType,
    description:
      "The pod's allow and block lists, for its agents' receiving and sending: they decide for an address its agent's own lists do not name.",
    args: podArgs,
    authScopes: podKeyArg("manage"),
    resolve: async (_, { podId }, ctx) => getPodLists(ctx, podId, await ctx.grant()),
  }),
);

builder.mutationField("setPodLists", (t) =>
  t.field({
    type: ScopeListsType,
    description:
      "Replaces the pod's lists: each direction given (receive, send), whole; by a key reaching all the pod's agents.",
    args: { ...podArgs, change: t.arg({ type: PodListsChange, required: true }) },
    authScopes: podKeyArg("manage"),
    resolve: async (_, { podId, change }, ctx) => setPodLists(ctx, podId, await ctx.grant(), change),
  }),
);
