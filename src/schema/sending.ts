import type { SentRecord } from "../mailbox/records.ts";
import { deleteSent, listSent, sendEmail, sendQuota, sentSlice } from "../mailbox/sending.ts";
import { AgentType } from "./agents.ts";
import { builder, OutcomeType } from "./builder.ts";
import { BODY_COST, bodyBytes } from "./limits.ts";
import { connectionCost, connectionOf, pageCost, pageType } from "./pages.ts";

// Sending, what went out, and the daily quota.

export const SentEmailType = builder.objectRef<SentRecord>("SentEmail").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    agentId: t.exposeString("agentId"),
    to: t.exposeString("to", { description: "The recipients, joined with ', '" }),
    recipients: t.stringList({ resolve: (sent) => sent.to.split(", ") }),
    subject: t.exposeString("subject"),
    bodyText: t.exposeString("bodyText", { nullable: true, complexity: BODY_COST }),
    bodyHtml: t.exposeString("bodyHtml", { nullable: true, complexity: BODY_COST }),
    sentAt: t.expose("sentAt", { type: "Timestamp" }),
    providerId: t.exposeString("providerId", { nullable: true, description: "The provider's tracking id" }),
  }),
});

const SentEmailPage = pageType("SentEmailPage", SentEmailType);

const SendQuotaType = builder.objectRef<{ limit: number; used: number; resetAt: Date }>("SendQuota").implement({
  fields: (t) => ({
    limit: t.exposeInt("limit", { description: "Sends allowed per UTC day" }),
    used: t.exposeInt("used", { description: "Sends so far today (UTC)" }),
    resetAt: t.expose("resetAt", { type: "Timestamp", description: "The next UTC midnight" }),
  }),
});

const SendEmailInput = builder.inputType("SendEmailInput", {
  fields: (t) => ({
    to: t.stringList({ required: true, description: "1-50 recipient addresses" }),
    subject: t.string({ required: true }),
    text: t.string({ description: "Plain body; at least one of text and html" }),
    html: t.string({ description: "HTML body" }),
    replyTo: t.string(),
  }),
});

const positionOf = (sent: SentRecord) => ({ at: sent.sentAt, id: sent.id });

builder.objectFields(AgentType, (t) => ({
  sent: t.field({
    type: SentEmailPage,
    description: "Sent mail, newest first; total counts every send, not only today's.",
    args: { limit: t.arg.int(), offset: t.arg.int() },
    authScopes: (agent) => ({ verifiedAgent: agent.id }),
    complexity: pageCost,
    resolve: (agent, args, ctx) =>
      ctx.answer.load(
        () => listSent(ctx, agent, args),
        (page) => bodyBytes(page.data),
      ),
  }),
  sentConnection: t.connection({
    type: SentEmailType,
    description: "Sent mail as a cursor connection, newest first.",
    authScopes: (agent) => ({ verifiedAgent: agent.id }),
    complexity: connectionCost,
    resolve: (agent, args, ctx) =>
      connectionOf(args, positionOf, (slice) => ctx.answer.load(() => sentSlice(ctx, agent, slice), bodyBytes)),
  }),
  sendQuota: t.field({
    type: SendQuotaType,
    description: "Where the agent stands against the daily send limit.",
    authScopes: (agent) => ({ verifiedAgent: agent.id }),
    resolve: (agent, _, ctx) => sendQuota(ctx, agent),
  }),
}));

builder.mutationFields((t) => ({
  sendEmail: t.field({
    type: SentEmailType,
    description: "Sends an email from the agent's address through the configured provider.",
    args: { agentId: t.arg.id({ required: true }), input: t.arg({ type: SendEmailInput, required: true }) },
    authScopes: (_, args) => ({ verifiedAgent: args.agentId }),
    resolve: async (_, args, ctx) => sendEmail(ctx, await ctx.caller(), args.input),
  }),
  deleteSentEmail: t.field({
    type: OutcomeType,
    description: "Deletes a sent email's record for good, freeing its storage.",
    args: { agentId: t.arg.id({ required: true }), sentId: t.arg.id({ required: true }) },
    authScopes: (_, args) => ({ verifiedAgent: args.agentId }),
    resolve: async (_, args, ctx) => deleteSent(ctx, await ctx.caller(), args.sentId),
  }),
}));
