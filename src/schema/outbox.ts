import { findDraft, isPending, MAX_SCHEDULE_DAYS, type PendingSend, sendDraft } from "../mailbox/drafts.ts";
import { KEY_LIFETIME_HOURS } from "../mailbox/idempotency.ts";
import { sendEmail } from "../mailbox/outbox.ts";
import { forwardEmail, replyToEmail } from "../mailbox/replies.ts";
import { builder } from "./builder.ts";
import { DraftType, draftReaderFor } from "./drafts.ts";
import { readerFor } from "./emails.ts";
import { type SendStatus, SendStatusEnum } from "./enums.ts";
import { forCaller, verifiedAgentArg } from "./own-agent.ts";
import { ATTACHMENTS, AttachmentInput, SentEmailType } from "./sending.ts";

// Asking to send: the message goes now (a SentEmail), or waits as a draft
// (a PendingSend) for its sendAt or for a person's approval.

const AUTO_SUBMITTED = 'Leave out: it says a program sent it (RFC 3834). "no": a person dictates this message';
const SEND_AT = `Send it then (ms; at most ${MAX_SCHEDULE_DAYS} days ahead); past or within a second: now`;
const IDEMPOTENCY = `Retries with the same key within ${KEY_LIFETIME_HOURS} hours get the first answer, and nothing is sent twice`;

const PendingSendType = builder.objectRef<PendingSend>("PendingSend").implement({
  description:
    "A send that waits as a draft: for its sendAt (scheduled), or for a person's approval (pending_approval)",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The draft's id" }),
    status: t.field({
      type: SendStatusEnum,
      description: "scheduled, or pending_approval: a person decides, by a link that goes to them only",
      resolve: (pending) => pending.status as SendStatus,
    }),
    sendAt: t.expose("sendAt", { type: "Timestamp", nullable: true }),
    to: t.exposeStringList("to"),
    subject: t.exposeString("subject"),
    draft: t.field({
      type: DraftType,
      nullable: true,
      description: "The draft as it stands now; null once it was sent or deleted",
      resolve: async (pending, _, ctx) =>
        findDraft(ctx, await draftReaderFor(ctx, { id: pending.agentId }), pending.id),
    }),
  }),
});

const SendResultType = builder.unionType("SendResult", {
  description: "What asking to send answers: the sent email, or the draft it waits as",
  types: [SentEmailType, PendingSendType],
  resolveType: (result) => (isPending(result) ? PendingSendType : SentEmailType),
});

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
    sendAt: t.field({ type: "Timestamp", description: SEND_AT }),
  }),
});

const ReplyInput = builder.inputType("ReplyInput", {
  fields: (t) => ({
    text: t.string({ description: "Plain body; at least one of text and html" }),
    html: t.string({ description: "HTML body" }),
    replyAll: t.boolean({ description: "Also to the original's To and Cc, without your own address" }),
    attachments: t.field({ type: [AttachmentInput], description: ATTACHMENTS }),
    autoSubmitted: t.string({ description: AUTO_SUBMITTED }),
    sendAt: t.field({ type: "Timestamp", description: SEND_AT }),
  }),
});

const ForwardInput = builder.inputType("ForwardInput", {
  fields: (t) => ({
    to: t.stringList({ required: true, description: "1-50 recipient addresses" }),
    text: t.string({ description: "Written above the forwarded message" }),
    html: t.string({ description: "Written above the forwarded message, in HTML" }),
    attachments: t.field({ type: [AttachmentInput], description: "Besides the original's, which go along" }),
    autoSubmitted: t.string({ description: AUTO_SUBMITTED }),
    sendAt: t.field({ type: "Timestamp", description: SEND_AT }),
  }),
});

builder.mutationFields((t) => ({
  sendEmail: t.field({
    type: SendResultType,
    description:
      "Sends an email from the agent's address through the configured provider. With sendAt it waits as a scheduled draft; when the agent's send policy asks, it waits for a person's approval (PendingSend, pending_approval; the review link goes to the person).",
    args: {
      agentId: t.arg.id({ required: true }),
      input: t.arg({ type: SendEmailInput, required: true }),
      idempotencyKey: t.arg.string({ description: IDEMPOTENCY }),
    },
    authScopes: verifiedAgentArg("send"),
    resolve: forCaller(async (agent, args, ctx) =>
      sendEmail(ctx, { ...agent, ...(await readerFor(ctx, agent)) }, args.input, args.idempotencyKey),
    ),
  }),
  replyToEmail: t.field({
    type: SendResultType,
    description:
      "Replies to a received email, in its thread: to its Reply-To or sender, with Re: and its references. With sendAt it waits as a scheduled draft; when the agent's send policy asks, it waits for a person's approval (PendingSend, pending_approval; the review link goes to the person).",
    args: {
      agentId: t.arg.id({ required: true }),
      emailId: t.arg.id({ required: true }),
      input: t.arg({ type: ReplyInput, required: true }),
      idempotencyKey: t.arg.string({ description: IDEMPOTENCY }),
    },
    authScopes: verifiedAgentArg("send"),
    resolve: forCaller(async (agent, args, ctx) =>
      replyToEmail(ctx, { ...agent, ...(await readerFor(ctx, agent)) }, args.emailId, args.input, args.idempotencyKey),
    ),
  }),
  forwardEmail: t.field({
    type: SendResultType,
    description:
      "Forwards a received email with its attachments, quoted below your text. With sendAt it waits as a scheduled draft; when the agent's send policy asks, it waits for a person's approval (PendingSend, pending_approval; the review link goes to the person).",
    args: {
      agentId: t.arg.id({ required: true }),
      emailId: t.arg.id({ required: true }),
      input: t.arg({ type: ForwardInput, required: true }),
      idempotencyKey: t.arg.string({ description: IDEMPOTENCY }),
    },
    // The forward quotes the email, and its answer shows what went: read besides.
    authScopes: verifiedAgentArg(["send", "read"]),
    resolve: forCaller(async (agent, args, ctx) =>
      forwardEmail(ctx, { ...agent, ...(await readerFor(ctx, agent)) }, args.emailId, args.input, args.idempotencyKey),
    ),
  }),
  sendDraft: t.field({
    type: SendResultType,
    description:
      "Sends a draft as sendEmail sends a message (the same checks and limits); the draft is gone after. Held for a person when the agent's policy says so.",
    args: { agentId: t.arg.id({ required: true }), draftId: t.arg.id({ required: true }) },
    authScopes: verifiedAgentArg("send"),
    resolve: forCaller(async (agent, args, ctx) => sendDraft(ctx, await draftReaderFor(ctx, agent), args.draftId)),
  }),
}));
