import { createContextCache } from "@pothos/core";
import { ServiceError } from "../errors.ts";
import { emailAttachments, type Part } from "../mailbox/attachments.ts";
import type { Authentication } from "../mailbox/authentication.ts";
import {
  deleteEmail,
  type EmailQuery,
  emailOwner,
  emailSlice,
  folderSummary,
  getEmail,
  listEmails,
  readerOf,
  updateEmail,
  updateEmails,
} from "../mailbox/emails.ts";
import { labelsOf, MAX_LABEL_LENGTH, MAX_LABELS } from "../mailbox/labels.ts";
import type { Link } from "../mailbox/reading/index.ts";
import { type AgentRecord, authenticationOf, type EmailRecord, keptCodesOf, keptLinksOf } from "../mailbox/records.ts";
import type { AutoSubmitted } from "../mailbox/reports.ts";
import type { Screening, Signal } from "../mailbox/screening/index.ts";
import type { MailFilter } from "../mailbox/search.ts";
import {
  fencedTextOf,
  malwareOf,
  type ShownMalware,
  type ShownSpam,
  screeningOf,
  spamOf,
} from "../mailbox/verdicts.ts";
import { AgentType } from "./agents.ts";
import { builder, OutcomeType } from "./builder.ts";
import type { Context } from "./context.ts";
import {
  AutoSubmittedEnum,
  MalwareStatusEnum,
  ScreeningVerdictEnum,
  SignalNameEnum,
  SignalPlaceEnum,
  SpamActionEnum,
  SpamStatusEnum,
} from "./enums.ts";
import { BODY_COST, bodyBytes } from "./limits.ts";
import { agentField, forCaller, forCallerWith, verifiedAgentArg } from "./own-agent.ts";
import { connectionCost, connectionOf, nodesQuery, pageArgs, pageCost, pageQuery, pageType } from "./pages.ts";

// Received mail and the agent's folders.

const EmailAddress = builder.objectRef<{ address: string; name: string | null }>("EmailAddress").implement({
  fields: (t) => ({
    address: t.exposeString("address"),
    name: t.exposeString("name", { nullable: true }),
  }),
});

/** The agent an attachment's email is of: the key's own, or (a pod's key) the email's agent as the key reaches it. */
async function attachmentAgent(ctx: Context, emailId: string): Promise<AgentRecord> {
  const { agent } = await ctx.holder();
  return agent ?? ctx.acting(await emailOwner(ctx, emailId));
}

/** The agent's mail as the request's key may read it (readerOf). */
export const readerFor = async (ctx: Context, agent: { id: string }) => readerOf(agent, await ctx.grant());

/**
 * Per request: each email's attachments with their bytes, so that its message is read and parsed once however
 * many of their contents the request asks for.
 */
const partsRead = createContextCache((_: Context) => new Map<string, Promise<Part[]>>());

/** One attachment's bytes, from its email's parts as this request read them. */
async function attachmentBytes(ctx: Context, emailId: string, attachmentId: string): Promise<Buffer> {
  const read = partsRead(ctx);
  let parts = read.get(emailId);
  if (!parts) {
    parts = (async () => emailAttachments(ctx, await readerFor(ctx, await attachmentAgent(ctx, emailId)), emailId))();
    read.set(emailId, parts);
  }
  const part = (await parts).find(({ record }) => record.id === attachmentId);
  if (!part) throw new ServiceError("NOT_FOUND", "Attachment not found");
  return part.content;
}

/** Attachment.content carries no more than this; larger ones are downloaded. */
const MAX_INLINE_CONTENT = 10 * 1024 * 1024;

