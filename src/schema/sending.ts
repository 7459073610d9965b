import { addressesOf, type SentRecord } from "../mailbox/records.ts";
import { deleteSent, getSent, listSent, sendQuota, sentSlice } from "../mailbox/sending.ts";
import { listSuppressions, removeSuppression } from "../mailbox/suppressions.ts";
import { fencedOwnTextOf } from "../mailbox/verdicts.ts";
import { AgentType } from "./agents.ts";
import { builder, OutcomeType } from "./builder.ts";
import { DeliveryStatusEnum, type SentStatus } from "./enums.ts";
import { BODY_COST, bodyBytes } from "./limits.ts";
import { agentField, forCaller, verifiedAgentArg } from "./own-agent.ts";
import { connectionCost, connectionOf, nodesQuery, pageArgs, pageCost, pageQuery, pageType } from "./pages.ts";

// Sending, what went out, and the daily quota.

export const SentEmailType = builder.prismaObject("SentEmail", {
  fields: (t) => ({
    id: t.exposeID("id"),
    agentId: t.exposeString("agentId"),
    to: t.stringList({ description: "The recipients", resolve: (sent) => addressesOf(sent.toList) }),
    subject: t.exposeString("subject"),
    bodyText: t.exposeString("bodyText", { nullable: true, complexity: BODY_COST }),
    bodyHtml: t.exposeString("bodyHtml", { nullable: true, complexity: BODY_COST }),
    // Costs nothing of its own: it stands in for the bodies (as Email.fenced does).
    fenced: t.string({
      complexity: 0,
      description:
        "bodyText (else bodyHtml) inside a fence it cannot close, labelled author=you, for a model to read: a forward quotes its original, which is its sender's data",
      resolve: (sent) => fencedOwnTextOf(sent),
    }),
    sentAt: t.expose("sentAt", { type: "Timestamp" }),
    providerId: t.exposeString("providerId", { nullable: true, description: "The provider's tracking id" }),
    cc: t.stringList({ resolve: (sent) => addressesOf(sent.ccList) }),
    bcc: t.stringList({ resolve: (sent) => addressesOf(sent.bccList) }),
    messageId: t.exposeString("messageId", { description: "The Message-ID it went out with" }),
    inReplyTo: t.exposeString("inReplyTo", { nullable: true, description: "The Message-ID it answers" }),
    threadId: t.exposeID("threadId"),
    deliveryStatus: t.field({
      type: DeliveryStatusEnum,
      description:
        "sent until a report comes back; then the worst of its recipients': bounced, complained, delayed, delivered",
      resolve: (sent) => sent.deliveryStatus as SentStatus,
    }),
    deliveries: t.relation("deliveries", {
      description: "What the latest report said of each recipient a report named",
      query: { orderBy: { recipient: "asc" } },
    }),
  }),
});

builder.prismaObject("RecipientReport", {
  name: "Delivery",
  description: "What the latest delivery report or complaint said of one recipient",
  fields: (t) => ({
    recipient: t.exposeString("recipient", { description: "The address as the sent email named it" }),
    status: t.field({
      type: DeliveryStatusEnum,
      description: "delivered, delayed, bounced or complained",
      resolve: (report) => report.status as SentStatus,
    }),
    action: t.exposeString("action", {
      description: "The report's word: failed, delayed, delivered, relayed, expanded, or the complaint's type",
    }),
    statusCode: t.exposeString("statusCode", {
      nullable: true,
      description: "The enhanced status code, such as 5.1.1",
    }),
    diagnosticCode: t.exposeString("diagnosticCode", { nullable: true, description: "What the receiving server said" }),
    remoteMta: t.exposeString("remoteMta", { nullable: true, description: "The server that said it" }),
    at: t.expose("at", { type: "Timestamp", description: "When the report says it happened" }),
  }),
});

const SuppressionType = builder.prismaObject("Suppression", {
  description: "An address the agent's mail no longer goes to",
  fields: (t) => ({
    address: t.exposeString("address", { description: "Lower case" }),
    reason: t.exposeString("reason", { description: "bounced (a hard bounce, 5.x.x) or complained" }),
    statusCode: t.exposeString("statusCode", { nullable: true }),
    sentId: t.exposeString("sentId", { nullable: true, description: "The sent email whose report put it here" }),
    createdAt: t.expose("createdAt", { type: "Timestamp" }),
  }),
});

