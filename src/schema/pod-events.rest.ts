import { graphql } from "../rest/graphql.ts";
import { declare, podRoute } from "./declare.ts";
import { WebhookFields } from "./webhooks.rest.ts";

// A pod's events and webhooks as REST sees them (see declare.ts), for a key
// of the pod. No MCP tools: MCP serves an agent's key.

export const podEventOperations = [
  declare({
    method: "GET",
    path: "/pods/:podId/events",
    ...podRoute,
    operation: graphql(`
      query PodEvents($podId: ID!, $after: ID, $limit: Int, $wait: Int, $types: [String!], $label: [String!]) {
        podEvents(podId: $podId, after: $after, limit: $limit, wait: $wait, types: $types, label: $label) {
          data { id type agentId createdAt data } nextAfter
        }
      }
    `),
  }),
  declare({
    method: "POST",
    path: "/pods/:podId/webhooks",
    ...podRoute,
    refuses: [403, 404, 409, 422],
    body: true,
    status: 201,
    operation: graphql(
      `mutation CreatePodWebhook($podId: ID!, $input: CreateWebhookInput!) {
        createPodWebhook(podId: $podId, input: $input) { webhook { ...WebhookFields } secret }
      }`,
      [WebhookFields],
    ),
    respond: ({ createPodWebhook }) => ({ ...createPodWebhook.webhook, secret: createPodWebhook.secret }),
  }),
  declare({
    method: "GET",
    path: "/pods/:podId/webhooks",
    ...podRoute,
    operation: graphql(`query ListPodWebhooks($podId: ID!) { podWebhooks(podId: $podId) { ...WebhookFields } }`, [
      WebhookFields,
    ]),
    respond: ({ podWebhooks }) => ({ data: podWebhooks }),
  }),
  declare({
    method: "GET",
    path: "/pods/:podId/webhooks/:webhookId",
    ...podRoute,
    operation: graphql(
      `query GetPodWebhook($podId: ID!, $webhookId: ID!) {
        podWebhook(podId: $podId, webhookId: $webhookId) { ...WebhookFields }
      }`,
      [WebhookFields],
    ),
  }),
  declare({
    method: "PATCH",
    path: "/pods/:podId/webhooks/:webhookId",
    ...podRoute,
    body: true,
    operation: graphql(
      `mutation UpdatePodWebhook($podId: ID!, $webhookId: ID!, $input: UpdateWebhookInput!) {
        updatePodWebhook(podId: $podId, webhookId: $webhookId, input: $input) { ...WebhookFields }
      }`,
      [WebhookFields],
    ),
  }),
  declare({
    method: "DELETE",
    path: "/pods/:podId/webhooks/:webhookId",
    ...podRoute,
    operation: graphql(`
      mutation DeletePodWebhook($podId: ID!, $webhookId: ID!) {
        deletePodWebhook(podId: $podId, webhookId: $webhookId) { success message }
      }
    `),
  }),
  declare({
    method: "POST",
    path: "/pods/:podId/webhooks/:webhookId/rotate-secret",
    ...podRoute,
    operation: graphql(
      `mutation RotatePodWebhookSecret($podId: ID!, $webhookId: ID!) {
        rotatePodWebhookSecret(podId: $podId, webhookId: $webhookId) { webhook { ...WebhookFields } secret }
      }`,
      [WebhookFields],
    ),
    respond: ({ rotatePodWebhookSecret }) => ({
      ...rotatePodWebhookSecret.webhook,
      secret: rotatePodWebhookSecret.secret,
    }),
  }),
  declare({
    method: "GET",
    path: "/pods/:podId/webhooks/:webhookId/deliveries",
    ...podRoute,
    summary: "The deliveries of one of the pod's webhooks, newest first, each with its attempts.",
    operation: graphql(`
      query ListPodWebhookDeliveries($podId: ID!, $webhookId: ID!, $limit: Int, $offset: Int) {
        podWebhook(podId: $podId, webhookId: $webhookId) {
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
    respond: ({ podWebhook }) => podWebhook?.deliveries,
  }),
  declare({
    method: "POST",
    path: "/pods/:podId/webhooks/:webhookId/deliveries/:deliveryId/retry",
    ...podRoute,
    operation: graphql(`
      mutation RetryPodWebhookDelivery($podId: ID!, $webhookId: ID!, $deliveryId: ID!) {
        retryPodWebhookDelivery(podId: $podId, webhookId: $webhookId, deliveryId: $deliveryId) { success message }
      }
    `),
  }),
];
