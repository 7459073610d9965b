import { randomUUID } from "node:crypto";
import { queryFromInfo } from "@pothos/plugin-prisma";
import { TRANSACTION, type Tx } from "../db/client.ts";
import {
  giveSendBack,
  giveStorageBack,
  nextUtcMidnight,
  openSendDay,
  sendsOn,
  takeSend,
  takeStorage,
  utcDay,
} from "../db/quota.ts";
import { ServiceError } from "../errors.ts";
import type { SentEmail } from "../generated/prisma/sqlite/client.ts";
import { isEmailAddress } from "../outbound/address.ts";
import { composeMessage } from "../outbound/compose.ts";
import { addressOf } from "./agents.ts";
import { ownAgent } from "./auth.ts";
import { builder, Outcome } from "./builder.ts";
import type { Context } from "./context.ts";
import { loadPage, pageType } from "./pages.ts";

// Sending: one POST is one send against the daily limit, whatever the number
// of recipients, and the sent message's bytes count against storage. Both are
// taken before the provider is asked and given back if it refuses.

const MAX_RECIPIENTS = 50;
const SUBJECT_MAX = 998;
const NEWEST_FIRST = [{ sentAt: "desc" as const }, { id: "desc" as const }];

export const SentEmailType = builder.prismaObject("SentEmail", {
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID("id"),
    agentId: t.exposeString("agentId"),
    to: t.exposeString("to", { description: "The recipients, joined with ', '" }),
    recipients: t.stringList({ select: { to: true }, resolve: (sent) => sent.to.split(", ") }),
    subject: t.exposeString("subject"),
    bodyText: t.exposeString("bodyText", { nullable: true }),
    bodyHtml: t.exposeString("bodyHtml", { nullable: true }),
    sentAt: t.expose("sentAt", { type: "Timestamp" }),
    providerId: t.exposeString("providerId", { nullable: true, description: "The provider's tracking id" }),
  }),
});

const SentEmailPage = pageType("SentEmailPage", SentEmailType);

