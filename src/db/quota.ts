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

/** Counts one send for today unless the limit is reached; false when it is. */
export async function takeSend(prisma: Db, agentId: string, day: string, limit: number): Promise<boolean> {
  const where = { agentId, day, count: { lt: limit } };
  if ((await prisma.sendCounter.updateMany({ where, data: { count: { increment: 1 } } })).count === 1) return true;
  try {
    await prisma.sendCounter.create({ data: { agentId, day, count: 1 } });
    return true;
  } catch (error) {
    if (!isUniqueViolation(error)) throw error;
    // Another request created today's row first: count against it.
    return (await prisma.sendCounter.updateMany({ where, data: { count: { increment: 1 } } })).count === 1;
  }
}

export async function giveSendBack(prisma: Db, agentId: string, day: string): Promise<void> {
  await prisma.sendCounter.updateMany({ where: { agentId, day, count: { gt: 0 } }, data: { count: { decrement: 1 } } });
}

export async function sendsOn(prisma: Db, agentId: string, day: string): Promise<number> {
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