builder.prismaObject("Attachment", {
  fields: (t) => ({
    id: t.exposeID("id"),
    filename: t.exposeString("filename"),
    contentType: t.exposeString("contentType"),
    size: t.exposeInt("size", { description: "Bytes, decoded" }),
    inline: t.exposeBoolean("inline", { description: "Shown in the body (by its contentId) rather than attached" }),
    contentId: t.exposeString("contentId", { nullable: true }),
    sha256: t.exposeString("sha256", { description: "Of the decoded bytes, in hex" }),
    // Only the caller's own mail leads to its attachments: the path is the caller's.
    downloadPath: t.string({
      description: "Where its bytes are served, with the same API key",
      resolve: async (a, _, ctx) =>
        `/agents/${(await attachmentAgent(ctx, a.emailId)).id}/emails/${a.emailId}/attachments/${a.id}`,
    }),
    content: t.string({
      description: `The bytes in base64; refused above ${MAX_INLINE_CONTENT / 2 ** 20} MiB (use downloadPath)`,
      complexity: BODY_COST,
      resolve: async (a, _, ctx) => {
        if (a.size > MAX_INLINE_CONTENT) {
          throw new ServiceError(
            "PAYLOAD_TOO_LARGE",
            `The attachment is over ${MAX_INLINE_CONTENT / 2 ** 20} MiB: download it from downloadPath`,
          );
        }
        return ctx.answer.load(
          async () => (await attachmentBytes(ctx, a.emailId, a.id)).toString("base64"),
          (base64) => base64.length,
        );
      },
    }),
  }),
});

/** Read from the email's own row: no work beyond it, so no cost (REST lists of 100 stay within the limit). */
const AuthenticationType = builder.objectRef<Authentication>("Authentication").implement({
  description: "Who sent it, as the sender's domain tells; each check a result word, null when not evaluated",
  fields: (t) => ({
    spf: t.exposeString("spf", { nullable: true, complexity: 0 }),
    dkim: t.exposeString("dkim", { nullable: true, complexity: 0 }),
    dmarc: t.exposeString("dmarc", { nullable: true, complexity: 0 }),
    arc: t.exposeString("arc", { nullable: true, complexity: 0 }),
    verdict: t.exposeString("verdict", {
      complexity: 0,
      description:
        "pass, fail or none: DMARC's when the domain has a policy, else pass when SPF or DKIM passed aligned with the From domain",
    }),
  }),
});

// The verdicts, read from the email's own row as authentication is: no cost.
const SpamVerdictType = builder.objectRef<ShownSpam>("SpamVerdict").implement({
  description: "Rspamd's verdict at filing",
  fields: (t) => ({
    status: t.expose("status", { type: SpamStatusEnum, complexity: 0, description: "Whether Rspamd answered" }),
    action: t.expose("action", {
      type: SpamActionEnum,
      nullable: true,
      complexity: 0,
      description: "What Rspamd said to do with it; null when unscanned",
    }),
    score: t.exposeFloat("score", {
      nullable: true,
      complexity: 0,
      description: "Rspamd's score; null when unscanned",
    }),
    requiredScore: t.exposeFloat("requiredScore", {
      nullable: true,
      complexity: 0,
      description: "The score at which Rspamd rejects; null when unscanned",
    }),
    symbols: t.exposeStringList("symbols", { complexity: 0, description: "The names of the rules that matched" }),
    isSpam: t.exposeBoolean("isSpam", {
      complexity: 0,
      description:
        "The verdict calls it spam (any action but no action): filed in junk unless an allow entry names the sender, in the inbox when a person released it from quarantine",
    }),
  }),
});

const MalwareVerdictType = builder.objectRef<ShownMalware>("MalwareVerdict").implement({
  description: "clamd's verdict at filing",
  fields: (t) => ({
    status: t.expose("status", {
      type: MalwareStatusEnum,
      complexity: 0,
      description: "clean or unscanned; infected only on mail a person released from quarantine",
    }),
  }),
});

const SignalType = builder.objectRef<Signal>("ScreeningSignal").implement({
  description: "One sign of a prompt injection the screening found",
  fields: (t) => ({
    name: t.expose("name", { type: SignalNameEnum, complexity: 0, description: "What was found" }),
    where: t.expose("where", { type: SignalPlaceEnum, complexity: 0, description: "Where it was found" }),
    excerpt: t.exposeString("excerpt", {
      complexity: 0,
      description: "Up to 80 characters around it, invisible characters written as [U+200B]",
    }),
  }),
});