const SendQuota = builder.objectRef<{ limit: number; used: number; resetAt: Date }>("SendQuota").implement({
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

interface Outgoing {
  to: string[];
  subject: string;
  text: string | null;
  html: string | null;
  replyTo: string | null;
}

function validateOutgoing(input: typeof SendEmailInput.$inferInput): Outgoing {
  const bad = (message: string) => new ServiceError("BAD_REQUEST", message);
  if (input.to.length < 1 || input.to.length > MAX_RECIPIENTS) throw bad(`to must name 1-${MAX_RECIPIENTS} recipients`);
  const invalid = input.to.find((address) => !isEmailAddress(address));
  if (invalid !== undefined) throw bad(`to: ${JSON.stringify(invalid)} is not a valid email address`);
  const { subject } = input;
  if (subject === "" || [...subject].length > SUBJECT_MAX || /[\r\n]/.test(subject)) {
    throw bad(`subject must be 1-${SUBJECT_MAX} characters on one line`);
  }
  if (!input.text && !input.html) throw bad("Give text, html, or both");
  if (input.replyTo != null && !isEmailAddress(input.replyTo)) {
    throw bad(`replyTo: ${JSON.stringify(input.replyTo)} is not a valid email address`);
  }
  return { to: input.to, subject, text: input.text || null, html: input.html || null, replyTo: input.replyTo ?? null };
}

async function dailyLimitReached(ctx: Context, tx: Tx, agentId: string, now: Date): Promise<ServiceError> {
  const limit = ctx.config.dailySendLimit;
  return new ServiceError("RATE_LIMITED", `Daily send limit of ${limit} reached; it resets at midnight UTC`, {
    code: "DAILY_SEND_LIMIT_EXCEEDED",
    limit,
    current: await sendsOn(tx, agentId, utcDay(now)),
    resetAt: nextUtcMidnight(now).getTime(),
  });
}

async function storageFull(ctx: Context, tx: Tx, agentId: string): Promise<ServiceError> {
  const { storageUsed } = await tx.agent.findUniqueOrThrow({ where: { id: agentId } });
  return new ServiceError(
    "RATE_LIMITED",
    "Storage limit reached: delete emails permanently, or sent emails, to make room",
    { code: "STORAGE_LIMIT_EXCEEDED", limit: ctx.config.storageLimitBytes, current: storageUsed },
  );
}

builder.prismaObjectFields("Agent", (t) => ({
  sent: t.field({
    type: SentEmailPage,
    description: "Sent mail, newest first; total counts every send, not only today's.",
    args: { limit: t.arg.int(), offset: t.arg.int() },
    resolve: async (agent, args, ctx, info) => {
      await ownAgent(ctx, agent.id, { verified: true });
      const where = { agentId: agent.id };
      const query = queryFromInfo({ context: ctx, info, path: ["data"] });
      return loadPage(
        args,
        (window) =>
          ctx.prisma.sentEmail.findMany({ ...query, ...window, where, orderBy: NEWEST_FIRST }) as Promise<SentEmail[]>,
        () => ctx.prisma.sentEmail.count({ where }),
      );
    },
  }),
  sentConnection: t.prismaConnection({
    type: "SentEmail",
    cursor: "id",
    description: "Sent mail as a cursor connection, newest first.",
    resolve: async (query, agent, _args, ctx) => {
      await ownAgent(ctx, agent.id, { verified: true });
      return ctx.prisma.sentEmail.findMany({ ...query, where: { agentId: agent.id }, orderBy: NEWEST_FIRST });
    },
  }),
  sendQuota: t.field({
    type: SendQuota,
    description: "Where the agent stands against the daily send limit.",
    resolve: async (agent, _args, ctx) => {
      await ownAgent(ctx, agent.id, { verified: true });
      const now = ctx.clock.now();
      const used = await sendsOn(ctx.prisma, agent.id, utcDay(now));
      return { limit: ctx.config.dailySendLimit, used, resetAt: nextUtcMidnight(now) };
    },
  }),
}));

builder.mutationFields((t) => ({
  sendEmail: t.prismaField({
    type: "SentEmail",
    description: "Sends an email from the agent's address through the configured provider.",
    args: { agentId: t.arg.id({ required: true }), input: t.arg({ type: SendEmailInput, required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const agent = await ownAgent(ctx, String(args.agentId), { verified: true });
      const { mailer, config, prisma } = ctx;
      if (!mailer) throw new ServiceError("SERVICE_UNAVAILABLE", "Sending is not configured on this server");
      const out = validateOutgoing(args.input);
      const now = ctx.clock.now();
      const from = addressOf(agent, config);
      const messageId = `<${randomUUID()}@${config.mailDomain}>`;
      const raw = await composeMessage({ ...out, from: { name: agent.name, address: from }, messageId, date: now });
      const day = utcDay(now);
      await openSendDay(prisma, agent.id, day);
      // Both limits and the record in one transaction: storage always matches the records kept.
      const { id } = await prisma.$transaction(async (tx) => {
        if (!(await takeSend(tx, agent.id, day, config.dailySendLimit)))
          throw await dailyLimitReached(ctx, tx, agent.id, now);
        if (!(await takeStorage(tx, agent.id, raw.length, config.storageLimitBytes)))
          throw await storageFull(ctx, tx, agent.id);
        const data = { agentId: agent.id, to: out.to.join(", "), subject: out.subject, bodyText: out.text };
        return tx.sentEmail.create({
          data: { ...data, bodyHtml: out.html, replyTo: out.replyTo, messageId, size: raw.length, sentAt: now },
          select: { id: true },
        });
      }, TRANSACTION);
      let queueId: string | null;
      try {
        ({ queueId } = await mailer.send({ from, to: out.to }, raw));
      } catch (error) {
        await prisma.$transaction(async (tx) => {
          if ((await tx.sentEmail.deleteMany({ where: { id } })).count === 0) return;
          await giveSendBack(tx, agent.id, day);
          await giveStorageBack(tx, agent.id, raw.length);
        }, TRANSACTION);
        ctx.log("warn", "delivery_failed", { agentId: agent.id, error: (error as Error).message });
        throw new ServiceError(
          "INTERNAL_SERVER_ERROR",
          "Delivery failed: the email provider did not accept the message",
        );
      }
      return prisma.sentEmail.update({ ...query, where: { id }, data: { providerId: queueId ?? messageId } });
    },
  }),
  deleteSentEmail: t.field({
    type: Outcome,
    description: "Deletes a sent email's record for good, freeing its storage.",
    args: { agentId: t.arg.id({ required: true }), sentId: t.arg.id({ required: true }) },
    resolve: async (_root, args, ctx) => {
      const agent = await ownAgent(ctx, String(args.agentId), { verified: true });
      const where = { id: String(args.sentId), agentId: agent.id };
      return ctx.prisma.$transaction(async (tx) => {
        const sent = await tx.sentEmail.findFirst({ where, select: { size: true } });
        const { count } = await tx.sentEmail.deleteMany({ where });
        if (!sent || count === 0) throw new ServiceError("NOT_FOUND", "Sent email not found");
        await giveStorageBack(tx, agent.id, sent.size);
        return { success: true, message: "Sent email permanently deleted" };
      }, TRANSACTION);
    },
  }),
}));
