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
/** Deliveries given up one after another before the webhook is turned off. */
const GIVE_UPS_TO_DISABLE = 5;
/** How long a delivery is tried before it is given up. */
const GIVE_UP_AFTER_MS = 24 * 3_600_000;
/** The pauses after each failed attempt: about 5 s, 30 s, 2 min, 10 min, 1 h, 6 h, then every 6 h. */
const BACKOFF_MS = [5_000, 30_000, 120_000, 600_000, 3_600_000, 21_600_000];

export interface WebhookRecord {
  id: string;
  agentId: string;
  url: string;
  events: EventType[];
  description: string | null;
  enabled: boolean;
  disabledReason: string | null;
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

const COLUMNS = `"id", "agentId", "url", "events", "description", "enabled", "disabledReason", "createdAt"`;

function webhookFromRow({ sql }: Services, row: Record<string, unknown>): WebhookRecord {
  return {
    id: row.id as string,
    agentId: row.agentId as string,
    url: row.url as string,
    events: JSON.parse(row.events as string),
    description: row.description as string | null,
    enabled: sql.flag(row.enabled),
    disabledReason: row.disabledReason as string | null,
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

/** Changes the URL, the events, the description, or turns it on or off (which also clears why it was turned off). */
export async function updateWebhook(
  services: Services,
  agent: { id: string },
  webhookId: string,
  input: WebhookInput,
): Promise<WebhookRecord> {
  const current = await getWebhook(services, agent, webhookId);
  const url = input.url == null ? current.url : validUrl(input.url, services.config.webhookAllowPrivate);
  const events = input.events == null ? current.events : validEvents(input.events);
  const description = input.description === undefined ? current.description : validDescription(input.description);
  const enabled = input.enabled ?? current.enabled;
  const reset = input.enabled === true ? `, "disabledReason" = NULL, "givenUpInARow" = 0` : "";
  const changed = await services.sql.run(
    `UPDATE "Webhook" SET "url" = ?, "events" = ?, "description" = ?, "enabled" = ?${reset} WHERE "id" = ? AND "agentId" = ?`,
    [url, JSON.stringify(events), description, enabled, webhookId, agent.id],
  );
  if (changed === 0) throw notFound();
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

/** A delivery an instance has claimed, with what it needs to send it. */
export interface DueDelivery {
  id: string;
  webhookId: string;
  agentId: string;
  eventId: string;
  url: string;
  secret: string;
  payload: string;
  attempts: number;
  createdAt: Date;
}

/** How long a claim keeps other instances off a delivery: past the 10-second attempt, with room. */
const CLAIM_MS = 60_000;

/** Claims deliveries that are due: each is tried by one instance at a time, and a crashed claim runs out. */
export async function claimDueDeliveries(services: Services, limit: number): Promise<DueDelivery[]> {
  const { sql, clock } = services;
  const now = sql.at(clock.now());
  return sql.transaction(async (tx) => {
    const rows = await tx.all(
      `SELECT d."id", d."webhookId", d."eventId", d."payload", d."attempts", d."createdAt", w."agentId", w."url", w."secret"
        FROM "WebhookDelivery" d JOIN "Webhook" w ON w."id" = d."webhookId"
        WHERE d."status" = 'pending' AND w."enabled" = ? AND d."nextAttemptAt" <= ?
          AND (d."claimedUntil" IS NULL OR d."claimedUntil" < ?)
        ORDER BY d."nextAttemptAt" LIMIT ?${sql.skipLocked("d")}`,
      [true, now, now, limit],
    );
    const until = sql.at(new Date(clock.now().getTime() + CLAIM_MS));
    for (const row of rows) {
      await tx.run(`UPDATE "WebhookDelivery" SET "claimedUntil" = ? WHERE "id" = ?`, [until, row.id as string]);
    }
    return rows.map((row) => ({
      id: row.id as string,
      webhookId: row.webhookId as string,
      agentId: row.agentId as string,
      eventId: String(row.eventId),
      url: row.url as string,
      secret: row.secret as string,
      payload: row.payload as string,
      attempts: Number(row.attempts),
      createdAt: sql.date(row.createdAt),
    }));
  });
}

/** When the next attempt is due after `attempts` failed ones: the backoff, with a fifth either way of jitter. */
export function nextAttemptAfter(attempts: number, now: Date): Date {
  const pause = BACKOFF_MS[Math.min(attempts - 1, BACKOFF_MS.length - 1)] ?? BACKOFF_MS[0] ?? 5_000;
  return new Date(now.getTime() + pause * (0.8 + Math.random() * 0.4));
}

export interface AttemptOutcome {
  statusCode: number | null;
  error: string | null;
  durationMs: number;
}

/** Records one attempt: delivered on a 2xx; else tried again later, or given up after 24 hours. */
export async function recordAttempt(services: Services, delivery: DueDelivery, outcome: AttemptOutcome): Promise<void> {
  const { sql, clock } = services;
  const now = clock.now();
  const attempts = delivery.attempts + 1;
  const ok = outcome.statusCode !== null && outcome.statusCode >= 200 && outcome.statusCode < 300;
  const next = nextAttemptAfter(attempts, now);
  const givenUp = !ok && next.getTime() - delivery.createdAt.getTime() > GIVE_UP_AFTER_MS;
  const status = ok ? "delivered" : givenUp ? "given_up" : "pending";
  await sql.transaction(async (tx) => {
    await tx.run(
      `INSERT INTO "WebhookAttempt" ("id", "deliveryId", "at", "statusCode", "error", "durationMs") VALUES (?, ?, ?, ?, ?, ?)`,
      [randomUUID(), delivery.id, sql.at(now), outcome.statusCode, outcome.error, outcome.durationMs],
    );
    await tx.run(
      `UPDATE "WebhookDelivery" SET "status" = ?, "attempts" = ?, "nextAttemptAt" = ?, "claimedUntil" = NULL WHERE "id" = ?`,
      [status, attempts, status === "pending" ? sql.at(next) : null, delivery.id],
    );
    if (ok) {
      await tx.run(`UPDATE "Webhook" SET "givenUpInARow" = 0 WHERE "id" = ?`, [delivery.webhookId]);
    } else if (givenUp) {
      await tx.run(`UPDATE "Webhook" SET "givenUpInARow" = "givenUpInARow" + 1 WHERE "id" = ?`, [delivery.webhookId]);
      await tx.run(`UPDATE "Webhook" SET "enabled" = ?, "disabledReason" = ? WHERE "id" = ? AND "givenUpInARow" >= ?`, [
        false,
        `${GIVE_UPS_TO_DISABLE} deliveries in a row were given up after 24 hours of failures`,
        delivery.webhookId,
        GIVE_UPS_TO_DISABLE,
      ]);
    }
  });
}

/** Lets go of a claimed delivery without an attempt (the service is stopping): another may take it at once. */
export async function releaseClaim({ sql }: Services, delivery: DueDelivery): Promise<void> {
  await sql.run(`UPDATE "WebhookDelivery" SET "claimedUntil" = NULL WHERE "id" = ?`, [delivery.id]);
}
