import type { AttachmentInput as AttachmentShape } from "../mailbox/outgoing.ts";
import { deleteByLink, openQuarantineReview, type QuarantineReview, releaseByLink } from "../mailbox/quarantine.ts";
import { addressesOf, keptAttachmentsOf } from "../mailbox/records.ts";
import { approveByLink, type Decision, laterSendAt, type Review, rejectByLink } from "../mailbox/review.ts";
import { builder, OutcomeType } from "./builder.ts";
import { type SendStatus, SendStatusEnum } from "./enums.ts";
import { BODY_COST } from "./limits.ts";

// A held message as the person with its review link sees it, and their
// decision: a draft held for approval (approve or reject), or a message held
// in quarantine (release or delete). The token is the only credential: it
// decides this one message.

const ReviewAttachmentType = builder.objectRef<AttachmentShape & { content: string }>("ReviewAttachment").implement({
  fields: (t) => ({
    filename: t.string({ resolve: (file) => file.filename ?? "" }),
    contentType: t.string({ nullable: true, resolve: (file) => file.contentType ?? null }),
    size: t.int({ resolve: (file) => Buffer.byteLength(file.content, "base64") }),
  }),
});

const ReviewAgentType = builder.objectRef<Pick<Review, "agent" | "from">>("ReviewAgent").implement({
  description: "The agent that asks to send, or that the quarantined message was for",
  fields: (t) => ({
    id: t.string({ resolve: ({ agent }) => agent.id }),
    name: t.string({ resolve: ({ agent }) => agent.name }),
    email: t.string({ resolve: ({ from }) => from }),
  }),
});

const ReviewType = builder.objectRef<Review>("Review").implement({
  description: "A message held for a person's approval, as its review link shows it",
  fields: (t) => ({
    id: t.id({ description: "The draft's id", resolve: ({ draft }) => draft.id }),
    agent: t.field({ type: ReviewAgentType, resolve: (review) => review }),
    from: t.string({ resolve: ({ from }) => from }),
    to: t.stringList({ resolve: ({ draft }) => addressesOf(draft.toList) }),
    cc: t.stringList({ resolve: ({ draft }) => addressesOf(draft.ccList) }),
    bcc: t.stringList({ resolve: ({ draft }) => addressesOf(draft.bccList) }),
    subject: t.string({ resolve: ({ draft }) => draft.subject ?? "" }),
    text: t.string({ nullable: true, complexity: BODY_COST, resolve: ({ draft }) => draft.bodyText }),
    html: t.string({ nullable: true, complexity: BODY_COST, resolve: ({ draft }) => draft.bodyHtml }),
    attachments: t.field({
      type: [ReviewAttachmentType],
      resolve: ({ draft }) => keptAttachmentsOf(draft.attachments),
    }),
    sendAt: t.field({
      type: "Timestamp",
      nullable: true,
      description: "When it is to go, if approved; null: at once",
      resolve: ({ draft }, _, ctx) => laterSendAt(draft, ctx.clock.now()),
    }),
    expiresAt: t.field({
      type: "Timestamp",
      nullable: true,
      description: "Rejected as expired if nobody decides by then",
      resolve: ({ draft }) => draft.reviewExpiresAt,
    }),
  }),
});

export const DecisionType = builder.objectRef<Decision>("Decision").implement({
  description: "What deciding a held message came to",
  fields: (t) => ({
    draftId: t.exposeID("draftId"),
    status: t.field({
      type: SendStatusEnum,
      description: "scheduled (approved: it goes at sendAt, within seconds when that is now) or rejected",
      resolve: (decision) => decision.status as SendStatus,
    }),
    sendAt: t.expose("sendAt", { type: "Timestamp", nullable: true }),
    reason: t.exposeString("reason", { nullable: true, description: "Why it was rejected" }),
  }),
});

