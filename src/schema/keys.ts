import * as keys from "../mailbox/agent-keys.ts";
import { builder, OutcomeType } from "./builder.ts";
import { PermissionEnum } from "./enums.ts";
import { forCaller, verifiedAgentArg } from "./own-agent.ts";

// The keys area in GraphQL: an agent's keys, made within the grant of the key
// that asks, listed without secrets, revoked at once. Each needs `manage`.

/** What a key barred from junk is kept from. */
const HIDE_JUNK = "Barred from junk: never sees mail in the junk folder, by any read";

export const KeyType = builder.objectRef<keys.KeyView>("Key").implement({
  description:
    "A key of an agent or of a pod, never with its secret; an agent's primary one (id primary) has every permission.",
  fields: (t) => ({
    id: t.exposeID("id"),
    name: t.exposeString("name"),
    permissions: t.expose("permissions", { type: [PermissionEnum] }),
    agents: t.exposeStringList("agents", {
      nullable: true,
      description: "A pod's key: the agents it reaches, null for all of the pod's; an agent's key: null",
    }),
    expiresAt: t.expose("expiresAt", { type: "Timestamp", nullable: true, description: "Refused from then on" }),
    hideJunk: t.exposeBoolean("hideJunk", { description: HIDE_JUNK }),
    createdAt: t.expose("createdAt", { type: "Timestamp" }),
  }),
});

export const NewKeyType = builder.objectRef<keys.KeyView & { key: string }>("NewKey").implement({
  description: "A key just made, with its secret: shown this once.",
  fields: (t) => ({
    id: t.exposeID("id"),
    key: t.exposeString("key", { description: "The secret, as Authorization: Bearer <key>; shown only now" }),
    name: t.exposeString("name"),
    permissions: t.expose("permissions", { type: [PermissionEnum] }),
    agents: t.exposeStringList("agents", {
      nullable: true,
      description: "A pod's key: the agents it reaches, null for all of the pod's; an agent's key: null",
    }),
    expiresAt: t.expose("expiresAt", { type: "Timestamp", nullable: true }),
    hideJunk: t.exposeBoolean("hideJunk", { description: HIDE_JUNK }),
    createdAt: t.expose("createdAt", { type: "Timestamp" }),
  }),
});

export const CreateKeyInput = builder.inputType("CreateKeyInput", {
  fields: (t) => ({
    name: t.string({ required: true, description: "1 to 100 characters, for you to tell keys apart" }),
    permissions: t.field({
      type: [PermissionEnum],
      required: true,
      description: "At least one; none the key that asks lacks",
    }),
    agents: t.idList({
      description:
        "A pod's key only: ids of the pod's agents it reaches (within the asking key's); all of them when left out",
    }),
    expiresAt: t.field({
      type: "Timestamp",
      description: "When it stops working; no later than the asking key's own",
    }),
    hideJunk: t.boolean({
      description: `${HIDE_JUNK} (default false; true under an asking key that is)`,
    }),
  }),
});

builder.queryField("keys", (t) =>
  t.field({
    type: [KeyType],
    description: "Your agent's keys, the primary one first; never their secrets.",
    args: { agentId: t.arg.id({ required: true }) },
    authScopes: verifiedAgentArg("manage"),
    resolve: forCaller(async (agent, _args, ctx) => keys.listKeys(ctx, agent, await ctx.grant())),
  }),
);

builder.mutationFields((t) => ({
  createKey: t.field({
    type: NewKeyType,
    description:
      "Makes a key of your agent within your key's own permissions and expiry; its secret is answered only now.",
    args: { agentId: t.arg.id({ required: true }), input: t.arg({ type: CreateKeyInput, required: true }) },
    authScopes: verifiedAgentArg("manage"),
    resolve: forCaller(async (agent, args, ctx) => keys.createKey(ctx, agent, await ctx.grant(), args.input)),
  }),
  revokeKey: t.field({
    type: OutcomeType,
    description: "Revokes one of your agent's keys: it stops working at once, everywhere.",
    args: { agentId: t.arg.id({ required: true }), keyId: t.arg.id({ required: true }) },
    authScopes: verifiedAgentArg("manage"),
    resolve: forCaller(async (agent, args, ctx) => keys.revokeKey(ctx, agent, await ctx.grant(), args.keyId)),
  }),
}));
