import type { Prisma, Webhook } from "../generated/prisma/sqlite/client.ts";
import { lockAgent } from "./agents.ts";
import type { Store } from "./client.ts";

// An agent's webhooks. Prisma reads and writes them; creating one is our own
// SQL, because it counts the agent's webhooks under a lock on the agent's
// row, which Prisma cannot take.

/** What a read of webhooks loads with each: the GraphQL selection, as Prisma takes it. */
export type WebhookQuery = { include?: Prisma.WebhookInclude } | { select?: Prisma.WebhookSelect };

export type { Webhook };

/** A webhook to add: its row as stored. */
export interface NewWebhook {
  id: string;
  agentId: string;
  url: string;
  /** Its event types; empty for all. */
  events: string[];
  description: string | null;
  secret: string;
  createdAt: Date;
}

/**
 * Adds the webhook unless the agent has `max` already; the count it found.
 * The agent's row is locked first, so creations for one agent take turns
 * and the count holds until the insert commits.
 */
export async function insertWebhook(
  { sql }: Store,
  webhook: NewWebhook,
  max: number,
): Promise<{ added: boolean; count: number }> {
  return sql.transaction(async (tx) => {
    await lockAgent(tx, webhook.agentId);
    const count = Number(
      (await tx.one(`SELECT COUNT(*) AS "n" FROM "Webhook" WHERE "agentId" = ?`, [webhook.agentId]))?.n,
    );
    if (count >= max) return { added: false, count };
    await tx.run(
      `INSERT INTO "Webhook" ("id", "agentId", "url", "events", "description", "secret", "enabled", "createdAt")
        VALUES (?, ?, ?, ?, ?, ?, ?, ?)`,
      [
        webhook.id,
        webhook.agentId,
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

export function webhookById({ prisma }: Store, agentId: string, webhookId: string, query: WebhookQuery = {}) {
  return prisma.webhook.findFirst({ ...query, where: { id: webhookId, agentId } }) as Promise<Webhook | null>;
}

/** What a change to a webhook writes. */
export interface WebhookChange {
  url: string;
  events: string[];
  description: string | null;
  enabled: boolean;
}

/**
 * Changes the agent's webhook; false when it has none of that id. Resuming
 * it also forgets why it was turned off and its pause, and makes its
 * pending deliveries due now: the webhook's row first, then its deliveries',
 * in the order an attempt's record takes them.
 */
export async function changeWebhook(
  { prisma }: Store,
  agentId: string,
  webhookId: string,
  change: WebhookChange,
  resumeAt: Date | null,
): Promise<boolean> {
  const webhook = { id: webhookId, agentId };
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

/** Deletes the agent's webhook with its deliveries; false when it has none of that id. */
export async function removeWebhook({ prisma }: Store, agentId: string, webhookId: string): Promise<boolean> {
  return (await prisma.webhook.deleteMany({ where: { id: webhookId, agentId } })).count > 0;
}

/** Replaces the webhook's secret; false when the agent has none of that id. */
export async function replaceSecret({ prisma }: Store, agentId: string, webhookId: string, secret: string) {
  return (await prisma.webhook.updateMany({ where: { id: webhookId, agentId }, data: { secret } })).count > 0;
}
