import type { WebhookAttempt } from "../generated/prisma/sqlite/client.ts";
import * as webhooks from "../mailbox/webhooks.ts";
import { AgentType } from "./agents.ts";
import { builder, OutcomeType } from "./builder.ts";
import { type WebhookDeliveryStatus, WebhookDeliveryStatusEnum } from "./enums.ts";
import { agentField, forCaller, forCallerWith, verifiedAgentArg } from "./own-agent.ts";
import { pageArgs, pageCost, pageType } from "./pages.ts";
import type { Need } from "./scopes.ts";

// Webhooks: where the agent's events are POSTed, signed the Standard Webhooks
// way, and what became of each delivery. A pod's webhooks are the same type
// (pod-events.ts).

const WebhookAttemptType = builder.objectRef<WebhookAttempt>("WebhookAttempt").implement({
  fields: (t) => ({
    at: t.expose("at", { type: "Timestamp" }),
    statusCode: t.exposeInt("statusCode", {
      nullable: true,
      description: "The receiver's HTTP status, when it answered",
    }),
    error: t.exposeString("error", { nullable: true, description: "What went wrong, unless it answered 2xx" }),
    durationMs: t.exposeInt("durationMs"),
  }),
});

const WebhookDeliveryType = builder.objectRef<webhooks.DeliveryRecord>("WebhookDelivery").implement({
  fields: (t) => ({
    id: t.exposeID("id"),
    eventId: t.id({
      description: "Also the webhook-id header: receivers de-duplicate on it",
      resolve: (delivery) => String(delivery.eventId),
    }),
    type: t.string({ resolve: webhooks.deliveryTypeOf }),
    status: t.field({
      type: WebhookDeliveryStatusEnum,
      resolve: (delivery) => delivery.status as WebhookDeliveryStatus,
    }),
    attempts: t.exposeInt("attempts"),
    nextAttemptAt: t.expose("nextAttemptAt", { type: "Timestamp", nullable: true, description: "While pending" }),
    createdAt: t.expose("createdAt", { type: "Timestamp" }),
    attemptLog: t.field({ type: [WebhookAttemptType], description: "Oldest first", resolve: (d) => d.attemptLog }),
  }),
});

const WebhookDeliveryPage = pageType("WebhookDeliveryPage", WebhookDeliveryType);

export const WebhookType = builder.prismaObject("Webhook", {
  fields: (t) => ({
    id: t.exposeID("id"),
    url: t.exposeString("url"),
    events: t.stringList({ description: "The event types it receives; empty for all", resolve: webhooks.eventTypesOf }),
    description: t.exposeString("description", { nullable: true }),
    enabled: t.exposeBoolean("enabled"),
    disabledReason: t.exposeString("disabledReason", {
      nullable: true,
      description: "Why the service turned it off, when it did",
    }),
    pausedUntil: t.expose("pausedUntil", {
      type: "Timestamp",
      nullable: true,
      description: "While its receiver fails: its deliveries wait until then, each failure in a row longer",
    }),
    createdAt: t.expose("createdAt", { type: "Timestamp" }),
    deliveries: t.field({
      type: WebhookDeliveryPage,
      description: "Its deliveries, newest first, each with its attempts.",
      args: pageArgs,
      complexity: pageCost,
      resolve: (webhook, args, ctx) => webhooks.listDeliveries(ctx, webhooks.ownerOf(webhook), webhook.id, args),
    }),
  }),
});

export const WebhookSecretType = builder.objectRef<webhooks.WebhookWithSecret>("WebhookSecret").implement({
  fields: (t) => ({
    webhook: t.field({ type: WebhookType, resolve: (answer) => answer.webhook }),
    secret: t.exposeString("secret", { description: "whsec_…, shown only now" }),
  }),
});

export const CreateWebhookInput = builder.inputType("CreateWebhookInput", {
  fields: (t) => ({
    url: t.string({ required: true, description: "https:// and a public address" }),
    events: t.stringList({ description: "Event types to receive; all when left out or empty" }),
    description: t.string({ description: "At most 256 characters" }),
  }),
});

export const UpdateWebhookInput = builder.inputType("UpdateWebhookInput", {
  fields: (t) => ({
    url: t.string({ description: "https:// and a public address" }),
    events: t.stringList({ description: "Event types to receive; all when empty" }),
    description: t.string({ description: "At most 256 characters" }),
    enabled: t.boolean({ description: "Turning it on again forgets why it was turned off" }),
  }),
});

