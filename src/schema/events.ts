import { type EmailQuery, getEmail, type Reader, waitForEmail } from "../mailbox/emails.ts";
import {
  agentEvents,
  type EventPage,
  type EventRecord,
  eventStream,
  MAX_EVENTS_PER_READ,
  MAX_WAIT_SECONDS,
} from "../mailbox/events.ts";
import { folderName, sameFolder } from "../mailbox/folders.ts";
import type { EmailRecord } from "../mailbox/records.ts";
import { AgentType } from "./agents.ts";
import { builder } from "./builder.ts";
import type { Context } from "./context.ts";
import { EmailType, LABEL_FILTER, readerFor } from "./emails.ts";
import { bodyBytes } from "./limits.ts";
import { agentField, forCaller, forCallerWith, verifiedAgentArg } from "./own-agent.ts";
import { LIMIT_EXTENSIONS } from "./pages.ts";

/** The bounds of a wait in seconds, read by REST's and MCP's checks as the domain refuses them. */
const WAIT_EXTENSIONS = { minimum: 0, maximum: MAX_WAIT_SECONDS };

// Mail the moment it is filed: the event log read after an id (with a wait),
// a wait for one matching email, and subscriptions over SSE or WebSocket.

const AFTER = "The id of the last event read; without it, events from the start of the log";
const EVENT_LIMIT = `At most this many (default and most ${MAX_EVENTS_PER_READ})`;
const TYPES = "Only events of these types, e.g. email.received";
const EVENT_LABELS =
  "Only events about an email with each of these labels as it is now (without case); -label for one without it";

/** What a read of events costs: as many as its limit lets through. */
export const eventsCost = (args: { limit?: number | null }) => ({
  field: 1,
  multiplier: Math.min(Math.max(args.limit ?? MAX_EVENTS_PER_READ, 0), MAX_EVENTS_PER_READ),
});

export const MailEventType = builder.objectRef<EventRecord>("MailEvent").implement({
  description: "Something that happened to the agent's mail",
  fields: (t) => ({
    id: t.exposeID("id", { description: "Decimal digits, increasing: compare as numbers" }),
    type: t.exposeString("type", {
      description: "email.received, email.sent, email.updated, email.deleted, agent.verified or webhook.disabled",
    }),
    agentId: t.exposeString("agentId"),
    createdAt: t.expose("createdAt", { type: "Timestamp" }),
    data: t.field({ type: "JSONObject", resolve: (event) => event.data }),
  }),
});

export const EventPageType = builder.objectRef<EventPage>("EventPage").implement({
  fields: (t) => ({
    data: t.field({ type: [MailEventType], resolve: (page) => page.data }),
    nextAfter: t.exposeID("nextAfter", { description: "Where the next read starts" }),
  }),
});

const EmailWaitFilter = builder.inputType("EmailWaitFilter", {
  fields: (t) => ({
    folder: t.string({ description: "Only mail in this folder" }),
    from: t.string({ description: "An address, or @domain for any sender there" }),
    subject: t.string({ description: "Part of the subject, without regard to case" }),
    label: t.stringList({ description: LABEL_FILTER }),
    after: t.field({ type: "Timestamp", description: "Mail received after this time; by default, from now" }),
  }),
});

/** A read of the event log: where it starts, how many it takes, and which events. */
const readArgs = builder.args((t) => ({
  after: t.id({ description: AFTER }),
  limit: t.int({ description: EVENT_LIMIT, extensions: LIMIT_EXTENSIONS }),
  types: t.stringList({ description: TYPES }),
  label: t.stringList({ description: EVENT_LABELS }),
}));

/** A read of the event log that may wait for the next event (an agent's or a pod's). */
export const waitingReadArgs = builder.args((t) => ({
  ...readArgs,
  wait: t.int({ description: "Seconds, 0-25", extensions: WAIT_EXTENSIONS }),
}));

/** A subscription to the event log: which events, and where it starts (an agent's or a pod's). */
export const streamArgs = builder.args((t) => ({
  types: t.stringList(),
  after: t.id(),
  label: t.stringList({ description: EVENT_LABELS }),
}));

builder.prismaObjectFields(AgentType, (t) => ({
  events: t.field({
    type: EventPageType,
    description: "Events after an id, oldest first.",
    args: readArgs,
    authScopes: agentField("events"),
    complexity: eventsCost,
    resolve: async (agent, args, ctx) => agentEvents(ctx, await readerFor(ctx, agent), args),
  }),
}));

