import { graphql } from "../rest/graphql.ts";
import { declare, podRoute } from "./declare.ts";
import { WebhookDeliveryPageFields, WebhookFields, webhookRoutes, withSecret } from "./webhooks.rest.ts";

// A pod's events and webhooks as REST sees them (see declare.ts), for a key
// of the pod. No MCP tools: a model waits for mail with wait_for_email, and
// reads it through the fence, which events do not carry.

const webhooks = webhookRoutes("/pods/:podId", podRoute);

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
    ...webhooks.create,
    operation: graphql(
      `mutation CreatePodWebhook($podId: ID!, $input: CreateWebhookInput!) {
        createPodWebhook(podId: $podId, input: $input) { webhook { ...WebhookFields } secret }
      }`,
      [WebhookFields],
    ),
    respond: ({ createPodWebhook }) => withSecret(createPodWebhook),
  }),
  declare({
    ...webhooks.list,
    operation: graphql(`query ListPodWebhooks($podId: ID!) { podWebhooks(podId: $podId) { ...WebhookFields } }`, [
      WebhookFields,
    ]),
    respond: ({ podWebhooks }) => ({ data: podWebhooks }),
  }),
  declare({
    ...webhooks.get,
    operation: graphql(
      `query GetPodWebhook($podId: ID!, $webhookId: ID!) {
        podWebhook(podId: $podId, webhookId: $webhookId) { ...WebhookFields }
      }`,
      [WebhookFields],
    ),
  }),
  declare({
    ...webhooks.update,
    operation: graphql(
      `mutation UpdatePodWebhook($podId: ID!, $webhookId: ID!, $input: UpdateWebhookInput!) {
        updatePodWebhook(podId: $podId, webhookId: $webhookId, input: $input) { ...WebhookFields }
      }`,
      [WebhookFields],
    ),
  }),
  declare({
    ...webhooks.remove,
    operation: graphql(`
      mutation DeletePodWebhook($podId: ID!, $webhookId: ID!) {
        deletePodWebhook(podId: $podId, webhookId: $webhookId) { success message }
      }
    `),
  }),
  declare({
    ...webhooks.rotateSecret,
    operation: graphql(
      `mutation RotatePodWebhookSecret($podId: ID!, $webhookId: ID!) {
        rotatePodWebhookSecret(podId: $podId, webhookId: $webhookId) { webhook { ...WebhookFields } secret }
      }`,
      [WebhookFields],
    ),
    respond: ({ rotatePodWebhookSecret }) => withSecret(rotatePodWebhookSecret),
  }),
  declare({
    ...webhooks.deliveries,
    summary: "The deliveries of one of the pod's webhooks, newest first, each with its attempts.",
    operation: graphql(
      `query ListPodWebhookDeliveries($podId: ID!, $webhookId: ID!, $limit: Int, $offset: Int) {
        podWebhook(podId: $podId, webhookId: $webhookId) {
          deliveries(limit: $limit, offset: $offset) { ...WebhookDeliveryPageFields }
        }
      }`,
      [WebhookDeliveryPageFields],
    ),
    respond: ({ podWebhook }) => podWebhook?.deliveries,
  }),
  declare({
    ...webhooks.retryDelivery,
    operation: graphql(`
      mutation RetryPodWebhookDelivery($podId: ID!, $webhookId: ID!, $deliveryId: ID!) {
        retryPodWebhookDelivery(podId: $podId, webhookId: $webhookId, deliveryId: $deliveryId) { success message }
      }
    `),
  }),
];
