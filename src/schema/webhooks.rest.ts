import { graphql } from "../rest/graphql.ts";
import { declare, ownAgent, type podRoute, type Route } from "./declare.ts";

// The webhooks area's operations as REST and MCP see them (see declare.ts).
// A pod's webhooks take the same routes under the pod (pod-events.rest.ts).

export const WebhookFields = graphql(`
  fragment WebhookFields on Webhook { id url events description enabled disabledReason pausedUntil createdAt }
`);

export const WebhookDeliveryPageFields = graphql(`
  fragment WebhookDeliveryPageFields on WebhookDeliveryPage {
    data {
      id eventId type status attempts nextAttemptAt createdAt
      attemptLog { at statusCode error durationMs }
    }
    total limit offset
  }
`);

/**
 * Each webhook route but its operation, for the webhooks' owner: an agent
 * (its path, ownAgent) or a pod (its path, podRoute).
 */
export function webhookRoutes(owner: string, scope: ReturnType<typeof ownAgent> | typeof podRoute) {
  const webhook = `${owner}/webhooks/:webhookId`;
  return {
    create: {
      method: "POST",
      path: `${owner}/webhooks`,
      ...scope,
      refuses: [403, 404, 409, 422],
      body: true,
      status: 201,
    },
    list: { method: "GET", path: `${owner}/webhooks`, ...scope },
    get: { method: "GET", path: webhook, ...scope },
    update: { method: "PATCH", path: webhook, ...scope, body: true },
    remove: { method: "DELETE", path: webhook, ...scope },
    rotateSecret: { method: "POST", path: `${webhook}/rotate-secret`, ...scope },
    deliveries: { method: "GET", path: `${webhook}/deliveries`, ...scope },
    retryDelivery: { method: "POST", path: `${webhook}/deliveries/:deliveryId/retry`, ...scope },
  } as const satisfies Record<string, Partial<Route>>;
}

/** A webhook with its signing secret, as REST answers one just made or rotated. */
export const withSecret = <W extends object>(answer: { webhook: W; secret: string }) => ({
  ...answer.webhook,
  secret: answer.secret,
});

const routes = webhookRoutes("/agents/:agentId", ownAgent("webhooks"));

export const webhookOperations = [
  declare({
    ...routes.create,
    operation: graphql(
      `mutation CreateWebhook($agentId: ID!, $input: CreateWebhookInput!) {
        createWebhook(agentId: $agentId, input: $input) { webhook { ...WebhookFields } secret }
      }`,
      [WebhookFields],
    ),
    respond: ({ createWebhook }) => withSecret(createWebhook),
  }),
  declare({
    ...routes.list,
    operation: graphql(`query ListWebhooks($agentId: ID!) { agent(id: $agentId) { webhooks { ...WebhookFields } } }`, [
      WebhookFields,
    ]),
    respond: ({ agent }) => agent && { data: agent.webhooks },
  }),
  declare({
    ...routes.get,
    operation: graphql(
      `query GetWebhook($agentId: ID!, $webhookId: ID!) {
        webhook(agentId: $agentId, webhookId: $webhookId) { ...WebhookFields }
      }`,
      [WebhookFields],
    ),
  }),
  declare({
    ...routes.update,
    operation: graphql(
      `mutation UpdateWebhook($agentId: ID!, $webhookId: ID!, $input: UpdateWebhookInput!) {
        updateWebhook(agentId: $agentId, webhookId: $webhookId, input: $input) { ...WebhookFields }
      }`,
      [WebhookFields],
    ),
  }),
  declare({
    ...routes.remove,
    operation: graphql(`
      mutation DeleteWebhook($agentId: ID!, $webhookId: ID!) {
        deleteWebhook(agentId: $agentId, webhookId: $webhookId) { success message }
      }
    `),
  }),
  declare({
    ...routes.rotateSecret,
    operation: graphql(
      `mutation RotateWebhookSecret($agentId: ID!, $webhookId: ID!) {
        rotateWebhookSecret(agentId: $agentId, webhookId: $webhookId) { webhook { ...WebhookFields } secret }
      }`,
      [WebhookFields],
    ),
    respond: ({ rotateWebhookSecret }) => withSecret(rotateWebhookSecret),
  }),
  declare({
    ...routes.deliveries,
    operation: graphql(
      `query ListWebhookDeliveries($agentId: ID!, $webhookId: ID!, $limit: Int, $offset: Int) {
        webhook(agentId: $agentId, webhookId: $webhookId) {
          deliveries(limit: $limit, offset: $offset) { ...WebhookDeliveryPageFields }
        }
      }`,
      [WebhookDeliveryPageFields],
    ),
    respond: ({ webhook }) => webhook?.deliveries,
  }),
  declare({
    ...routes.retryDelivery,
    operation: graphql(`
      mutation RetryWebhookDelivery($agentId: ID!, $webhookId: ID!, $deliveryId: ID!) {
        retryWebhookDelivery(agentId: $agentId, webhookId: $webhookId, deliveryId: $deliveryId) { success message }
      }
    `),
  }),
];
