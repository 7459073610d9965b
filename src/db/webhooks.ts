import type { Prisma, Webhook } from "../generated/prisma/sqlite/client.ts";
import type { Store } from "./client.ts";
import type { Tx } from "./statements.ts";

// Webhooks, an agent's or a pod's (its owner). Prisma reads and writes them;
// creating one is our own SQL, because it counts the owner's webhooks under a
// lock on the owner's row, which Prisma cannot take.

/** What a read of webhooks loads with each: the GraphQL selection, as Prisma takes it. */
export type WebhookQuery = { include?: Prisma.WebhookInclude } | { select?: Prisma.WebhookSelect };

export type { Webhook };

/** Whose webhooks: an agent's, or a pod's (which receive the events of all its agents). */
export type WebhookOwner = { agentId: string } | { podId: string };

/** The owner of a webhook as read. */
export const ownerOf = (webhook: Pick<Webhook, "agentId" | "podId">): WebhookOwner =>
  webhook.agentId !== null ? { agentId: webhook.agentId } : { podId: webhook.podId ?? "" };

/** The owner's column and id, for our own SQL. */
const columnOf = (owner: WebhookOwner) =>
  "agentId" in owner
    ? { column: "agentId", table: "Agent", id: owner.agentId }
    : { column: "podId", table: "Pod", id: owner.podId };

/** Inside a transaction: the owner's row, locked until commit (so that its webhooks are counted and added in turn). */
async function lockOwner(tx: Tx, owner: WebhookOwner): Promise<void> {
  const { table, id } = columnOf(owner);
  await tx.one(`SELECT "id" FROM "${table}" WHERE "id" = ?${tx.forUpdate}`, [id]);
}

/** A webhook to add: its row as stored. */
export interface NewWebhook {
  id: string;
  owner: WebhookOwner;
  url: string;
  /** Its event types; empty for all. */
  events: string[];
  description: string | null;
  secret: string;
  createdAt: Date;
}

/**
 * Adds the webhook unless its owner has `max` already; the count it found.
 * The owner's row is locked first, so creations for one owner take turns
 * and the count holds until the insert commits.
 */
export async function insertWebhook(
  { sql }: Store,
  webhook: NewWebhook,
  max: number,
): Promise<{ added: boolean; count: number }> {
  return sql.transaction(async (tx) => {
    const { column, id } = columnOf(webhook.owner);
    await lockOwner(tx, webhook.owner);
    const count = Number((await tx.one(`SELECT COUNT(*) AS "n" FROM "Webhook" WHERE "${column}" = ?`, [id]))?.n);
    if (count >= max) return { added: false, count };
    await tx.run(
      `INSERT INTO "Webhook" ("id", "${column}", "url", "events", "description", "secret", "enabled", "createdAt")
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        webhook.id,
        id,
        webhook.url,
        JSON.stringify(webhook.events), // JSON text: PostgreSQL casts it to jsonb
        webhook.description,
        webhook.secret,
        true,
        tx.at(webhook.createdAt),
      ],
    );
    return { added: true, count };
  });
}

export function webhookById({ prisma }: Store, owner: WebhookOwner, webhookId: string, query: WebhookQuery = {}) {
  return prisma.webhook.findFirst({ ...query, where: { id: webhookId, ...owner } }) as Promise<Webhook | null>;
}

/** The owner's webhooks in the order given. */
export function webhooksOf(
  { prisma }: Store,
  owner: WebhookOwner,
  orderBy: Prisma.WebhookOrderByWithRelationInput[],
  query: WebhookQuery = {},
) {
  return prisma.webhook.findMany({ ...query, where: owner, orderBy }) as Promise<Webhook[]>;
}

/** What a change to a webhook writes. */
export interface WebhookChange {
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
}

/**
 * Changes the owner's webhook; false when it has none of that id. Resuming
 * it also forgets why it was turned off and its pause, and makes its
 * pending deliveries due now: the webhook's row first, then its deliveries',
 * in the order an attempt's record takes them.
 */
export async function changeWebhook(
  { prisma }: Store,
  owner: WebhookOwner,
  webhookId: string,
  change: WebhookChange,
  resumeAt: Date | null,
): Promise<boolean> {
  const webhook = { id: webhookId, ...owner };
  if (!resumeAt) return (await prisma.webhook.updateMany({ where: webhook, data: change })).count > 0;
  const resumed = { disabledReason: null, failuresInARow: 0, failingSince: null, pausedUntil: null };
  const [changed] = await prisma.$transaction([
    prisma.webhook.updateMany({ where: webhook, data: { ...change, ...resumed } }),
    prisma.webhookDelivery.updateMany({
      where: { webhookId, status: "pending", webhook },
      data: { nextAttemptAt: resumeAt },
    }),
  ]);
  return changed.count > 0;
}

/** Deletes the owner's webhook with its deliveries; false when it has none of that id. */
export async function removeWebhook({ prisma }: Store, owner: WebhookOwner, webhookId: string): Promise<boolean> {
  return (await prisma.webhook.deleteMany({ where: { id: webhookId, ...owner } })).count > 0;
}

/** Replaces the webhook's secret; false when the owner has none of that id. */
export async function replaceSecret({ prisma }: Store, owner: WebhookOwner, webhookId: string, secret: string) {
  return (await prisma.webhook.updateMany({ where: { id: webhookId, ...owner }, data: { secret } })).count > 0;
}
