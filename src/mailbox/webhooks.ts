import { randomBytes, randomUUID } from "node:crypto";
import { isIP } from "node:net";
import type { Tx } from "../db/statements.ts";
import { DELIVERIES_QUEUED } from "../db/wakeups.ts";
import { deliveryPage, type EnabledWebhook, insertDelivery, redeliver } from "../db/webhook-deliveries.ts";
import {
  changeWebhook,
  insertWebhook,
  ownerOf,
  removeWebhook,
  replaceSecret,
  type Webhook,
  type WebhookOwner,
  type WebhookQuery,
  webhookById,
  webhooksOf,
} from "../db/webhooks.ts";
import { excerpt, ServiceError } from "../errors.ts";
import type { WebhookAttempt, WebhookDelivery } from "../generated/prisma/sqlite/client.ts";
import { isPublicAddress } from "../outbound/public-address.ts";
import { checkedEventTypes, type EventType } from "./event-types.ts";
import { type Page, type PageRequest, readPage } from "./pages.ts";
import type { Services } from "./services.ts";

// Webhooks: where an agent wants its events POSTed, or a pod those of all
// its agents (each naming its agent). A delivery is a row, written with the
// event it carries, and tried until it is delivered or given up (see
// jobs/webhook-worker.ts); the event log is where it comes from. An agent's
// and a pod's webhooks are one kind, told apart by their owner.

/** How many webhooks an agent, or a pod, may have. */
export const MAX_WEBHOOKS = 10;
/** An owner's webhooks are listed oldest first. */
export const WEBHOOK_ORDER = [{ createdAt: "asc" }, { id: "asc" }] as const;
const URL_MAX = 2048;
const DESCRIPTION_MAX = 256;

/** A webhook as stored: its event types are a JSON array (see eventTypesOf). */
export type { Webhook, WebhookOwner, WebhookQuery };
export { ownerOf };

/** A webhook with its signing secret, answered once: at creation and rotation. */
export interface WebhookWithSecret {
  webhook: Webhook;
  secret: string;
}

/** One delivery with its attempts, oldest first. */
export type DeliveryRecord = WebhookDelivery & { attemptLog: WebhookAttempt[] };

/** The event type a delivery carries, read from its body by the store, which keeps the body as it was sent. */
export { deliveryTypeOf } from "../db/webhook-deliveries.ts";

export interface WebhookInput {
  url?: string | null;
  events?: readonly string[] | null;
  description?: string | null;
  enabled?: boolean | null;
}

/** A URL to POST to: https (or http where private networks are allowed), no credentials, no literal private address. */
export function validUrl(url: string, allowPrivate: boolean, field = "url"): string {
  const bad = (why: string) => new ServiceError("BAD_REQUEST", `${field} ${why}`);
  if (url.length > URL_MAX || !URL.canParse(url)) throw bad(`must be an absolute URL of at most ${URL_MAX} characters`);
  const parsed = new URL(url);
  const schemes = allowPrivate ? ["https:", "http:"] : ["https:"];
  if (!schemes.includes(parsed.protocol)) throw bad(allowPrivate ? "must be http:// or https://" : "must be https://");
  if (parsed.username || parsed.password) throw bad("must not carry a user name or password");
  const host = parsed.hostname.replace(/^\[|\]$/g, "");
  if (!allowPrivate && isIP(host) && !isPublicAddress(host))
    throw bad(`must not name a private address: ${excerpt(host)}`);
  return parsed.toString();
}

function validDescription(description: string | null | undefined): string | null {
  if (description == null) return null;
  if ([...description].length > DESCRIPTION_MAX) {
    throw new ServiceError("BAD_REQUEST", `description must be at most ${DESCRIPTION_MAX} characters`);
  }
  return description;
}

/** whsec_ and 24 random bytes, as Standard Webhooks libraries take a secret. */
const newSecret = () => `whsec_${randomBytes(24).toString("base64")}`;

const notFound = () => new ServiceError("NOT_FOUND", "Webhook not found");

/** The event types a webhook receives; empty for all. */
export const eventTypesOf = (webhook: Pick<Webhook, "events">): EventType[] => webhook.events as EventType[];

export async function createWebhook(
  services: Services,
  owner: WebhookOwner,
  input: WebhookInput,
): Promise<WebhookWithSecret> {
  const { clock, config } = services;
  if (input.url == null) throw new ServiceError("BAD_REQUEST", "url is required");
  const row = {
    id: randomUUID(),
    owner,
    url: validUrl(input.url, config.webhookAllowPrivate),
    events: checkedEventTypes(input.events ?? [], "events"),
    description: validDescription(input.description),
    secret: newSecret(),
    createdAt: clock.now(),
  };
  const { added, count } = await insertWebhook(services, row, MAX_WEBHOOKS);
  if (!added) {
    const who = "agentId" in owner ? "An agent" : "A pod";
    throw new ServiceError("BAD_REQUEST", `${who} may have at most ${MAX_WEBHOOKS} webhooks`, {
      code: "TOO_MANY_WEBHOOKS",
      limit: MAX_WEBHOOKS,
      current: count,
    });
  }
  return { webhook: await getWebhook(services, owner, row.id), secret: row.secret };
}

