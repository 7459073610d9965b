import type { Email, SentEmail, Thread } from "../generated/prisma/sqlite/client.ts";
import { labelsOf } from "../mailbox/labels.ts";
import {
  getThread,
  listThreads,
  MESSAGE_ORDER,
  participantsOf,
  shownEmails,
  type ThreadMessage,
  type ThreadQuery,
  threadMessages,
  threadSlice,
  UNREAD_EMAILS,
  updateThread,
} from "../mailbox/threads.ts";
import { AgentType } from "./agents.ts";
import { builder } from "./builder.ts";
import { EmailType, labelChangeArgs, readerFor } from "./emails.ts";
import { DirectionEnum } from "./enums.ts";
import { bodyBytes } from "./limits.ts";
import { agentField, forCallerWith, heldField, verifiedAgentArg } from "./own-agent.ts";
import { connectionCost, connectionOf, nodesQuery, pageArgs, pageCost, pageQuery, pageType } from "./pages.ts";
import { SentEmailType } from "./sending.ts";

// Conversations: received and sent mail linked by Message-ID. A thread's
// counts, participants and messages are read from its emails and sent mail,
// loaded together with the thread; its labels are its own, on its row.

/** What a thread's participants are read from: the addresses of its messages, those the key may see. */
const addressesShown = (hidden: string | null) =>
  ({
    emails: { select: { fromAddress: true, toList: true, ccList: true }, where: shownEmails(hidden) },
    sent: { select: { toList: true, ccList: true, bccList: true } },
    agent: { select: { id: true, domain: true } },
  }) as const;

/** A relation's planned query with the columns messages are ordered by, when it selects columns at all. */
function ordered<Q>(query: Q, columns: Record<string, true>): Q {
  if (typeof query !== "object" || query === null || !("select" in query)) return query;
  return { ...query, select: { ...columns, ...(query.select as object) } };
}

/** A relation's planned query (true: every column) narrowed to the rows a condition picks. */
const narrowed = <Q>(query: Q, where: object) =>
  typeof query === "object" && query !== null ? { ...query, where } : { where };

const ThreadMessageType = builder.objectRef<ThreadMessage>("ThreadMessage").implement({
  description: "A message of a thread: an email received, or one sent.",
  // Its nullable objects are alternatives, one set in each (the OpenAPI document describes it so).
  extensions: { alternatives: true },
  fields: (t) => ({
    direction: t.field({ type: DirectionEnum, resolve: (message) => message.direction }),
    email: t.field({
      type: EmailType,
      nullable: true,
      description: "The email, when received",
      resolve: (message) => (message.direction === "received" ? message.email : null),
    }),
    sent: t.field({
      type: SentEmailType,
      nullable: true,
      description: "The sent email, when sent",
      resolve: (message) => (message.direction === "sent" ? message.sent : null),
    }),
  }),
});

export const ThreadType = builder.prismaObject("Thread", {
  fields: (t) => ({
    id: t.exposeID("id"),
    subject: t.exposeString("subject", { description: "The first message's subject without Re:/Fwd: prefixes" }),
    participants: t.stringList({
      description: "Every address involved, in lower case",
      select: (_args, ctx) => addressesShown(ctx.barredFolder()),
      resolve: (thread, _, ctx) => participantsOf(ctx, thread),
    }),
    messageCount: t.int({
      description: "Received and sent messages",
      select: (_args, ctx) => ({
        _count: { select: { emails: { where: shownEmails(ctx.barredFolder()) }, sent: true } },
      }),
      resolve: (thread) => thread._count.emails + thread._count.sent,
    }),
    unreadCount: t.relationCount("emails", {
      description: "Received messages not read",
      where: (_args, ctx) => ({ ...UNREAD_EMAILS, ...shownEmails(ctx.barredFolder()) }),
    }),
    lastMessageAt: t.expose("lastMessageAt", { type: "Timestamp" }),
    labels: t.stringList({
      complexity: 0,
      description: "The thread's own labels (not its messages'), in lower case, in the order they were put on",
      resolve: (thread) => labelsOf(thread.labels),
    }),
    messages: t.field({
      type: [ThreadMessageType],
      description: "Received and sent, oldest first.",
      complexity: { field: 1, multiplier: 20 },
      // A message the client reads no field of is still listed, by its direction: its order is all it needs.
      select: (_args, ctx, nested) => ({
        emails: narrowed(ordered(nested(true, ["email"]), MESSAGE_ORDER.emails), shownEmails(ctx.barredFolder())),
        sent: ordered(nested(true, ["sent"]), MESSAGE_ORDER.sent),
      }),
      resolve: (thread) => threadMessages(thread as Thread & { emails: Email[]; sent: SentEmail[] }),
    }),
  }),
});

