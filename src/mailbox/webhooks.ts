import { randomBytes, randomUUID } from "node:crypto";
import { isIP } from "node:net";
import type { Statements } from "../db/sql.ts";
import { excerpt, ServiceError } from "../errors.ts";
import { isPublicAddress } from "../outbound/public-address.ts";
import { EVENT_TYPES, type EventType } from "./event-types.ts";
import { offsetPage, type Page, type PageRequest } from "./pages.ts";
import type { Services } from "./services.ts";

// Webhooks: where an agent wants its events POSTed. A delivery is a row,
// written with the event it carries, and tried until it is delivered or given
// up (see jobs/webhook-worker.ts); the event log is where it comes from.

export const MAX_WEBHOOKS_PER_AGENT = 10;
const URL_MAX = 2048;
const DESCRIPTION_MAX = 256;

export interface WebhookRecord {
  id: string;
  agentId: string;
  url: string;
  events: EventType[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
  /** While its receiver fails, its deliveries wait until then. */
  pausedUntil: Date | null;
  createdAt: Date;
}

/** A webhook with its signing secret, as answered once: at creation and rotation. */
export interface WebhookWithSecret extends WebhookRecord {
  secret: string;
}

export interface AttemptRecord {
  at: Date;
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

export interface DeliveryRecord {
  id: string;
  webhookId: string;
  eventId: string;
  type: string;
  status: "pending" | "delivered" | "given_up";
  attempts: number;
  nextAttemptAt: Date | null;
  createdAt: Date;
  attemptLog: AttemptRecord[];
}

export interface WebhookInput {
  url?: string | null;
  events?: readonly string[] | null;
  description?: string | null;
  enabled?: boolean | null;
}

const COLUMNS = `"id", "agentId", "url", "events", "description", "enabled", "disabledReason", "pausedUntil", "createdAt"`;

function webhookFromRow({ sql }: Services, row: Record<string, unknown>): WebhookRecord {
  return {
    id: row.id as string,
    agentId: row.agentId as string,
    url: row.url as string,
    events: JSON.parse(row.events as string),
    description: row.description as string | null,
    enabled: sql.flag(row.enabled),
    disabledReason: row.disabledReason as string | null,
    pausedUntil: row.pausedUntil === null ? null : sql.date(row.pausedUntil),
    createdAt: sql.date(row.createdAt),
  };
}

/** A URL to POST to: https (or http where private networks are allowed), no credentials, no literal private address. */
function validUrl(url: string, allowPrivate: boolean): string {
  const bad = (why: string) => new ServiceError("BAD_REQUEST", `url ${why}`);
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

function validEvents(events: readonly string[]): EventType[] {
  const unknown = events.find((type) => !(EVENT_TYPES as readonly string[]).includes(type));
  if (unknown !== undefined) {
    throw new ServiceError(
      "BAD_REQUEST",
      `events: ${JSON.stringify(excerpt(unknown))} is not one of ${EVENT_TYPES.join(", ")}`,
    );
  }
  return [...new Set(events)] as EventType[];
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

export async function createWebhook(
  services: Services,
  agent: { id: string },
  input: WebhookInput,
): Promise<WebhookWithSecret> {
  const { sql, clock, config } = services;
  if (input.url == null) throw new ServiceError("BAD_REQUEST", "url is required");
  const webhook: WebhookWithSecret = {
    id: randomUUID(),
    agentId: agent.id,
    url: validUrl(input.url, config.webhookAllowPrivate),
    events: validEvents(input.events ?? []),
    description: validDescription(input.description),
    enabled: true,
    disabledReason: null,
    pausedUntil: null,
    createdAt: clock.now(),
    secret: newSecret(),
  };
  await sql.transaction(async (tx) => {
    // The agent's row, locked: creations for one agent take turns, so the count holds until the insert.
    await tx.one(`SELECT "id" FROM "Agent" WHERE "id" = ?${sql.forUpdate}`, [agent.id]);
    const count = await tx.one(`SELECT COUNT(*) AS "n" FROM "Webhook" WHERE "agentId" = ?`, [agent.id]);
    const current = Number(count?.n);
    if (current >= MAX_WEBHOOKS_PER_AGENT) {
      throw new ServiceError("BAD_REQUEST", `An agent may have at most ${MAX_WEBHOOKS_PER_AGENT} webhooks`, {
        code: "TOO_MANY_WEBHOOKS",
        limit: MAX_WEBHOOKS_PER_AGENT,
        current,
      });
    }
    await tx.run(
      `INSERT INTO "Webhook" ("id", "agentId", "url", "events", "description", "secret", "enabled", "createdAt")
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        webhook.id,
        agent.id,
        webhook.url,
        JSON.stringify(webhook.events),
        webhook.description,
        webhook.secret,
        true,
        sql.at(webhook.createdAt),
      ],
    );
  });
  return webhook;
}

export async function listWebhooks(services: Services, agent: { id: string }): Promise<WebhookRecord[]> {
  const rows = await services.sql.all(
    `SELECT ${COLUMNS} FROM "Webhook" WHERE "agentId" = ? ORDER BY "createdAt", "id"`,
    [agent.id],
  );
  return rows.map((row) => webhookFromRow(services, row));
}

export async function getWebhook(services: Services, agent: { id: string }, webhookId: string): Promise<WebhookRecord> {
  const row = await services.sql.one(`SELECT ${COLUMNS} FROM "Webhook" WHERE "id" = ? AND "agentId" = ?`, [
    webhookId,
    agent.id,
  ]);
  if (!row) throw notFound();
  return webhookFromRow(services, row);
}

/**
 * Changes the URL, the events, the description, or turns it on or off.
 * Turning it on (again) also resumes it: why it was turned off and a pause
 * are cleared, and its pending deliveries are due now.
 */
export async function updateWebhook(
  services: Services,
  agent: { id: string },
  webhookId: string,
  input: WebhookInput,
): Promise<WebhookRecord> {
  const { sql, clock, config } = services;
  const current = await getWebhook(services, agent, webhookId);
  const url = input.url == null ? current.url : validUrl(input.url, config.webhookAllowPrivate);
  const events = input.events == null ? current.events : validEvents(input.events);
  const description = input.description === undefined ? current.description : validDescription(input.description);
  const enabled = input.enabled ?? current.enabled;
  const resumed =
    input.enabled === true
      ? `, "disabledReason" = NULL, "failuresInARow" = 0, "failingSince" = NULL, "pausedUntil" = NULL`
      : "";
  await sql.transaction(async (tx) => {
    const changed = await tx.run(
      `UPDATE "Webhook" SET "url" = ?, "events" = ?, "description" = ?, "enabled" = ?${resumed}
        WHERE "id" = ? AND "agentId" = ?`,
      [url, JSON.stringify(events), description, enabled, webhookId, agent.id],
    );
    if (changed === 0) throw notFound();
    if (!resumed) return;
    await tx.run(`UPDATE "WebhookDelivery" SET "nextAttemptAt" = ? WHERE "webhookId" = ? AND "status" = 'pending'`, [
      sql.at(clock.now()),
      webhookId,
    ]);
  });
  return getWebhook(services, agent, webhookId);
}

export async function deleteWebhook(services: Services, agent: { id: string }, webhookId: string) {
  const deleted = await services.sql.run(`DELETE FROM "Webhook" WHERE "id" = ? AND "agentId" = ?`, [
    webhookId,
    agent.id,
  ]);
  if (deleted === 0) throw notFound();
  return { success: true, message: "Webhook deleted; its pending deliveries went with it" };
}

/** A new secret, answered once; the old one stops signing at once. */
export async function rotateWebhookSecret(
  services: Services,
  agent: { id: string },
  webhookId: string,
): Promise<WebhookWithSecret> {
  const secret = newSecret();
  const changed = await services.sql.run(`UPDATE "Webhook" SET "secret" = ? WHERE "id" = ? AND "agentId" = ?`, [
    secret,
    webhookId,
    agent.id,
  ]);
  if (changed === 0) throw notFound();
  return { ...(await getWebhook(services, agent, webhookId)), secret };
}

/** The webhook's deliveries, newest first, each with its attempts. */
export async function listDeliveries(
  services: Services,
  agent: { id: string },
  webhookId: string,
  request: PageRequest,
): Promise<Page<DeliveryRecord>> {
  await getWebhook(services, agent, webhookId);
  const { sql } = services;
  const columns = `"id", "webhookId", "eventId", "payload", "status", "attempts", "nextAttemptAt", "createdAt"`;
  const page = await offsetPage(
    sql,
    {
      table: "WebhookDelivery",
      columns,
      order: `"createdAt" DESC, "id" DESC`,
      where: `"webhookId" = ?`,
      params: [webhookId],
    },
    request,
  );
  const ids = page.data.map((row) => row.id as string);
  const attempts = ids.length
    ? await sql.all(
        `SELECT "deliveryId", "at", "statusCode", "error", "durationMs" FROM "WebhookAttempt"
          WHERE "deliveryId" IN (${ids.map(() => "?").join(", ")}) ORDER BY "at", "id"`,
        ids,
      )
    : [];
  const data = page.data.map(
    (row): DeliveryRecord => ({
      id: row.id as string,
      webhookId: row.webhookId as string,
      eventId: String(row.eventId),
      type: JSON.parse(row.payload as string).type,
      status: row.status as DeliveryRecord["status"],
      attempts: Number(row.attempts),
      nextAttemptAt: row.nextAttemptAt === null ? null : sql.date(row.nextAttemptAt),
      createdAt: sql.date(row.createdAt),
      attemptLog: attempts
        .filter((attempt) => attempt.deliveryId === row.id)
        .map((attempt) => ({
          at: sql.date(attempt.at),
          statusCode: attempt.statusCode === null ? null : Number(attempt.statusCode),
          error: attempt.error as string | null,
          durationMs: Number(attempt.durationMs),
        })),
    }),
  );
  return { ...page, data };
}

/** Tries a delivery again now, whatever became of it. */
export async function retryDelivery(services: Services, agent: { id: string }, webhookId: string, deliveryId: string) {
  await getWebhook(services, agent, webhookId);
  const { sql, clock } = services;
  const changed = await sql.run(
    `UPDATE "WebhookDelivery" SET "status" = 'pending', "nextAttemptAt" = ?, "claimedUntil" = NULL
      WHERE "id" = ? AND "webhookId" = ?`,
    [sql.at(clock.now()), deliveryId, webhookId],
  );
  if (changed === 0) throw new ServiceError("NOT_FOUND", "Delivery not found");
  return { success: true, message: "Delivery queued to be tried again now" };
}

/**
 * Inside the event's transaction: a delivery for each of the agent's enabled
 * webhooks that wants this type of event. The body is fixed now and signed
 * when sent: {type, timestamp, data} with the event's id and agent in data.
 */
export async function queueDeliveries(
  tx: Statements,
  services: Services,
  event: { id: string; type: string; agentId: string; createdAt: Date; data: unknown },
): Promise<void> {
  const { sql } = services;
  const webhooks = await tx.all(`SELECT "id", "events" FROM "Webhook" WHERE "agentId" = ? AND "enabled" = ?`, [
    event.agentId,
    true,
  ]);
  for (const webhook of webhooks) {
    const types = JSON.parse(webhook.events as string) as string[];
    if (types.length > 0 && !types.includes(event.type)) continue;
    const payload = JSON.stringify({
      type: event.type,
      timestamp: event.createdAt.toISOString(),
      data: { ...(event.data as object), eventId: event.id, agentId: event.agentId },
    });
    await tx.run(
      `INSERT INTO "WebhookDelivery" ("id", "webhookId", "eventId", "status", "payload", "attempts", "nextAttemptAt", "createdAt")
        VALUES (?, ?, ?, 'pending', ?, 0, ?, ?)`,
      [randomUUID(), webhook.id as string, event.id, payload, sql.at(event.createdAt), sql.at(event.createdAt)],
    );
  }
}