const ScreeningType = builder.objectRef<Screening>("Screening").implement({
  description: "The prompt-injection screening of what an agent would read (docs/screening.md)",
  fields: (t) => ({
    verdict: t.expose("verdict", { type: ScreeningVerdictEnum, complexity: 0, description: "clear or suspicious" }),
    signals: t.field({
      type: [SignalType],
      complexity: 0,
      description: "Each sign found, once per place, ordered by place then name",
      resolve: (screening) => screening.signals,
    }),
  }),
});

const LinkType = builder.objectRef<Link>("Link").implement({
  fields: (t) => ({ url: t.exposeString("url"), text: t.exposeString("text") }),
});

export const EmailType = builder.prismaObject("Email", {
  fields: (t) => ({
    id: t.exposeID("id"),
    agentId: t.exposeString("agentId"),
    messageId: t.exposeString("messageId", { nullable: true, description: "Original Message-ID header" }),
    from: t.field({
      type: EmailAddress,
      resolve: (email) => ({ address: email.fromAddress, name: email.fromName }),
    }),
    to: t.exposeString("to", { description: "The receiving agent's address" }),
    subject: t.exposeString("subject", { nullable: true }),
    bodyText: t.exposeString("bodyText", { nullable: true, complexity: BODY_COST }),
    bodyHtml: t.exposeString("bodyHtml", { nullable: true, complexity: BODY_COST }),
    receivedAt: t.expose("receivedAt", { type: "Timestamp" }),
    isRead: t.exposeBoolean("isRead"),
    folder: t.exposeString("folder"),
    labels: t.stringList({
      complexity: 0,
      description: "The agent's labels on it, in lower case, in the order they were put on",
      resolve: (email) => labelsOf(email.labels),
    }),
    threadId: t.exposeID("threadId"),
    text: t.exposeString("text", {
      nullable: true,
      complexity: BODY_COST,
      description: "The plain text for reading: the text body, else the HTML as text (links as text (url))",
    }),
    preview: t.exposeString("preview", { description: "The first 200 characters of text, whitespace collapsed" }),
    replyText: t.exposeString("replyText", {
      nullable: true,
      complexity: BODY_COST,
      description: "What the sender wrote in this message, without quoted history, forwarded blocks or signature",
    }),
    links: t.field({
      type: [LinkType],
      description: "http and https links in document order, each once, at most 100",
      resolve: (email) => keptLinksOf(email.links),
    }),
    codes: t.stringList({
      description: "Likely one-time codes and verification tokens, best first",
      resolve: (email) => keptCodesOf(email.codes),
    }),
    autoSubmitted: t.field({
      type: AutoSubmittedEnum,
      nullable: true,
      description: "Whether a machine sent it; null for a person, as far as the headers tell",
      resolve: (email) => email.autoSubmitted as AutoSubmitted,
    }),
    authentication: t.field({
      type: AuthenticationType,
      complexity: 0,
      resolve: (email) => authenticationOf(email),
    }),
    // Read from the email's own row, as authentication is: no cost, so REST lists of 100 stay within the limit.
    reportIgnored: t.exposeString("reportIgnored", {
      nullable: true,
      complexity: 0,
      description:
        "A delivery report or complaint filed as mail because it changed nothing, why: not_at_return_path, sender_not_empty, no_sent_email or no_recipient_mailed; null for other mail",
    }),
    spam: t.field({
      type: SpamVerdictType,
      nullable: true,
      complexity: 0,
      description: "Rspamd's verdict; null when the operator runs no Rspamd",
      resolve: (email) => spamOf(email),
    }),
    malware: t.field({
      type: MalwareVerdictType,
      nullable: true,
      complexity: 0,
      description: "clamd's verdict; null when the operator runs no clamd",
      resolve: (email) => malwareOf(email),
    }),
    screening: t.field({
      type: ScreeningType,
      complexity: 0,
      description: "The prompt-injection screening, on every received email",
      resolve: (email) => screeningOf(email),
    }),
    // Costs nothing of its own: it stands in for the bodies, whose cost a list
    // already counts (REST's documents select both, under @skip and @include,
    // which the cost does not read), and the answer's bytes are held to the
    // body budget either way (it is made of the text column).
    fenced: t.string({
      complexity: 0,
      description:
        "text inside a fence it cannot close, for a model to read: a label naming the sender, whether it authenticated and the screening's verdict, a new random nonce in each answer, and a one-line warning first when suspicious",
      resolve: (email) => fencedTextOf(email),
    }),
    attachments: t.relation("attachments", {
      description: "Its attachments and inline parts, in the order the message has them",
      query: { orderBy: { position: "asc" } },
    }),
  }),
});

