import type { Clock } from "../clock.ts";
import type { Sql } from "./sql.ts";
import type { Tx } from "./statements.ts";
import type { Takeover } from "./takeover.ts";

// A lease row lets one instance at a time run a job across every instance on
// one database. The holder renews it; when it stops renewing, the lease
// expires and another instance takes over, at once when the holder is known
// to be gone (see takeover.ts).

export interface Lease {
  /** Takes the lease when free or already ours; true while we hold it. */
  acquire(): Promise<boolean>;
  /** Inside a transaction: extends the lease, false when it was lost. Holds the row until commit. */
  confirm(tx: Tx): Promise<boolean>;
  release(): Promise<void>;
}

export function lease(sql: Sql, clock: Clock, name: string, takeover: Takeover, ttlMs: number): Lease {
  const holder = takeover.holder();
  const until = () => sql.at(new Date(clock.now().getTime() + ttlMs));
  return {
    async acquire() {
      const current = await sql.one(`SELECT "holder", "expiresAt" FROM "Lease" WHERE "name" = ?`, [name]);
      // Asked every time: on PostgreSQL this also keeps our claim on the lease.
      const mayTake = await takeover.mayTake(name, (current?.holder as string | undefined) ?? null);
      if (!current) {
        // A free lease goes to the live claimant only: taken by another, it would be taken from them
        // by the claimant at its next look, and the mailbox polled twice.
        if (!mayTake) return false;
        const created = await sql.run(
          `INSERT INTO "Lease" ("name", "holder", "expiresAt") VALUES (?, ?, ?) ON CONFLICT ("name") DO NOTHING`,
          [name, holder, until()],
        );
        return created === 1;
      }
      const expired = sql.date(current.expiresAt) < clock.now();
      if (current.holder !== holder && !expired && !mayTake) return false;
      // Conditional on the holder we read: of two instances taking over, one wins.
      const taken = await sql.run(
        `UPDATE "Lease" SET "holder" = ?, "expiresAt" = ? WHERE "name" = ? AND "holder" = ?`,
        [holder, until(), name, current.holder as string],
      );
      return taken === 1;
    },
    async confirm(tx) {
      const confirmed = await tx.run(
        `UPDATE "Lease" SET "expiresAt" = ? WHERE "name" = ? AND "holder" = ? AND "expiresAt" >= ?`,
        [until(), name, holder, tx.at(clock.now())],
      );
      return confirmed === 1;
    },
    async release() {
      await sql.run(`DELETE FROM "Lease" WHERE "name" = ? AND "holder" = ?`, [name, holder]);
    },
  };
}