export const SuppressionPage = pageType("SuppressionPage", SuppressionType);

const SentEmailPage = pageType("SentEmailPage", SentEmailType);

const SendQuotaType = builder.objectRef<{ limit: number; used: number; resetAt: Date }>("SendQuota").implement({
  fields: (t) => ({
    limit: t.exposeInt("limit", { description: "Sends allowed per UTC day" }),
    used: t.exposeInt("used", { description: "Sends so far today (UTC)" }),
    resetAt: t.expose("resetAt", { type: "Timestamp", description: "The next UTC midnight" }),
  }),
});

export const AttachmentInput = builder.inputType("AttachmentInput", {
  fields: (t) => ({
    filename: t.string({ required: true, description: "Without / \\ or control characters" }),
    contentType: t.string({ description: "Taken from the filename when left out" }),
    content: t.string({ required: true, description: "The bytes, in base64" }),
    inline: t.boolean({ description: "Shown in the HTML body by its contentId rather than attached" }),
    contentId: t.string({ description: 'For <img src="cid:…"> in the HTML body' }),
  }),
});

export const ATTACHMENTS = "Files to attach: at most 10 MiB of request in all";

const positionOf = (sent: SentRecord) => ({ at: sent.sentAt, id: sent.id });

builder.prismaObjectFields(AgentType, (t) => ({
  sent: t.field({
    type: SentEmailPage,
    description: "Sent mail, newest first; total counts every send, not only today's.",
    args: pageArgs,
    authScopes: agentField("read"),
    complexity: pageCost,
    resolve: (agent, args, ctx, info) =>
      ctx.answer.load(() => listSent(ctx, agent, args, pageQuery(ctx, info)), bodyBytes),
  }),
  sentConnection: t.connection({
    type: SentEmailType,
    description: "Sent mail as a cursor connection, newest first.",
    authScopes: agentField("read"),
    complexity: connectionCost,
    resolve: (agent, args, ctx, info) =>
      connectionOf(args, positionOf, (slice) =>
        ctx.answer.load(() => sentSlice(ctx, agent, slice, nodesQuery(ctx, info)), bodyBytes),
      ),
  }),
  sentEmail: t.prismaField({
    type: "SentEmail",
    nullable: true,
    description: "One sent email, with what reports said of its recipients.",
    args: { id: t.arg.id({ required: true }) },
    authScopes: agentField("read"),
    resolve: (query, agent, args, ctx) => getSent(ctx, agent, args.id, query),
  }),
  suppressions: t.field({
    type: SuppressionPage,
    description: "Addresses the agent's mail no longer goes to (a hard bounce or a complaint), newest first.",
    args: pageArgs,
    authScopes: agentField("read"),
    complexity: pageCost,
    resolve: (agent, args, ctx) => listSuppressions(ctx, agent, args),
  }),
  sendQuota: t.field({
    type: SendQuotaType,
    description: "Where the agent stands against the daily send limit.",
    authScopes: agentField(null),
    resolve: (agent, _, ctx) => sendQuota(ctx, agent),
  }),
}));

builder.mutationFields((t) => ({
  removeSuppression: t.field({
    type: OutcomeType,
    description: "Takes an address off the suppression list: mail to it goes out again.",
    args: { agentId: t.arg.id({ required: true }), address: t.arg.string({ required: true }) },
    authScopes: verifiedAgentArg("manage"),
    resolve: forCaller((agent, args, ctx) => removeSuppression(ctx, agent, args.address)),
  }),
  deleteSentEmail: t.field({
    type: OutcomeType,
    description: "Deletes a sent email's record for good, freeing its storage.",
    args: { agentId: t.arg.id({ required: true }), sentId: t.arg.id({ required: true }) },
    authScopes: verifiedAgentArg("manage"),
    resolve: forCaller((agent, args, ctx) => deleteSent(ctx, agent, args.sentId)),
  }),
}));
