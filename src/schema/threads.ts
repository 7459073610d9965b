import { getThread, listThreads, type ThreadMessage, type ThreadRecord, threadSlice } from "../mailbox/threads.ts";
import { AgentType } from "./agents.ts";
import { builder } from "./builder.ts";
import { EmailType } from "./emails.ts";
import { bodyBytes } from "./limits.ts";
import { connectionCost, connectionOf, pageCost, pageType } from "./pages.ts";
import { SentEmailType } from "./sending.ts";

// Conversations: received and sent mail linked by Message-ID.

export const ThreadType = builder.objectRef<ThreadRecord & { messages?: ThreadMessage[] }>("Thread").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    subject: t.exposeString("subject", { description: "The first message's subject without Re:/Fwd: prefixes" }),
    participants: t.exposeStringList("participants", { description: "Every address involved, in lower case" }),
    messageCount: t.exposeInt("messageCount", { description: "Received and sent messages" }),
    unreadCount: t.exposeInt("unreadCount"),
    lastMessageAt: t.expose("lastMessageAt", { type: "Timestamp" }),
    messages: t.field({
      type: [ThreadMessageType],
      description: "Received and sent, oldest first.",
      complexity: { field: 1, multiplier: 20 },
      resolve: async (thread, _, ctx) =>
        thread.messages ??
        (await ctx.answer.load(async () => (await getThread(ctx, await ctx.caller(), thread.id)).messages, bodyBytes)),
    }),
  }),
});

const ThreadMessageType = builder.objectRef<ThreadMessage>("ThreadMessage").implement({
  description: "A message of a thread: an email received, or one sent.",
  fields: (t) => ({
    direction: t.string({ description: "received or sent", resolve: (message) => message.direction }),
    email: t.field({
      type: EmailType,
      nullable: true,
      description: "The email, when received",
      resolve: (message) => (message.direction === "received" ? message : null),
    }),
    sent: t.field({
      type: SentEmailType,
      nullable: true,
      description: "The sent email, when sent",
      resolve: (message) => (message.direction === "sent" ? message : null),
    }),
  }),
});

const ThreadPage = pageType("ThreadPage", ThreadType);

const positionOf = (thread: ThreadRecord) => ({ at: thread.lastMessageAt, id: thread.id });

builder.objectFields(AgentType, (t) => ({
  threads: t.field({
    type: ThreadPage,
    description: "Conversations, newest activity first; with a folder, those with received mail in it.",
    args: { folder: t.arg.string(), limit: t.arg.int(), offset: t.arg.int() },
    authScopes: (agent) => ({ verifiedAgent: agent.id }),
    complexity: pageCost,
    resolve: (agent, args, ctx) => listThreads(ctx, agent, args),
  }),
  threadConnection: t.connection({
    type: ThreadType,
    description: "Conversations as a cursor connection, newest activity first.",
    args: { folder: t.arg.string() },
    authScopes: (agent) => ({ verifiedAgent: agent.id }),
    complexity: connectionCost,
    resolve: (agent, args, ctx) =>
      connectionOf(args, positionOf, (slice) => threadSlice(ctx, agent, args.folder, slice)),
  }),
}));

builder.objectFields(EmailType, (t) => ({
  thread: t.field({
    type: ThreadType,
    description: "The conversation this email belongs to.",
    resolve: async (email, _, ctx) => getThread(ctx, await ctx.caller(), email.threadId),
  }),
}));

builder.objectFields(SentEmailType, (t) => ({
  thread: t.field({
    type: ThreadType,
    description: "The conversation this email belongs to.",
    resolve: async (sent, _, ctx) => getThread(ctx, await ctx.caller(), sent.threadId),
  }),
}));

builder.queryField("thread", (t) =>
  t.field({
    type: ThreadType,
    description: "One conversation of your agent, with its messages.",
    args: { agentId: t.arg.id({ required: true }), threadId: t.arg.id({ required: true }) },
    authScopes: (_, args) => ({ verifiedAgent: args.agentId }),
    resolve: async (_, args, ctx) => {
      const agent = await ctx.caller();
      return ctx.answer.load(
        () => getThread(ctx, agent, args.threadId),
        (thread) => bodyBytes(thread.messages),
      );
    },
  }),
);