builder.queryField("review", (t) =>
  t.field({
    type: ReviewType,
    description: "A held message, by its review link's token: 404 for no such link, 410 once decided.",
    args: { token: t.arg.string({ required: true }) },
    authScopes: (_, { token }) => ({ reviewer: token }),
    resolve: (_, { token }, ctx) => ctx.reviewing(token),
  }),
);

builder.mutationFields((t) => ({
  approveSend: t.field({
    type: DecisionType,
    description: "Approves the held message the token is for: it goes out within seconds, or at its sendAt. Once only.",
    args: { token: t.arg.string({ required: true }) },
    authScopes: (_, { token }) => ({ reviewer: token }),
    resolve: (_, { token }, ctx) => approveByLink(ctx, token),
  }),
  rejectSend: t.field({
    type: DecisionType,
    description: "Rejects the held message the token is for: it is not sent. Once only.",
    args: {
      token: t.arg.string({ required: true }),
      reason: t.arg.string({ description: "Told to the agent; at most 1,000 characters" }),
    },
    authScopes: (_, { token }) => ({ reviewer: token }),
    resolve: (_, { token, reason }, ctx) => rejectByLink(ctx, token, reason ?? null),
  }),
}));

const QuarantineReviewType = builder.objectRef<QuarantineReview>("QuarantineReview").implement({
  description: "A message held in quarantine, as its review link shows it: never its HTML",
  fields: (t) => ({
    id: t.id({ description: "The quarantined message's id", resolve: ({ held }) => held.id }),
    agent: t.field({
      type: ReviewAgentType,
      resolve: ({ agent, held }) => ({ agent, from: held.recipient }),
    }),
    from: t.string({ resolve: ({ held }) => held.fromAddress }),
    to: t.string({ description: "The agent's address it was sent to", resolve: ({ held }) => held.recipient }),
    subject: t.string({ resolve: ({ held }) => held.subject ?? "" }),
    reason: t.string({ description: "spam, malware or injection", resolve: ({ held }) => held.reason }),
    detail: t.string({ description: "What said so", resolve: ({ held }) => held.detail }),
    receivedAt: t.field({ type: "Timestamp", resolve: ({ held }) => held.receivedAt }),
    size: t.int({ resolve: ({ held }) => held.size }),
    text: t.string({
      nullable: true,
      complexity: BODY_COST,
      description: "Its text as the agent would read it (from its HTML when it has no plain text)",
      resolve: ({ text }) => text,
    }),
  }),
});

export const ReleasedType = builder.objectRef<{ emailId: string }>("Released").implement({
  description: "A quarantined message filed into its agent's inbox",
  fields: (t) => ({ emailId: t.exposeID("emailId", { description: "The email it became in the agent's inbox" }) }),
});

builder.queryField("quarantineReview", (t) =>
  t.field({
    type: QuarantineReviewType,
    description: "A quarantined message, by its review link's token: 404 for no such link, 410 once decided.",
    args: { token: t.arg.string({ required: true }) },
    authScopes: (_, { token }) => ({ quarantineReviewer: token }),
    resolve: (_, { token }, ctx) => openQuarantineReview(ctx, token),
  }),
);

builder.mutationFields((t) => ({
  releaseByReview: t.field({
    type: ReleasedType,
    description:
      "Releases the quarantined message the token is for into its agent's inbox (email.received then). Once only.",
    args: { token: t.arg.string({ required: true }) },
    authScopes: (_, { token }) => ({ quarantineReviewer: token }),
    resolve: (_, { token }, ctx) => releaseByLink(ctx, token),
  }),
  deleteByReview: t.field({
    type: OutcomeType,
    description: "Deletes the quarantined message the token is for. Once only.",
    args: { token: t.arg.string({ required: true }) },
    authScopes: (_, { token }) => ({ quarantineReviewer: token }),
    resolve: async (_, { token }, ctx) => ({
      ...(await deleteByLink(ctx, token)),
      message: "The message was deleted from quarantine",
    }),
  }),
}));
