import {
  createDraft,
  type DraftQuery,
  type DraftReader,
  type DraftRecord,
  deleteDraft,
  draftSlice,
  getDraft,
  listDrafts,
  MAX_SCHEDULE_DAYS,
  updateDraft,
} from "../mailbox/drafts.ts";
import type { AttachmentInput as AttachmentInputShape } from "../mailbox/outgoing.ts";
import { holds } from "../mailbox/permissions.ts";
import { addressesOf, keptAttachmentsOf } from "../mailbox/records.ts";
import { fencedOwnTextOf } from "../mailbox/verdicts.ts";
import { AgentType } from "./agents.ts";
import { builder, OutcomeType } from "./builder.ts";
import type { Context } from "./context.ts";
import { readerFor } from "./emails.ts";
import { type SendStatus, SendStatusEnum } from "./enums.ts";
import { BODY_COST } from "./limits.ts";
import { agentField, forCaller, verifiedAgentArg } from "./own-agent.ts";
import { connectionCost, connectionOf, nodesQuery, pageArgs, pageCost, pageType } from "./pages.ts";
import { ATTACHMENTS, AttachmentInput } from "./sending.ts";

// Drafts: written now, sent later by the agent.

/** The agent's drafts as the request's key is shown them: one that forwards mail only to a key that reads mail. */
export const draftReaderFor = async <A extends { id: string }>(ctx: Context, agent: A): Promise<A & DraftReader> => ({
  ...agent,
  readsMail: holds(await ctx.grant(), "read"),
});

const DraftAttachmentType = builder.objectRef<AttachmentInputShape & { content: string }>("DraftAttachment").implement({
  description: "A file the draft will carry: its name, type and size (its bytes go with the send)",
  fields: (t) => ({
    filename: t.string({ resolve: (file) => file.filename ?? "" }),
    contentType: t.string({ nullable: true, resolve: (file) => file.contentType ?? null }),
    size: t.int({ resolve: (file) => Buffer.byteLength(file.content, "base64") }),
    inline: t.boolean({ resolve: (file) => file.inline === true }),
    contentId: t.string({ nullable: true, resolve: (file) => file.contentId ?? null }),
  }),
});

const DraftFailureType = builder.objectRef<{ code: string; message: string }>("DraftFailure").implement({
  fields: (t) => ({
    code: t.exposeString("code", {
      description: "The error code a send would have answered, such as DAILY_SEND_LIMIT_EXCEEDED",
    }),
    message: t.exposeString("message"),
  }),
});

export const DraftType = builder.prismaObject("Draft", {
  description: "A message the agent is writing; POST …/drafts/{id}/send (sendDraft) sends it",
  fields: (t) => ({
    id: t.exposeID("id"),
    agentId: t.exposeString("agentId"),
    to: t.stringList({ resolve: (draft) => addressesOf(draft.toList) }),
    cc: t.stringList({ resolve: (draft) => addressesOf(draft.ccList) }),
    bcc: t.stringList({ resolve: (draft) => addressesOf(draft.bccList) }),
    subject: t.exposeString("subject", { nullable: true }),
    text: t.exposeString("bodyText", { nullable: true, complexity: BODY_COST }),
    html: t.exposeString("bodyHtml", { nullable: true, complexity: BODY_COST }),
    // Costs nothing of its own: it stands in for the bodies (as Email.fenced does).
    fenced: t.string({
      complexity: 0,
      description:
        "text (else html) inside a fence it cannot close, labelled author=you, for a model to read: a forward quotes its original, which is its sender's data",
      resolve: (draft) => fencedOwnTextOf(draft),
    }),
    replyTo: t.exposeString("replyTo", { nullable: true }),
    attachments: t.field({
      type: [DraftAttachmentType],
      resolve: (draft) => keptAttachmentsOf(draft.attachments),
    }),
    inReplyTo: t.exposeString("inReplyTo", {
      nullable: true,
      description: "The received email it answers: it is sent as a reply to it",
    }),
    sendStatus: t.field({
      type: SendStatusEnum,
      description: "While pending_approval, read it or delete it to withdraw it; when rejected, see rejectReason",
      resolve: (draft) => draft.sendStatus as SendStatus,
    }),
    approvalExpiresAt: t.expose("reviewExpiresAt", {
      type: "Timestamp",
      nullable: true,
      description: "While it waits for a person: when it is rejected as expired if nobody decides",
    }),
    rejectReason: t.exposeString("rejectReason", {
      nullable: true,
      description: "Why a person rejected it; expired when nobody decided in time",
    }),
    sendAt: t.expose("sendAt", { type: "Timestamp", nullable: true, description: "When a scheduled draft goes out" }),
    failure: t.field({
      type: DraftFailureType,
      nullable: true,
      description: "Why its scheduled send was refused",
      resolve: (draft) =>
        draft.failureCode === null ? null : { code: draft.failureCode, message: draft.failureMessage ?? "" },
    }),
    size: t.exposeInt("size", { description: "Bytes it counts against storage" }),
    createdAt: t.expose("createdAt", { type: "Timestamp" }),
    updatedAt: t.expose("updatedAt", { type: "Timestamp" }),
  }),
});

