import { queryFromInfo } from "@pothos/plugin-prisma";
import type { GraphQLResolveInfo } from "graphql";
import { listPodEmails } from "../mailbox/pod-mail.ts";
import { builder } from "./builder.ts";
import type { Context } from "./context.ts";
import { EmailPage, filterOf, type MailArgs, mailArgs, SEARCH_TERMS } from "./emails.ts";
import { bodyBytes } from "./limits.ts";
import { pageArgs, pageCost } from "./pages.ts";
import { podArgs, podKeyArg } from "./pods.ts";

// A pod's mail in GraphQL: the mail of the pod's agents a key of the pod
// reaches, listed and searched as one agent's is (Agent.emails), each email
// naming its agent. Needs `read`.

const { search: _, ...filterArgs } = mailArgs;

/** The pod's mail as a page, read as the agent's list reads it: what Prisma loads planned from the selection. */
function podMail(
  podId: string,
  args: MailArgs & { limit?: number | null; offset?: number | null },
  ctx: Context,
  info: GraphQLResolveInfo,
) {
  const request = { ...filterOf(args), limit: args.limit, offset: args.offset };
  const query = queryFromInfo({ context: ctx, info, path: ["data"] });
  return ctx.answer.load(async () => listPodEmails(ctx, podId, await ctx.grant(), request, query), bodyBytes);
}

builder.queryFields((t) => ({
  podEmails: t.field({
    type: EmailPage,
    description:
      "Received mail of every agent of your pod your key reaches, newest first (best match first with search); all folders unless one is named. Each email names its agentId.",
    args: { ...podArgs, ...mailArgs, ...pageArgs },
    authScopes: podKeyArg("read"),
    complexity: pageCost,
    resolve: (_, { podId, ...args }, ctx, info) => podMail(podId, args, ctx, info),
  }),
  podSearch: t.field({
    type: EmailPage,
    description:
      "Finds received mail of every agent of your pod your key reaches by words, best match first; narrowed as podEmails is. Each email names its agentId.",
    args: {
      ...podArgs,
      search: t.arg.string({ required: true, description: SEARCH_TERMS }),
      ...filterArgs,
      ...pageArgs,
    },
    authScopes: podKeyArg("read"),
    complexity: pageCost,
    resolve: (_, { podId, ...args }, ctx, info) => podMail(podId, args, ctx, info),
  }),
}));