/** What making a webhook, changing where it points or taking its secret needs (see Need). */
export const POINTS_WEBHOOKS: Need = "webhooks";

/** One webhook of its owner (the owner's id comes first: agentId or podId). */
export const webhookArgs = builder.args((t) => ({ webhookId: t.id({ required: true }) }));

/** A webhook's change. */
export const updateWebhookArgs = builder.args((t) => ({
  webhookId: t.id({ required: true }),
  input: t.field({ type: UpdateWebhookInput, required: true }),
}));

/** One delivery of a webhook. */
export const deliveryArgs = builder.args((t) => ({
  webhookId: t.id({ required: true }),
  deliveryId: t.id({ required: true }),
}));

builder.prismaObjectFields(AgentType, (t) => ({
  webhooks: t.relation("webhooks", {
    description: `The agent's webhooks, oldest first; at most ${webhooks.MAX_WEBHOOKS}.`,
    authScopes: agentField("manage"),
    complexity: { field: 1, multiplier: webhooks.MAX_WEBHOOKS },
    query: { orderBy: [...webhooks.WEBHOOK_ORDER] },
  }),
}));

builder.queryField("webhook", (t) =>
  t.prismaField({
    type: "Webhook",
    nullable: true,
    description: "One webhook of your agent.",
    args: { agentId: t.arg.id({ required: true }), ...webhookArgs },
    authScopes: verifiedAgentArg("manage"),
    resolve: forCallerWith((agent, query: webhooks.WebhookQuery, args, ctx) =>
      webhooks.getWebhook(ctx, { agentId: agent.id }, args.webhookId, query),
    ),
  }),
);

builder.mutationFields((t) => ({
  createWebhook: t.field({
    type: WebhookSecretType,
    description: "Adds a webhook; its signing secret is answered only now.",
    args: { agentId: t.arg.id({ required: true }), input: t.arg({ type: CreateWebhookInput, required: true }) },
    authScopes: verifiedAgentArg(POINTS_WEBHOOKS),
    resolve: forCaller(async (agent, args, ctx) => {
      return webhooks.createWebhook(ctx, { agentId: agent.id }, args.input);
    }),
  }),
  updateWebhook: t.prismaField({
    type: "Webhook",
    description: "Changes its URL, events or description, or turns it on or off.",
    args: { agentId: t.arg.id({ required: true }), ...updateWebhookArgs },
    authScopes: verifiedAgentArg(POINTS_WEBHOOKS),
    resolve: forCallerWith(async (agent, query: webhooks.WebhookQuery, args, ctx) => {
      return webhooks.updateWebhook(ctx, { agentId: agent.id }, args.webhookId, args.input, query);
    }),
  }),
  deleteWebhook: t.field({
    type: OutcomeType,
    description: "Deletes a webhook and its deliveries.",
    args: { agentId: t.arg.id({ required: true }), ...webhookArgs },
    authScopes: verifiedAgentArg("manage"),
    resolve: forCaller((agent, args, ctx) => webhooks.deleteWebhook(ctx, { agentId: agent.id }, args.webhookId)),
  }),
  rotateWebhookSecret: t.field({
    type: WebhookSecretType,
    description: "A new signing secret, answered only now; the old one stops signing at once.",
    args: { agentId: t.arg.id({ required: true }), ...webhookArgs },
    // The secret signs what the webhook's receiver believes: handed out as making one hands it out.
    authScopes: verifiedAgentArg(POINTS_WEBHOOKS),
    resolve: forCaller(async (agent, args, ctx) => {
      return webhooks.rotateWebhookSecret(ctx, { agentId: agent.id }, args.webhookId);
    }),
  }),
  retryWebhookDelivery: t.field({
    type: OutcomeType,
    description: "Tries a delivery again now, whether it is pending, delivered or given up.",
    args: { agentId: t.arg.id({ required: true }), ...deliveryArgs },
    authScopes: verifiedAgentArg("manage"),
    resolve: forCaller((agent, args, ctx) =>
      webhooks.retryDelivery(ctx, { agentId: agent.id }, args.webhookId, args.deliveryId),
    ),
  }),
}));
