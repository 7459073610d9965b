import { graphql } from "../rest/graphql.ts";
import { declare, ownAgent } from "./declare.ts";

// The webhooks area's operations as REST and MCP see them (see declare.ts).

export const WebhookFields = graphql(`
  fragment WebhookFields on Webhook { id url events description enabled disabledReason pausedUntil createdAt }
`);

export const webhookOperations = [
  declare({
    method: "POST",
    path: "/agents/:agentId/webhooks",
    access: "agent",
    tag: "webhooks",
    refuses: [403, 404, 409, 422],
    body: true,
    status: 201,
    operation: graphql(
      `mutation CreateWebhook($agentId: ID!, $input: CreateWebhookInput!) {
        createWebhook(agentId: $agentId, input: $input) { webhook { ...WebhookFields } secret }
      }`,
      [WebhookFields],
    ),
    respond: ({ createWebhook }) => ({ ...createWebhook.webhook, secret: createWebhook.secret }),
  }),
  declare({
    method: "GET",
    path: "/agents/:agentId/webhooks",
    ...ownAgent("webhooks"),
    operation: graphql(`query ListWebhooks($agentId: ID!) { agent(id: $agentId) { webhooks { ...WebhookFields } } }`, [
      WebhookFields,
    ]),
    respond: ({ agent }) => agent && { data: agent.webhooks },
  }),
  declare({
    method: "GET",
    path: "/agents/:agentId/webhooks/:webhookId",
    ...ownAgent("webhooks"),
    operation: graphql(
      `query GetWebhook($agentId: ID!, $webhookId: ID!) {
        webhook(agentId: $agentId, webhookId: $webhookId) { ...WebhookFields }
      }`,
      [WebhookFields],
    ),
  }),
  declare({
    method: "PATCH",
    path: "/agents/:agentId/webhooks/:webhookId",
    ...ownAgent("webhooks"),
    body: true,
    operation: graphql(
      `mutation UpdateWebhook($agentId: ID!, $webhookId: ID!, $input: UpdateWebhookInput!) {
        updateWebhook(agentId: $agentId, webhookId: $webhookId, input: $input) { ...WebhookFields }
      }`,
      [WebhookFields],
    ),
  }),
  declare({
    method: "DELETE",
    path: "/agents/:agentId/webhooks/:webhookId",
    ...ownAgent("webhooks"),
    operation: graphql(`
      mutation DeleteWebhook($agentId: ID!, $webhookId: ID!) {
        deleteWebhook(agentId: $agentId, webhookId: $webhookId) { success message }
      }
    `),
  }),
  declare({
    method: "POST",
    path: "/agents/:agentId/webhooks/:webhookId/rotate-secret",
    ...ownAgent("webhooks"),
    operation: graphql(
      `mutation RotateWebhookSecret($agentId: ID!, $webhookId: ID!) {
        rotateWebhookSecret(agentId: $agentId, webhookId: $webhookId) { webhook { ...WebhookFields } secret }
      }`,
      [WebhookFields],
    ),
    respond: ({ rotateWebhookSecret }) => ({ ...rotateWebhookSecret.webhook, secret: rotateWebhookSecret.secret }),
  }),
  declare({
    method: "GET",
    path: "/agents/:agentId/webhooks/:webhookId/deliveries",
    ...ownAgent("webhooks"),
    operation: graphql(`
      query ListWebhookDeliveries($agentId: ID!, $webhookId: ID!, $limit: Int, $offset: Int) {
        webhook(agentId: $agentId, webhookId: $webhookId) {
          deliveries(limit: $limit, offset: $offset) {
            data {
              id eventId type status attempts nextAttemptAt createdAt
              attemptLog { at statusCode error durationMs }
            }
            total limit offset
          }
        }
      }
    `),
    respond: ({ webhook }) => webhook?.deliveries,
  }),
  declare({
    method: "POST",
    path: "/agents/:agentId/webhooks/:webhookId/deliveries/:deliveryId/retry",
    ...ownAgent("webhooks"),
    operation: graphql(`
      mutation RetryWebhookDelivery($agentId: ID!, $webhookId: ID!, $deliveryId: ID!) {
        retryWebhookDelivery(agentId: $agentId, webhookId: $webhookId, deliveryId: $deliveryId) { success message }
      }
    `),
  }),
];