export const EmailPage = pageType("EmailPage", EmailType);

const FolderType = builder.objectRef<{ name: string; total: number; unread: number }>("Folder").implement({
  fields: (t) => ({
    name: t.exposeString("name"),
    total: t.exposeInt("total"),
    unread: t.exposeInt("unread"),
  }),
});

const UpdateEmailsResult = builder.objectRef<{ updated: number }>("UpdateEmailsResult").implement({
  fields: (t) => ({
    updated: t.exposeInt("updated", { description: "Emails whose folder, read flag or labels changed" }),
  }),
});

const positionOf = (email: EmailRecord) => ({ at: email.receivedAt, id: email.id });

/** How a list, a search or a wait is narrowed by labels. */
export const LABEL_FILTER = "Only mail with each of these labels (without case); -label for mail without it";

/** A change of labels, for emails and threads alike (the domain's LabelChange). */
export const labelChangeArgs = builder.args((t) => ({
  addLabels: t.stringList({
    description: `Labels to put on (each 1-${MAX_LABEL_LENGTH} characters, no commas, not starting with -; at most ${MAX_LABELS} on one item); one already there is no error`,
  }),
  removeLabels: t.stringList({ description: "Labels to take off; one that is not there is no error" }),
}));

/** A change to emails (the domain's EmailChange): their folder, read flag and labels. */
const emailChangeArgs = builder.args((t) => ({
  folder: t.string({ description: "inbox, archive, trash, junk or a custom name" }),
  isRead: t.boolean({ description: "Read (true) or unread (false)" }),
  ...labelChangeArgs,
}));

/** What a search takes. */
export const SEARCH_TERMS =
  'Words (each a prefix, all must match), "exact phrases" and -excluded words; best match first';

/** Which of the agent's mail a list shows. */
export const mailArgs = builder.args((t) => ({
  folder: t.string({ description: "inbox, archive, trash, junk or one of the agent's own (without case)" }),
  search: t.string({ description: SEARCH_TERMS }),
  from: t.string({ description: "A sender's address, or @domain" }),
  to: t.string({ description: "An address in To or Cc" }),
  // Not after/before: a connection's cursors go by those names.
  receivedAfter: t.field({ type: "Timestamp", description: "Received after this time" }),
  receivedBefore: t.field({ type: "Timestamp", description: "Received before this time" }),
  isRead: t.boolean({ description: "Only read (true) or unread (false) mail" }),
  hasAttachments: t.boolean({ description: "Only mail with (true) or without (false) attachments" }),
  authenticated: t.boolean({ description: "Only mail whose authentication verdict is pass (true), or is not (false)" }),
  autoSubmitted: t.boolean({
    description: "Only mail a machine sent (true: auto-replies, auto-generated, lists), or only people's (false)",
  }),
  spam: t.boolean({ description: "Only mail Rspamd's verdict calls spam (true), or none of it (false)" }),
  label: t.stringList({ description: LABEL_FILTER }),
}));

/** The filter's arguments as GraphQL takes them: its times as dates named for what they bound. */
export type MailArgs = Omit<MailFilter, "after" | "before"> & {
  receivedAfter?: Date | null;
  receivedBefore?: Date | null;
};

