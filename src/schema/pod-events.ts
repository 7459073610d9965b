import { podEventStream, podEvents, podWebhookOwner } from "../mailbox/pod-events.ts";
import * as webhooks from "../mailbox/webhooks.ts";
import { builder, OutcomeType } from "./builder.ts";
import type { Context } from "./context.ts";
import { counted, EventPageType, eventsCost, MailEventType, streamArgs, waitingReadArgs } from "./events.ts";
import { podArgs, podKeyArg } from "./pods.ts";
import {
  CreateWebhookInput,
  deliveryArgs,
  POINTS_WEBHOOKS,
  updateWebhookArgs,
  WebhookSecretType,
  webhookArgs,
} from "./webhooks.ts";

// A pod's events in GraphQL, through a key of the pod: the events of the
// pod's agents the key reaches, long polled and subscribed to as an agent's
// are, and the pod's webhooks (of the same Webhook type as an agent's), which
// receive every event of every agent of the pod.

/** The pod as its webhooks' owner, for the request's key (pod-events.ts says who may). */
const podOwner = async (ctx: Context, podId: string) => podWebhookOwner(podId, await ctx.grant());

builder.queryFields((t) => ({
  podEvents: t.field({
    type: EventPageType,
    description:
      "Events of the pod's agents your key reaches after an id, each naming its agent; with wait (0-25 s), holds on until at least one exists or the time runs out.",
    args: { ...podArgs, ...waitingReadArgs },
    authScopes: podKeyArg("events"),
    complexity: eventsCost,
    resolve: async (_, { podId, wait, ...args }, ctx) =>
      podEvents(ctx, podId, await ctx.grant(), { ...args, waitSeconds: wait }, ctx.signal()),
  }),
  podWebhooks: t.prismaField({
    type: ["Webhook"],
    description: `The pod's webhooks, oldest first; at most ${webhooks.MAX_WEBHOOKS}.`,
    args: podArgs,
    authScopes: podKeyArg("manage"),
    complexity: { field: 1, multiplier: webhooks.MAX_WEBHOOKS },
    resolve: async (query: webhooks.WebhookQuery, _, { podId }, ctx) =>
      webhooks.listWebhooks(ctx, await podOwner(ctx, podId), query),
  }),
  podWebhook: t.prismaField({
    type: "Webhook",
    nullable: true,
    description: "One webhook of your pod.",
    args: { ...podArgs, ...webhookArgs },
    authScopes: podKeyArg("manage"),
    resolve: async (query: webhooks.WebhookQuery, _, { podId, webhookId }, ctx) =>
      webhooks.getWebhook(ctx, await podOwner(ctx, podId), webhookId, query),
  }),
}));

builder.mutationFields((t) => ({
  createPodWebhook: t.field({
    type: WebhookSecretType,
    description:
      "Adds a webhook of the pod, which receives the events of every agent of the pod; its signing secret is answered only now.",
    args: { ...podArgs, input: t.arg({ type: CreateWebhookInput, required: true }) },
    authScopes: podKeyArg(POINTS_WEBHOOKS),
    resolve: async (_, { podId, input }, ctx) => {
      return webhooks.createWebhook(ctx, await podOwner(ctx, podId), input);
    },
  }),
  updatePodWebhook: t.prismaField({
    type: "Webhook",
    description: "Changes a webhook of the pod: its URL, events or description, or turns it on or off.",
    args: { ...podArgs, ...updateWebhookArgs },
    authScopes: podKeyArg(POINTS_WEBHOOKS),
    resolve: async (query: webhooks.WebhookQuery, _, { podId, webhookId, input }, ctx) => {
      return webhooks.updateWebhook(ctx, await podOwner(ctx, podId), webhookId, input, query);
    },
  }),
  deletePodWebhook: t.field({
    type: OutcomeType,
    description: "Deletes a webhook of the pod and its deliveries.",
    args: { ...podArgs, ...webhookArgs },
    authScopes: podKeyArg("manage"),
    resolve: async (_, { podId, webhookId }, ctx) => webhooks.deleteWebhook(ctx, await podOwner(ctx, podId), webhookId),
  }),
  rotatePodWebhookSecret: t.field({
    type: WebhookSecretType,
    description: "A new signing secret for a webhook of the pod, answered only now; the old one stops signing at once.",
    args: { ...podArgs, ...webhookArgs },
    // The secret signs what the webhook's receiver believes: handed out as making one hands it out.
    authScopes: podKeyArg(POINTS_WEBHOOKS),
    resolve: async (_, { podId, webhookId }, ctx) => {
      return webhooks.rotateWebhookSecret(ctx, await podOwner(ctx, podId), webhookId);
    },
  }),
  retryPodWebhookDelivery: t.field({
    type: OutcomeType,
    description: "Tries a delivery of a webhook of the pod again now, whether it is pending, delivered or given up.",
    args: { ...podArgs, ...deliveryArgs },
    authScopes: podKeyArg("manage"),
    resolve: async (_, { podId, webhookId, deliveryId }, ctx) =>
      webhooks.retryDelivery(ctx, await podOwner(ctx, podId), webhookId, deliveryId),
  }),
}));

builder.subscriptionField("podEvents", (t) =>
  t.field({
    type: MailEventType,
    description:
      "Events of the pod's agents your key reaches, each naming its agent: those after `after` first (none when it is left out), then as they happen.",
    args: { ...podArgs, ...streamArgs },
    authScopes: podKeyArg("events"),
    subscribe: async (_, { podId, ...args }, ctx) => {
      const stream = podEventStream(ctx, podId, await ctx.grant(), args, () => ctx.stillCaller(), ctx.signal());
      return counted(ctx, `pod:${podId.toLowerCase()}`, stream);
    },
    resolve: (event) => event,
  }),
);
