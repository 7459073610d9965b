import { queryFromInfo } from "@pothos/plugin-prisma";
import { addressesOf, type SentRecord } from "../mailbox/records.ts";
import { forwardEmail, replyToEmail } from "../mailbox/replies.ts";
import { deleteSent, getSent, listSent, sendEmail, sendQuota, sentSlice } from "../mailbox/sending.ts";
import { listSuppressions, removeSuppression } from "../mailbox/suppressions.ts";
import { AgentType } from "./agents.ts";
import { builder, OutcomeType } from "./builder.ts";
import { BODY_COST, bodyBytes } from "./limits.ts";
import { forCaller, verifiedAgentArg } from "./own-agent.ts";
import { connectionCost, connectionOf, nodesQuery, pageArgs, pageCost, pageType } from "./pages.ts";

// Sending, what went out, and the daily quota.

export const SentEmailType = builder.prismaObject("SentEmail", {
  fields: (t) => ({
    id: t.exposeID("id"),
    agentId: t.exposeString("agentId"),
    to: t.stringList({ description: "The recipients", resolve: (sent) => addressesOf(sent.toList) }),
    subject: t.exposeString("subject"),
    bodyText: t.exposeString("bodyText", { nullable: true, complexity: BODY_COST }),
    bodyHtml: t.exposeString("bodyHtml", { nullable: true, complexity: BODY_COST }),
    sentAt: t.expose("sentAt", { type: "Timestamp" }),
    providerId: t.exposeString("providerId", { nullable: true, description: "The provider's tracking id" }),
    cc: t.stringList({ resolve: (sent) => addressesOf(sent.ccList) }),
    bcc: t.stringList({ resolve: (sent) => addressesOf(sent.bccList) }),
    messageId: t.exposeString("messageId", { description: "The Message-ID it went out with" }),
    inReplyTo: t.exposeString("inReplyTo", { nullable: true, description: "The Message-ID it answers" }),
    threadId: t.exposeID("threadId"),
    deliveryStatus: t.exposeString("deliveryStatus", {
      description:
        "sent until a report comes back; then the worst of its recipients': bounced, complained, delayed, delivered",
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
    status: t.exposeString("status", { description: "delivered, delayed, bounced or complained" }),
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

const AUTO_SUBMITTED = 'Leave out: it says a program sent it (RFC 3834). "no": a person dictates this message';

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

const SendEmailInput = builder.inputType("SendEmailInput", {
  fields: (t) => ({
    to: t.stringList({ required: true, description: "1-50 recipient addresses" }),
    cc: t.stringList({ description: "At most 50; to, cc and bcc together at most 50" }),
    bcc: t.stringList({ description: "At most 50; not shown to the other recipients" }),
    subject: t.string({ required: true, description: "One line, at most 998 characters" }),
    text: t.string({ description: "Plain body; at least one of text and html" }),
    html: t.string({ description: "HTML body" }),
    replyTo: t.string({ description: "Where answers should go, if not to the agent" }),
    inReplyTo: t.string({ description: "The Message-ID this message answers: it joins that message's thread" }),
    attachments: t.field({ type: [AttachmentInput], description: ATTACHMENTS }),
    autoSubmitted: t.string({ description: AUTO_SUBMITTED }),
  }),
});

const ReplyInput = builder.inputType("ReplyInput", {
  fields: (t) => ({
    text: t.string({ description: "Plain body; at least one of text and html" }),
    html: t.string({ description: "HTML body" }),
    replyAll: t.boolean({ description: "Also to the original's To and Cc, without your own address" }),
    attachments: t.field({ type: [AttachmentInput], description: ATTACHMENTS }),
    autoSubmitted: t.string({ description: AUTO_SUBMITTED }),
  }),
});

const ForwardInput = builder.inputType("ForwardInput", {
  fields: (t) => ({
    to: t.stringList({ required: true, description: "1-50 recipient addresses" }),
    text: t.string({ description: "Written above the forwarded message" }),
    html: t.string({ description: "Written above the forwarded message, in HTML" }),
    attachments: t.field({ type: [AttachmentInput], description: "Besides the original's, which go along" }),
    autoSubmitted: t.string({ description: AUTO_SUBMITTED }),
  }),
});

export const IDEMPOTENCY = "Retries with the same key within 24 hours get the first answer, and nothing is sent twice";

const positionOf = (sent: SentRecord) => ({ at: sent.sentAt, id: sent.id });

builder.prismaObjectFields(AgentType, (t) => ({
  sent: t.field({
    type: SentEmailPage,
    description: "Sent mail, newest first; total counts every send, not only today's.",
    args: pageArgs,
    authScopes: (agent) => ({ verifiedAgent: agent.id }),
    complexity: pageCost,
    resolve: (agent, args, ctx, info) =>
      ctx.answer.load(
        () => listSent(ctx, agent, args, queryFromInfo({ context: ctx, info, path: ["data"] })),
        bodyBytes,
      ),
  }),
  sentConnection: t.connection({
    type: SentEmailType,
    description: "Sent mail as a cursor connection, newest first.",
    authScopes: (agent) => ({ verifiedAgent: agent.id }),
    complexity: connectionCost,
    resolve: (agent, args, ctx, info) =>
      connectionOf(args, positionOf, (slice) =>
        ctx.answer.load(() => sentSlice(ctx, agent, slice, nodesQuery(ctx, info)), bodyBytes),
      ),
  }),
  sentEmail: t.prismaField({
    type: "SentEmail",
    description: "One sent email, with what reports said of its recipients.",
    args: { id: t.arg.id({ required: true }) },
    authScopes: (agent) => ({ verifiedAgent: agent.id }),
    resolve: (query, agent, args, ctx) => getSent(ctx, agent, args.id, query),
  }),
  suppressions: t.field({
    type: SuppressionPage,
    description: "Addresses the agent's mail no longer goes to (a hard bounce or a complaint), newest first.",
    args: pageArgs,
    authScopes: (agent) => ({ verifiedAgent: agent.id }),
    complexity: pageCost,
    resolve: (agent, args, ctx) => listSuppressions(ctx, agent, args),
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
    args: {
      agentId: t.arg.id({ required: true }),
      input: t.arg({ type: SendEmailInput, required: true }),
      idempotencyKey: t.arg.string({ description: IDEMPOTENCY }),
    },
    authScopes: verifiedAgentArg,
    resolve: forCaller((agent, args, ctx) => sendEmail(ctx, agent, args.input, args.idempotencyKey)),
  }),
  replyToEmail: t.field({
    type: SentEmailType,
    description: "Replies to a received email, in its thread: to its Reply-To or sender, with Re: and its references.",
    args: {
      agentId: t.arg.id({ required: true }),
      emailId: t.arg.id({ required: true }),
      input: t.arg({ type: ReplyInput, required: true }),
      idempotencyKey: t.arg.string({ description: IDEMPOTENCY }),
    },
    authScopes: verifiedAgentArg,
    resolve: forCaller((agent, args, ctx) => replyToEmail(ctx, agent, args.emailId, args.input, args.idempotencyKey)),
  }),
  forwardEmail: t.field({
    type: SentEmailType,
    description: "Forwards a received email with its attachments, quoted below your text.",
    args: {
      agentId: t.arg.id({ required: true }),
      emailId: t.arg.id({ required: true }),
      input: t.arg({ type: ForwardInput, required: true }),
      idempotencyKey: t.arg.string({ description: IDEMPOTENCY }),
    },
    authScopes: verifiedAgentArg,
    resolve: forCaller((agent, args, ctx) => forwardEmail(ctx, agent, args.emailId, args.input, args.idempotencyKey)),
  }),
  removeSuppression: t.field({
    type: OutcomeType,
    description: "Takes an address off the suppression list: mail to it goes out again.",
    args: { agentId: t.arg.id({ required: true }), address: t.arg.string({ required: true }) },
    authScopes: verifiedAgentArg,
    resolve: forCaller((agent, args, ctx) => removeSuppression(ctx, agent, args.address)),
  }),
  deleteSentEmail: t.field({
    type: OutcomeType,
    description: "Deletes a sent email's record for good, freeing its storage.",
    args: { agentId: t.arg.id({ required: true }), sentId: t.arg.id({ required: true }) },
    authScopes: verifiedAgentArg,
    resolve: forCaller((agent, args, ctx) => deleteSent(ctx, agent, args.sentId)),
  }),
}));