const DraftPage = pageType("DraftPage", DraftType);

const DraftInput = builder.inputType("DraftInput", {
  description: "A draft's fields: left out keeps one (or leaves it empty), null clears it",
  fields: (t) => ({
    to: t.stringList({ description: "At most 50 addresses (to, cc and bcc together)" }),
    cc: t.stringList({ description: "Copies" }),
    bcc: t.stringList({ description: "Blind copies: not shown to the other recipients" }),
    subject: t.string({ description: "One line, at most 998 characters" }),
    text: t.string({ description: "Plain body; text or html is needed to send it" }),
    html: t.string({ description: "HTML body" }),
    replyTo: t.string({ description: "Where answers should go, if not to the agent" }),
    attachments: t.field({ type: [AttachmentInput], description: ATTACHMENTS }),
    inReplyTo: t.id({
      description:
        "Only when it is made: a received email's id, which it answers (its recipients, Re: subject, thread)",
    }),
    sendAt: t.field({
      type: "Timestamp",
      description: `Send it then (at most ${MAX_SCHEDULE_DAYS} days ahead; a time past is now); null: keep it as a plain draft`,
    }),
  }),
});

const positionOf = (draft: DraftRecord) => ({ at: draft.createdAt, id: draft.id });

builder.prismaObjectFields(AgentType, (t) => ({
  drafts: t.field({
    type: DraftPage,
    description: "Drafts, newest first.",
    args: pageArgs,
    authScopes: agentField("send"),
    complexity: pageCost,
    resolve: async (agent, args, ctx) => listDrafts(ctx, await draftReaderFor(ctx, agent), args),
  }),
  draftConnection: t.connection({
    type: DraftType,
    description: "Drafts as a cursor connection, newest first.",
    authScopes: agentField("send"),
    complexity: connectionCost,
    resolve: async (agent, args, ctx, info) => {
      const reader = await draftReaderFor(ctx, agent);
      return connectionOf(args, positionOf, (slice) => draftSlice(ctx, reader, slice, nodesQuery(ctx, info)));
    },
  }),
  draft: t.prismaField({
    type: "Draft",
    nullable: true,
    description: "One draft.",
    args: { id: t.arg.id({ required: true }) },
    authScopes: agentField("send"),
    resolve: async (query, agent, args, ctx) =>
      getDraft(ctx, await draftReaderFor(ctx, agent), args.id, query as DraftQuery),
  }),
}));

builder.mutationFields((t) => ({
  createDraft: t.field({
    type: DraftType,
    description: "Writes a draft; it counts against storage until it is sent or deleted.",
    args: { agentId: t.arg.id({ required: true }), input: t.arg({ type: DraftInput, required: true }) },
    authScopes: verifiedAgentArg("send"),
    resolve: forCaller(async (agent, args, ctx) =>
      createDraft(ctx, { ...agent, ...(await readerFor(ctx, agent)) }, args.input),
    ),
  }),
  updateDraft: t.field({
    type: DraftType,
    description: "Changes the fields given; null clears one.",
    args: {
      agentId: t.arg.id({ required: true }),
      draftId: t.arg.id({ required: true }),
      input: t.arg({ type: DraftInput, required: true }),
    },
    authScopes: verifiedAgentArg("send"),
    resolve: forCaller(async (agent, args, ctx) =>
      updateDraft(ctx, await draftReaderFor(ctx, agent), args.draftId, args.input),
    ),
  }),
  deleteDraft: t.field({
    type: OutcomeType,
    description: "Deletes a draft, giving back its storage.",
    args: { agentId: t.arg.id({ required: true }), draftId: t.arg.id({ required: true }) },
    authScopes: verifiedAgentArg("send"),
    resolve: forCaller(async (agent, args, ctx) => deleteDraft(ctx, await draftReaderFor(ctx, agent), args.draftId)),
  }),
}));
