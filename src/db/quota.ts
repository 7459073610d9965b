import type { Db } from "./client.ts";
import { isUniqueViolation } from "./errors.ts";

// The daily send limit and the storage limit. A send takes both before the
// message goes out and gives them back if it does not; received mail takes
// storage as it is filed. Each step is one conditional statement, so parallel
// requests on any number of instances cannot pass a limit.

/** The UTC day of a moment, as the counter's key. */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** The next UTC midnight after now. */
export function nextUtcMidnight(now: Date): Date {
  return new Date(Date.UTC(now.getUTCFullYear(), now.getUTCMonth(), now.getUTCDate() + 1));
}

/** Either the client or a transaction. */
type Counters = Pick<Db, "sendCounter">;

/**
 * Makes sure today's counter row exists, outside any transaction: a refused
 * insert would abort a PostgreSQL transaction.
 */
export async function openSendDay(prisma: Db, agentId: string, day: string): Promise<void> {
  try {
    await prisma.sendCounter.create({ data: { agentId, day, count: 0 } });
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
  }
}

/** Counts one send on an open day unless the limit is reached; false when it is. */
export async function takeSend(prisma: Counters, agentId: string, day: string, limit: number): Promise<boolean> {
  const { count } = await prisma.sendCounter.updateMany({
    where: { agentId, day, count: { lt: limit } },
    data: { count: { increment: 1 } },
  });
  return count === 1;
}

export async function giveSendBack(prisma: Counters, agentId: string, day: string): Promise<void> {
  await prisma.sendCounter.updateMany({ where: { agentId, day, count: { gt: 0 } }, data: { count: { decrement: 1 } } });
}

export async function sendsOn(prisma: Counters, agentId: string, day: string): Promise<number> {
  const counter = await prisma.sendCounter.findUnique({ where: { agentId_day: { agentId, day } } });
  return counter?.count ?? 0;
}

/** Either the client or a transaction: storage moves with the mail it is for. */
type Agents = Pick<Db, "agent">;

/** Reserves bytes unless they would pass the limit; false when they would. */
export async function takeStorage(prisma: Agents, agentId: string, bytes: number, limit: number): Promise<boolean> {
  const { count } = await prisma.agent.updateMany({
    where: { id: agentId, storageUsed: { lte: limit - bytes } },
    data: { storageUsed: { increment: bytes } },
  });
  return count === 1;
}

export async function giveStorageBack(prisma: Agents, agentId: string, bytes: number): Promise<void> {
  await prisma.agent.update({ where: { id: agentId }, data: { storageUsed: { decrement: bytes } } });
}