/** One of the owner's webhooks. */
export async function getWebhook(
  services: Services,
  owner: WebhookOwner,
  webhookId: string,
  query?: WebhookQuery,
): Promise<Webhook> {
  const webhook = await webhookById(services, owner, webhookId, query);
  if (!webhook) throw notFound();
  return webhook;
}

/** The owner's webhooks, oldest first. */
export function listWebhooks(services: Services, owner: WebhookOwner, query?: WebhookQuery): Promise<Webhook[]> {
  return webhooksOf(services, owner, [...WEBHOOK_ORDER], query);
}

/**
 * Changes the URL, the events, the description, or turns it on or off.
 * Turning it on (again) also resumes it: why it was turned off and a pause
 * are cleared, and its pending deliveries are due now.
 */
export async function updateWebhook(
  services: Services,
  owner: WebhookOwner,
  webhookId: string,
  input: WebhookInput,
  query: WebhookQuery = {},
): Promise<Webhook> {
  const { clock, config } = services;
  const current = await getWebhook(services, owner, webhookId);
  const change = {
    url: input.url == null ? current.url : validUrl(input.url, config.webhookAllowPrivate),
    events: input.events == null ? eventTypesOf(current) : checkedEventTypes(input.events, "events"),
    description: input.description === undefined ? current.description : validDescription(input.description),
    enabled: input.enabled ?? current.enabled,
  };
  const resumeAt = input.enabled === true ? clock.now() : null;
  if (!(await changeWebhook(services, owner, webhookId, change, resumeAt))) throw notFound();
  return getWebhook(services, owner, webhookId, query);
}

export async function deleteWebhook(services: Services, owner: WebhookOwner, webhookId: string) {
  if (!(await removeWebhook(services, owner, webhookId))) throw notFound();
  return { success: true, message: "Webhook deleted; its pending deliveries went with it" };
}

/** A new secret, answered once; the old one stops signing at once. */
export async function rotateWebhookSecret(
  services: Services,
  owner: WebhookOwner,
  webhookId: string,
): Promise<WebhookWithSecret> {
  const secret = newSecret();
  if (!(await replaceSecret(services, owner, webhookId, secret))) throw notFound();
  return { webhook: await getWebhook(services, owner, webhookId), secret };
}

/** The webhook's deliveries, newest first, each with its attempts. */
export async function listDeliveries(
  services: Services,
  owner: WebhookOwner,
  webhookId: string,
  request: PageRequest,
): Promise<Page<DeliveryRecord>> {
  await getWebhook(services, owner, webhookId);
  return readPage(request, (window) => deliveryPage(services, webhookId, window));
}

/** Tries a delivery again now, whatever became of it, while its webhook is paused too (not while it is disabled). */
export async function retryDelivery(services: Services, owner: WebhookOwner, webhookId: string, deliveryId: string) {
  await getWebhook(services, owner, webhookId);
  if (!(await redeliver(services, webhookId, deliveryId, services.clock.now()))) {
    throw new ServiceError("NOT_FOUND", "Delivery not found");
  }
  services.wakeups.committed([DELIVERIES_QUEUED]);
  return { success: true, message: "Delivery queued to be tried again now" };
}

/**
 * Inside the event's transaction: a delivery for each enabled webhook of the
 * agent and of its pod (read earlier in it) that wants this type of event. The body is fixed now and signed
 * when sent: {type, timestamp, data} with the event's id and agent in data.
 */
export async function queueDeliveries(
  tx: Tx,
  event: { id: string; type: string; agentId: string; createdAt: Date; data: unknown },
  webhooks: EnabledWebhook[],
): Promise<void> {
  for (const webhook of webhooks) {
    const types = eventTypesOf(webhook);
    if (types.length > 0 && !types.includes(event.type as EventType)) continue;
    const body = {
      type: event.type,
      timestamp: event.createdAt.toISOString(),
      data: { ...(event.data as object), eventId: event.id, agentId: event.agentId },
    };
    await insertDelivery(tx, {
      id: randomUUID(),
      webhookId: webhook.id,
      eventId: event.id,
      agentId: event.agentId,
      body,
      at: event.createdAt,
    });
  }
}
