import { getSenders, type SenderLists, setSenders } from "../mailbox/senders.ts";
import { AgentType } from "./agents.ts";
import { builder } from "./builder.ts";
import { forCaller, verifiedAgentArg } from "./own-agent.ts";

// Who may mail an agent.

const SenderListsType = builder.objectRef<SenderLists>("SenderLists").implement({
  description: "With entries in allow, only those senders are filed; blocked senders never are.",
  fields: (t) => ({
    allow: t.exposeStringList("allow", { description: "Addresses and @domains, lower case" }),
    block: t.exposeStringList("block", { description: "Addresses and @domains, lower case" }),
  }),
});

builder.prismaObjectFields(AgentType, (t) => ({
  senders: t.field({
    type: SenderListsType,
    description: "Whose mail is filed for the agent: its allow and block lists.",
    authScopes: (agent) => ({ verifiedAgent: agent.id }),
    resolve: (agent, _, ctx) => getSenders(ctx, agent),
  }),
}));

builder.mutationField("setSenders", (t) =>
  t.field({
    type: SenderListsType,
    description: "Replaces the agent's allow and block lists (at most 1,000 entries each).",
    args: {
      agentId: t.arg.id({ required: true }),
      allow: t.arg.stringList({ description: "Addresses and @domains; empty or left out: anyone not blocked" }),
      block: t.arg.stringList({ description: "Addresses and @domains never filed" }),
    },
    authScopes: verifiedAgentArg,
    resolve: forCaller((agent, args, ctx) => setSenders(ctx, agent, args)),
  }),
);
