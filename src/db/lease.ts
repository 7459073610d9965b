import type { Clock } from "../clock.ts";
import type { Db, Tx } from "./client.ts";
import { isUniqueViolation } from "./errors.ts";

// A lease row lets one instance at a time run a job across every instance on
// one database. The holder renews it; when it stops renewing, the lease
// expires and another instance takes over.

export interface Lease {
  /** Takes the lease when free or already ours; true while we hold it. */
  acquire(): Promise<boolean>;
  /** Inside a transaction: extends the lease, false when it was lost. Holds the row until commit. */
  confirm(tx: Tx): Promise<boolean>;
  release(): Promise<void>;
}

export function lease(prisma: Db, clock: Clock, name: string, holder: string, ttlMs: number): Lease {
  const until = () => new Date(clock.now().getTime() + ttlMs);
  const mine = (tx: Tx | Db) =>
    tx.lease.updateMany({
      where: { name, OR: [{ holder }, { expiresAt: { lt: clock.now() } }] },
      data: { holder, expiresAt: until() },
    });
  return {
    async acquire() {
      if ((await mine(prisma)).count === 1) return true;
      try {
        await prisma.lease.create({ data: { name, holder, expiresAt: until() } });
        return true;
      } catch (error) {
        if (isUniqueViolation(error)) return false;
        throw error;
      }
    },
    async confirm(tx) {
      const { count } = await tx.lease.updateMany({
        where: { name, holder, expiresAt: { gte: clock.now() } },
        data: { expiresAt: until() },
      });
      return count === 1;
    },
    async release() {
      await prisma.lease.deleteMany({ where: { name, holder } });
    },
  };
}