export const filterOf = ({ receivedAfter, receivedBefore, ...rest }: MailArgs): MailFilter => ({
  ...rest,
  after: receivedAfter?.getTime() ?? null,
  before: receivedBefore?.getTime() ?? null,
});

builder.prismaObjectFields(AgentType, (t) => ({
  emails: t.field({
    type: EmailPage,
    description: "Received mail, newest first (best match first with search); all folders unless one is named.",
    args: { ...mailArgs, ...pageArgs },
    authScopes: agentField("read"),
    complexity: pageCost,
    resolve: (agent, args, ctx, info) => {
      const request = { ...filterOf(args), limit: args.limit, offset: args.offset };
      const query = pageQuery(ctx, info);
      return ctx.answer.load(async () => listEmails(ctx, await readerFor(ctx, agent), request, query), bodyBytes);
    },
  }),
  emailConnection: t.connection({
    type: EmailType,
    description: "Received mail as a cursor connection, newest first (with search too), for paging deep.",
    args: mailArgs,
    authScopes: agentField("read"),
    complexity: connectionCost,
    resolve: (agent, args, ctx, info) =>
      connectionOf(args, positionOf, (slice) =>
        ctx.answer.load(
          async () => emailSlice(ctx, await readerFor(ctx, agent), filterOf(args), slice, nodesQuery(ctx, info)),
          bodyBytes,
        ),
      ),
  }),
  folders: t.field({
    type: [FolderType],
    description: "inbox, archive, trash and junk, then every custom folder that holds mail.",
    authScopes: agentField("read"),
    resolve: async (agent, _, ctx) => folderSummary(ctx, await readerFor(ctx, agent)),
  }),
}));

builder.queryField("email", (t) =>
  t.prismaField({
    type: "Email",
    nullable: true,
    description: "One received email of your agent.",
    args: { agentId: t.arg.id({ required: true }), emailId: t.arg.id({ required: true }) },
    authScopes: verifiedAgentArg("read"),
    resolve: forCallerWith((agent, query: EmailQuery, args, ctx) =>
      ctx.answer.load(async () => getEmail(ctx, await readerFor(ctx, agent), args.emailId, query), bodyBytes),
    ),
  }),
);

builder.mutationFields((t) => ({
  updateEmail: t.prismaField({
    type: "Email",
    description: "Moves an email to a folder, sets its read flag, and/or puts labels on it or takes them off.",
    args: {
      agentId: t.arg.id({ required: true }),
      emailId: t.arg.id({ required: true }),
      ...emailChangeArgs,
    },
    // Its answer is the email: read besides.
    authScopes: verifiedAgentArg(["manage", "read"]),
    resolve: forCallerWith((agent, query: EmailQuery, args, ctx) =>
      ctx.answer.load(async () => updateEmail(ctx, await readerFor(ctx, agent), args.emailId, args, query), bodyBytes),
    ),
  }),
  updateEmails: t.field({
    type: UpdateEmailsResult,
    description: "One change to up to 100 emails: all of them, or none when one is not the agent's (404).",
    args: {
      agentId: t.arg.id({ required: true }),
      emailIds: t.arg.idList({ required: true, description: "1-100 of the agent's emails" }),
      ...emailChangeArgs,
    },
    authScopes: verifiedAgentArg("manage"),
    resolve: forCaller(async (agent, args, ctx) =>
      updateEmails(ctx, await readerFor(ctx, agent), args.emailIds.map(String), args),
    ),
  }),
  deleteEmail: t.field({
    type: OutcomeType,
    description: "Moves an email to trash; from trash, or with permanent, deletes it for good.",
    args: {
      agentId: t.arg.id({ required: true }),
      emailId: t.arg.id({ required: true }),
      permanent: t.arg.boolean({ description: "Delete for good, freeing its storage (default false)" }),
    },
    authScopes: verifiedAgentArg("manage"),
    resolve: forCaller(async (agent, args, ctx) =>
      deleteEmail(ctx, await readerFor(ctx, agent), args.emailId, args.permanent ?? false),
    ),
  }),
}));
