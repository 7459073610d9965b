import { type IdempotencyKey, Prisma } from "../generated/prisma/sqlite/client.ts";
import type { Store } from "./client.ts";
import { jsonInput } from "./rows.ts";

// Idempotency keys and the first answer to each.

/**
 * Claims the key for a request; false when the agent holds it already. Raw:
 * an insert that yields to the row already there, which Prisma cannot do
 * on SQLite (createMany's skipDuplicates is PostgreSQL's only).
 */
export async function claimKey({ sql }: Store, agentId: string, key: string, fingerprint: string, now: Date) {
  const inserted = await sql.run(
    `INSERT INTO "IdempotencyKey" ("agentId", "key", "fingerprint", "createdAt") VALUES (?, ?, ?, ?) ON CONFLICT DO NOTHING`,
    [agentId, key, fingerprint, sql.at(now)],
  );
  return inserted === 1;
}

export function keptKey({ prisma }: Store, agentId: string, key: string): Promise<IdempotencyKey | null> {
  return prisma.idempotencyKey.findUnique({ where: { agentId_key: { agentId, key } } });
}

/** Takes a stale key over for a new request, if it is still as it was read: of two retries only one does. */
export async function takeKeyOver({ prisma }: Store, stale: IdempotencyKey, fingerprint: string, now: Date) {
  const { agentId, key, createdAt } = stale;
  const { count } = await prisma.idempotencyKey.updateMany({
    where: { agentId, key, createdAt },
    data: { fingerprint, status: null, answer: Prisma.DbNull, createdAt: now },
  });
  return count === 1;
}

/** Keeps the first answer to the key's request. */
export async function keepAnswer({ prisma }: Store, agentId: string, key: string, status: number, answer: object) {
  await prisma.idempotencyKey.updateMany({ where: { agentId, key }, data: { status, answer: jsonInput(answer) } });
}

export async function releaseKey({ prisma }: Store, agentId: string, key: string): Promise<void> {
  await prisma.idempotencyKey.deleteMany({ where: { agentId, key } });
}

/** Forgets keys made before the time; how many. */
export async function forgetKeys({ prisma }: Store, before: Date): Promise<number> {
  return (await prisma.idempotencyKey.deleteMany({ where: { createdAt: { lt: before } } })).count;
}
