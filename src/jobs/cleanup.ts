import { Cron } from "croner";
import { utcDay } from "../db/quota.ts";
import { expiredAgents } from "../lifetimes.ts";
import type { Services } from "../schema/context.ts";

// Unverified agents are deleted 24 hours after creation, and yesterday's send
// counters go too. Each delete is one conditional statement, so any number of
// instances may run the job at once.

export async function deleteExpiredAgents({ prisma, clock, log }: Services): Promise<number> {
  const { count } = await prisma.agent.deleteMany({ where: expiredAgents(clock.now()) });
  if (count > 0) log("info", "expired_agents_deleted", { count });
  return count;
}

/** Send counters of past UTC days count nothing any more. */
export async function deletePastSendCounters({ prisma, clock }: Services): Promise<number> {
  const { count } = await prisma.sendCounter.deleteMany({ where: { day: { lt: utcDay(clock.now()) } } });
  return count;
}

/** Every minute; `protect` skips a run while the previous one is still going. */
export function scheduleCleanup(services: Services): Cron {
  const catchError = (error: unknown) => services.log("error", "cleanup_failed", { error: String(error) });
  return new Cron("* * * * *", { protect: true, catch: catchError }, async () => {
    await deleteExpiredAgents(services);
    await deletePastSendCounters(services);
  });
}
