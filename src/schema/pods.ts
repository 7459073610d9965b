import type { SendPolicy } from "../config.ts";
import * as podAgents from "../mailbox/pod-agents.ts";
import * as podKeys from "../mailbox/pod-keys.ts";
import { getPodPolicy, type PodPolicy, type PodView, setPodPolicy } from "../mailbox/pods.ts";
import { CreateAgentPayload } from "./agents.ts";
import { builder, OutcomeType } from "./builder.ts";
import { SendPolicyEnum } from "./enums.ts";
import { CreateKeyInput, KeyType, NewKeyType } from "./keys.ts";
import { needing } from "./own-agent.ts";
import type { Need } from "./scopes.ts";

// The pods area in GraphQL: a pod as every door shows it, and what a key of
// the pod does to the pod (its keys, agents and send policy) under the podKey
// scope. The operator's acts on pods are fields of `admin` (admin.ts).

type Fields<Parent> = PothosSchemaTypes.ObjectFieldBuilder<typeof builder.$inferSchemaTypes, Parent>;

/** A send policy's fields, on a pod and on a pod's policy alone. */
const policyFields = <Parent extends PodPolicy>(t: Fields<Parent>) => ({
  sendPolicy: t.field({
    type: SendPolicyEnum,
    description: "In force for its agents without one of their own: its own, else SEND_POLICY",
    resolve: (pod) => pod.sendPolicy,
  }),
  sendPolicyOverride: t.field({
    type: SendPolicyEnum,
    nullable: true,
    description: "Its own policy, when one was set",
    resolve: (pod) => pod.sendPolicyOverride as SendPolicy | null,
  }),
});

export const PodType = builder.objectRef<PodView>("Pod").implement({
  description: "A group of agents under one owner, made by the operator",
  fields: (t) => ({
    id: t.exposeID("id", { description: "1-64 lower-case letters, digits, dashes and underscores" }),
    name: t.exposeString("name"),
    domains: t.exposeStringList("domains", {
      description: "Served domains it holds: its agents have their address there, and nobody else registers there",
    }),
    agents: t.exposeInt("agents", { description: "How many agents it holds" }),
    createdAt: t.expose("createdAt", { type: "Timestamp" }),
    verified: t.boolean({
      description: "Verified by its owner's post or the operator: its keys make verified agents",
      resolve: (pod) => pod.verifiedAt !== null,
    }),
    verifiedAt: t.expose("verifiedAt", { type: "Timestamp", nullable: true }),
    verifiedBy: t.exposeString("verifiedBy", {
      nullable: true,
      description: "social (its owner's post on X), admin (the operator) or none (VERIFICATION_MODE=none)",
    }),
    ...policyFields(t),
  }),
});

const PodPolicyType = builder.objectRef<PodPolicy>("PodPolicy").implement({
  description: "Which of the pod's agents' sends wait for a person",
  fields: (t) => policyFields(t),
});

/** The scope of a field acting on the pod its podId names, with the permission it needs: a key of that pod. */
export const podKeyArg = (permission: Need) =>
  needing(permission, (_parent: unknown, args: { podId: string }) => ({ podKey: { podId: args.podId, permission } }));

/** The argument naming the pod a field acts on: podKeyArg reads it. */
export const podArgs = builder.args((t) => ({ podId: t.id({ required: true }) }));

builder.queryField("podKeys", (t) =>
  t.field({
    type: [KeyType],
    description: "The pod's keys, oldest first; never their secrets.",
    args: podArgs,
    authScopes: podKeyArg("manage"),
    resolve: async (_, { podId }, ctx) => podKeys.listPodKeys(ctx, podId, await ctx.grant()),
  }),
);

builder.mutationFields((t) => ({
  createPodKey: t.field({
    type: NewKeyType,
    description:
      "Makes a key of your pod within your key's own permissions, expiry and agents; its secret is answered only now.",
    args: { ...podArgs, input: t.arg({ type: CreateKeyInput, required: true }) },
    authScopes: podKeyArg("manage"),
    resolve: async (_, { podId, input }, ctx) => podKeys.createPodKey(ctx, podId, await ctx.grant(), input),
  }),
  revokePodKey: t.field({
    type: OutcomeType,
    description: "Revokes one of your pod's keys: it stops working at once, everywhere.",
    args: { ...podArgs, keyId: t.arg.id({ required: true }) },
    authScopes: podKeyArg("manage"),
    resolve: async (_, { podId, keyId }, ctx) => podKeys.revokePodKey(ctx, podId, await ctx.grant(), keyId),
  }),
}));

builder.queryField("podPolicy", (t) =>
  t.field({
    type: PodPolicyType,
    description: "The pod's send policy: in force for its agents without one of their own.",
    args: podArgs,
    authScopes: podKeyArg("manage"),
    resolve: async (_, { podId }, ctx) => getPodPolicy(ctx, podId, await ctx.grant()),
  }),
);

builder.mutationField("setPodPolicy", (t) =>
  t.field({
    type: PodPolicyType,
    description:
      "Sets which sends of the pod's agents without a policy of their own wait for a person; null: the instance's SEND_POLICY. By a key reaching all the pod's agents.",
    args: {
      ...podArgs,
      sendPolicy: t.arg({ type: SendPolicyEnum, description: "null: the instance's SEND_POLICY" }),
    },
    authScopes: podKeyArg("manage"),
    resolve: async (_, { podId, sendPolicy }, ctx) => setPodPolicy(ctx, podId, await ctx.grant(), sendPolicy ?? null),
  }),
);

const PodAgentType = builder.objectRef<podAgents.PodAgentView>("PodAgent").implement({
  description: "An agent of the pod, as the pod's keys list it",
  fields: (t) => ({
    id: t.exposeID("id"),
    email: t.exposeString("email", { description: "Its mailbox address" }),
    name: t.exposeString("name"),
    createdAt: t.expose("createdAt", { type: "Timestamp" }),
    verified: t.exposeBoolean("verified"),
  }),
});

const CreatePodAgentInput = builder.inputType("CreatePodAgentInput", {
  fields: (t) => ({
    id: t.string({
      required: true,
      description: "1-64 letters, digits, dashes or underscores, not a reserved one; the address's local part",
    }),
    name: t.string({ required: true, description: "Display name, 1-128 characters, without <, > or @" }),
  }),
});

builder.queryField("podAgents", (t) =>
  t.field({
    type: [PodAgentType],
    description: "The pod's agents your key reaches, oldest first.",
    args: podArgs,
    authScopes: podKeyArg("agents"),
    resolve: async (_, { podId }, ctx) => podAgents.listPodAgents(ctx, podId, await ctx.grant()),
  }),
);

builder.mutationField("createPodAgent", (t) =>
  t.field({
    type: CreateAgentPayload,
    description:
      "Makes an agent in your pod, on the pod's first domain when it has some, verified when the pod is; its API key is answered only now.",
    args: { ...podArgs, input: t.arg({ type: CreatePodAgentInput, required: true }) },
    authScopes: podKeyArg(podAgents.MAKES_AGENTS),
    resolve: async (_, { podId, input }, ctx) => podAgents.createPodAgent(ctx, podId, await ctx.grant(), input),
  }),
);