builder.queryFields((t) => ({
  agentEvents: t.field({
    type: EventPageType,
    description: "Events after an id; with wait (0-25 s), holds on until at least one exists or the time runs out.",
    args: { agentId: t.arg.id({ required: true }), ...waitingReadArgs },
    authScopes: verifiedAgentArg("events"),
    complexity: eventsCost,
    resolve: forCaller(async (agent, args, ctx) =>
      agentEvents(ctx, await readerFor(ctx, agent), { ...args, waitSeconds: args.wait }, ctx.signal()),
    ),
  }),
  waitForEmail: t.prismaField({
    type: "Email",
    nullable: true,
    description:
      "The first matching email received after the filter's time, as soon as it is filed; null when none came in time.",
    args: {
      agentId: t.arg.id({ required: true }),
      filter: t.arg({ type: EmailWaitFilter }),
      timeoutSeconds: t.arg.int({ description: "0-25, default 25", extensions: WAIT_EXTENSIONS }),
    },
    // It answers the email itself: read besides.
    authScopes: verifiedAgentArg(["events", "read"]),
    resolve: forCallerWith(async (agent, query: EmailQuery, { filter, timeoutSeconds }, ctx) => {
      const wait = { ...filter, after: filter?.after?.getTime(), timeoutSeconds };
      const email = await waitForEmail(ctx, await readerFor(ctx, agent), wait, ctx.signal(), query);
      return email && ctx.answer.load(async () => email, bodyBytes);
    }),
  }),
}));

/**
 * A stream counted against its owner's limit (an agent's, or a pod's: "pod:<id>"),
 * released however it ends, even if it is ended before it was ever read. The
 * caller is checked before it is made and the limit here, before it starts, so
 * that a refusal is the answer's status rather than a message inside a stream.
 */
export function counted<T>(ctx: Context, owner: string, events: AsyncGenerator<T>): AsyncIterableIterator<T> {
  const release = ctx.streams.open(owner);
  const ended = <R>(result: R) => {
    release();
    return result;
  };
  const counting: AsyncIterableIterator<T> = {
    next: () =>
      events.next().then(
        (result) => (result.done ? ended(result) : result),
        (error: unknown) => {
          release();
          throw error;
        },
      ),
    return: (value) => events.return(value).finally(release),
    throw: (error) => events.throw(error).finally(release),
    [Symbol.asyncIterator]: () => counting,
  };
  return counting;
}

builder.subscriptionType({});

builder.subscriptionFields((t) => ({
  mailEvents: t.field({
    type: MailEventType,
    description: "The agent's events: those after `after` first (none when it is left out), then as they happen.",
    args: { agentId: t.arg.id({ required: true }), ...streamArgs },
    authScopes: verifiedAgentArg("events"),
    subscribe: async (_, args, ctx) => {
      const agent = await readerFor(ctx, await ctx.acting(args.agentId));
      return counted(
        ctx,
        agent.id,
        eventStream(ctx, agent, args, () => ctx.stillCaller(), ctx.signal()),
      );
    },
    resolve: (event: EventRecord) => event,
  }),
  emailReceived: t.field({
    type: EmailType,
    description: "Each email as it is filed for the agent (in one folder when named).",
    args: { agentId: t.arg.id({ required: true }), folder: t.arg.string() },
    // Each is the email itself: read besides.
    authScopes: verifiedAgentArg(["events", "read"]),
    subscribe: async (_, args, ctx) => {
      const agent = await readerFor(ctx, await ctx.acting(args.agentId));
      return counted(ctx, agent.id, receivedEmails(ctx, agent, args.folder == null ? null : folderName(args.folder)));
    },
    resolve: (email: EmailRecord) => email,
  }),
}));

/** Received emails as they are filed: each email.received event, read as the email it names. */
async function* receivedEmails(ctx: Context, agent: Reader & { id: string }, folder: string | null) {
  const request = { types: ["email.received"] };
  for await (const event of eventStream(ctx, agent, request, () => ctx.stillCaller(), ctx.signal())) {
    if (folder !== null && !sameFolder(String(event.data.folder), folder)) continue;
    // Deleted before it could be read: nothing to send.
    const email = await getEmail(ctx, agent, event.data.emailId as string).catch(() => null);
    if (email) yield email;
  }
}
