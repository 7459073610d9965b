import { queryFromInfo } from "@pothos/plugin-prisma";
import { TRANSACTION } from "../db/client.ts";
import { giveStorageBack } from "../db/quota.ts";
import { ServiceError } from "../errors.ts";
import type { Email } from "../generated/prisma/sqlite/client.ts";
import { ownAgent } from "./auth.ts";
import { builder, Outcome } from "./builder.ts";
import { loadPage, pageType } from "./pages.ts";

// Received mail, the agent's folders and the folder state table: any folder
// to any folder, delete moves to trash, and deleting from trash (or with
// permanent) removes the message and frees its bytes.

const SYSTEM_FOLDERS = ["inbox", "archive", "trash"];
const NEWEST_FIRST = [{ receivedAt: "desc" as const }, { id: "desc" as const }];

/** inbox, archive and trash without regard to case; a custom name as given. */
export function folderName(name: string): string {
  if (SYSTEM_FOLDERS.includes(name.toLowerCase())) return name.toLowerCase();
  const length = [...name].length;
  if (length < 1 || length > 64 || name.includes("/") || /[\p{C}\p{Zl}\p{Zp}]/u.test(name) || name.trim() === "") {
    throw new ServiceError(
      "BAD_REQUEST",
      "folder must be inbox, archive, trash, or a custom name of 1-64 printable characters without /",
    );
  }
  return name;
}

const EmailAddress = builder.objectRef<{ address: string; name: string | null }>("EmailAddress").implement({
  fields: (t) => ({
    address: t.exposeString("address"),
    name: t.exposeString("name", { nullable: true }),
  }),
});

export const EmailType = builder.prismaObject("Email", {
  // Only what a query asks for is loaded: never the raw source unless needed.
  select: { id: true },
  fields: (t) => ({
    id: t.exposeID("id"),
    agentId: t.exposeString("agentId"),
    messageId: t.exposeString("messageId", { nullable: true, description: "Original Message-ID header" }),
    from: t.field({
      type: EmailAddress,
      select: { fromAddress: true, fromName: true },
      resolve: (email) => ({ address: email.fromAddress, name: email.fromName }),
    }),
    to: t.exposeString("to", { description: "The receiving agent's address" }),
    subject: t.exposeString("subject", { nullable: true }),
    bodyText: t.exposeString("bodyText", { nullable: true }),
    bodyHtml: t.exposeString("bodyHtml", { nullable: true }),
    receivedAt: t.expose("receivedAt", { type: "Timestamp" }),
    isRead: t.exposeBoolean("isRead"),
    folder: t.exposeString("folder"),
  }),
});

const EmailPage = pageType("EmailPage", EmailType);

const Folder = builder.objectRef<{ name: string; total: number; unread: number }>("Folder").implement({
  fields: (t) => ({
    name: t.exposeString("name"),
    total: t.exposeInt("total"),
    unread: t.exposeInt("unread"),
  }),
});

function inFolder(agentId: string, folder: string | null | undefined) {
  return { agentId, ...(folder == null ? {} : { folder: folderName(folder) }) };
}

builder.prismaObjectFields("Agent", (t) => ({
  emails: t.field({
    type: EmailPage,
    description: "Received mail, newest first; all folders unless one is named.",
    args: { folder: t.arg.string(), limit: t.arg.int(), offset: t.arg.int() },
    resolve: async (agent, args, ctx, info) => {
      await ownAgent(ctx, agent.id, { verified: true });
      const where = inFolder(agent.id, args.folder);
      const query = queryFromInfo({ context: ctx, info, path: ["data"] });
      return loadPage(
        args,
        (window) =>
          ctx.prisma.email.findMany({ ...query, ...window, where, orderBy: NEWEST_FIRST }) as Promise<Email[]>,
        () => ctx.prisma.email.count({ where }),
      );
    },
  }),
  emailConnection: t.prismaConnection({
    type: "Email",
    cursor: "id",
    description: "Received mail as a cursor connection, newest first, for paging deep.",
    args: { folder: t.arg.string() },
    resolve: async (query, agent, args, ctx) => {
      await ownAgent(ctx, agent.id, { verified: true });
      return ctx.prisma.email.findMany({ ...query, where: inFolder(agent.id, args.folder), orderBy: NEWEST_FIRST });
    },
  }),
  folders: t.field({
    type: [Folder],
    description: "inbox, archive and trash, then every custom folder that holds mail.",
    resolve: async (agent, _args, ctx) => {
      await ownAgent(ctx, agent.id, { verified: true });
      const groups = await ctx.prisma.email.groupBy({
        by: ["folder", "isRead"],
        where: { agentId: agent.id },
        _count: { _all: true },
      });
      const folders = new Map(SYSTEM_FOLDERS.map((name) => [name, { name, total: 0, unread: 0 }]));
      for (const group of groups) {
        const folder = folders.get(group.folder) ?? { name: group.folder, total: 0, unread: 0 };
        folder.total += group._count._all;
        if (!group.isRead) folder.unread += group._count._all;
        folders.set(group.folder, folder);
      }
      const rank = (name: string) => {
        const system = SYSTEM_FOLDERS.indexOf(name);
        return system < 0 ? SYSTEM_FOLDERS.length : system;
      };
      return [...folders.values()].sort((a, b) => rank(a.name) - rank(b.name) || a.name.localeCompare(b.name));
    },
  }),
}));