const ThreadPage = pageType("ThreadPage", ThreadType);

const positionOf = (thread: Thread) => ({ at: thread.lastMessageAt, id: thread.id });

/** Which threads a list shows. */
const threadArgs = builder.args((t) => ({
  folder: t.string({ description: "Only threads with received mail in this folder" }),
  label: t.stringList({
    description: "Only threads with each of these labels of their own (without case); -label for those without it",
  }),
}));

builder.prismaObjectFields(AgentType, (t) => ({
  threads: t.field({
    type: ThreadPage,
    description: "Conversations, newest activity first; with a folder, those with received mail in it.",
    args: { ...threadArgs, ...pageArgs },
    authScopes: agentField("read"),
    complexity: pageCost,
    resolve: (agent, args, ctx, info) =>
      ctx.answer.load(async () => listThreads(ctx, await readerFor(ctx, agent), args, pageQuery(ctx, info)), bodyBytes),
  }),
  threadConnection: t.connection({
    type: ThreadType,
    description: "Conversations as a cursor connection, newest activity first.",
    args: threadArgs,
    authScopes: agentField("read"),
    complexity: connectionCost,
    resolve: (agent, args, ctx, info) =>
      connectionOf(args, positionOf, (slice) =>
        ctx.answer.load(
          async () => threadSlice(ctx, await readerFor(ctx, agent), args, slice, nodesQuery(ctx, info)),
          bodyBytes,
        ),
      ),
  }),
}));

builder.prismaObjectField(EmailType, "thread", (t) =>
  t.relation("thread", { description: "The conversation this email belongs to." }),
);

// A sent email is a send's answer, but its conversation holds mail received: read besides (null and a 403
// naming read for a key without it).
builder.prismaObjectField(SentEmailType, "thread", (t) =>
  t.relation("thread", {
    description: "The conversation this email belongs to; null for a key without read.",
    nullable: true,
    authScopes: heldField("read"),
  }),
);

builder.queryField("thread", (t) =>
  t.prismaField({
    type: "Thread",
    nullable: true,
    description: "One conversation of your agent, with its messages.",
    args: { agentId: t.arg.id({ required: true }), threadId: t.arg.id({ required: true }) },
    authScopes: verifiedAgentArg("read"),
    resolve: forCallerWith((agent, query: ThreadQuery, args, ctx) =>
      ctx.answer.load(async () => getThread(ctx, await readerFor(ctx, agent), args.threadId, query), bodyBytes),
    ),
  }),
);

builder.mutationField("updateThread", (t) =>
  t.prismaField({
    type: "Thread",
    description: "Puts labels on a conversation or takes them off: its own, whatever its messages carry.",
    args: {
      agentId: t.arg.id({ required: true }),
      threadId: t.arg.id({ required: true }),
      ...labelChangeArgs,
    },
    // Its answer is the thread and its messages: read besides.
    authScopes: verifiedAgentArg(["manage", "read"]),
    resolve: forCallerWith(async (agent, query: ThreadQuery, args, ctx) =>
      ctx.answer.load(
        async () => updateThread(ctx, await readerFor(ctx, agent), args.threadId, args, query),
        bodyBytes,
      ),
    ),
  }),
);