builder.queryField("email", (t) =>
  t.prismaField({
    type: "Email",
    nullable: true,
    description: "One received email of your agent.",
    args: { agentId: t.arg.id({ required: true }), emailId: t.arg.id({ required: true }) },
    resolve: async (query, _root, args, ctx) => {
      const agent = await ownAgent(ctx, String(args.agentId), { verified: true });
      const email = await ctx.prisma.email.findFirst({
        ...query,
        where: { id: String(args.emailId), agentId: agent.id },
      });
      if (!email) throw new ServiceError("NOT_FOUND", "Email not found");
      return email;
    },
  }),
);

builder.mutationFields((t) => ({
  updateEmail: t.prismaField({
    type: "Email",
    description: "Moves an email to a folder and/or sets its read flag.",
    args: {
      agentId: t.arg.id({ required: true }),
      emailId: t.arg.id({ required: true }),
      folder: t.arg.string({ description: "inbox, archive, trash or a custom name" }),
      isRead: t.arg.boolean(),
    },
    resolve: async (query, _root, args, ctx) => {
      const agent = await ownAgent(ctx, String(args.agentId), { verified: true });
      if (args.folder == null && args.isRead == null) {
        throw new ServiceError("BAD_REQUEST", "Give folder, isRead, or both");
      }
      const where = { id: String(args.emailId), agentId: agent.id };
      const { count } = await ctx.prisma.email.updateMany({
        where,
        data: {
          ...(args.folder == null ? {} : { folder: folderName(args.folder) }),
          ...(args.isRead == null ? {} : { isRead: args.isRead }),
        },
      });
      const email = count === 0 ? null : await ctx.prisma.email.findFirst({ ...query, where });
      if (!email) throw new ServiceError("NOT_FOUND", "Email not found");
      return email;
    },
  }),
  deleteEmail: t.field({
    type: Outcome,
    description: "Moves an email to trash; from trash, or with permanent, deletes it for good.",
    args: {
      agentId: t.arg.id({ required: true }),
      emailId: t.arg.id({ required: true }),
      permanent: t.arg.boolean({ description: "Delete for good, freeing its storage (default false)" }),
    },
    resolve: async (_root, args, ctx) => {
      const agent = await ownAgent(ctx, String(args.agentId), { verified: true });
      const where = { id: String(args.emailId), agentId: agent.id };
      return ctx.prisma.$transaction(async (tx) => {
        const email = await tx.email.findFirst({ where, select: { folder: true, size: true } });
        if (!email) throw new ServiceError("NOT_FOUND", "Email not found");
        if (!args.permanent && email.folder !== "trash") {
          if ((await tx.email.updateMany({ where, data: { folder: "trash" } })).count === 0) {
            throw new ServiceError("NOT_FOUND", "Email not found");
          }
          return { success: true, message: "Email moved to trash" };
        }
        // Conditional, so that of two concurrent deletes only one frees the bytes.
        const { count } = await tx.email.deleteMany({ where });
        if (count === 0) throw new ServiceError("NOT_FOUND", "Email not found");
        await giveStorageBack(tx, agent.id, email.size);
        return { success: true, message: "Email permanently deleted" };
      }, TRANSACTION);
    },
  }),
}));
