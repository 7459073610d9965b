import { randomUUID } from "node:crypto";
import type pg from "pg";
import { advisoryKey } from "./advisory.ts";
import { pgModule } from "./pg.ts";

// A lease row expires when its holder stops renewing it. A holder that died
// is known to be gone sooner than that: on SQLite, whose file one host
// shares, by its process id; on PostgreSQL by a session advisory lock, which
// the server frees the moment the holder's connection ends.

export interface Takeover {
  /** This process's name for itself as a lease holder. */
  holder(): string;
  /** Whether this process may take the lease now, whatever time its holder has left. */
  mayTake(lease: string, holder: string | null): Promise<boolean>;
  close(): Promise<void>;
}

function processAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === "EPERM";
  }
}

/** SQLite: a holder whose process is no longer running is gone. */
export function processTakeover(): Takeover {
  return {
    holder: () => `${process.pid}:${randomUUID()}`,
    async mayTake(_lease, holder) {
      const pid = Number(holder?.split(":")[0]);
      return holder === null || !Number.isInteger(pid) || !processAlive(pid);
    },
    async close() {},
  };
}

/**
 * PostgreSQL: every instance asks for the lease's session lock on a
 * connection of its own. Whoever gets it is the only live claimant, and may
 * take the lease at once; when its connection ends, so does the lock.
 */
export function advisoryTakeover(connectionString: string, schema: string): Takeover {
  let client: pg.Client | null = null;
  const locked = new Set<string>();

  async function connection(): Promise<pg.Client> {
    if (client) return client;
    const fresh = new (pgModule().Client)({ connectionString });
    const lost = () => {
      if (client === fresh) client = null;
      locked.clear();
    };
    fresh.on("error", lost);
    fresh.on("end", lost);
    await fresh.connect();
    client = fresh;
    return fresh;
  }

  return {
    holder: () => randomUUID(),
    async mayTake(lease) {
      const key = advisoryKey(schema, lease);
      if (locked.has(key)) return true;
      const { rows } = await (await connection()).query<{ locked: boolean }>(
        "SELECT pg_try_advisory_lock($1::bigint) AS locked",
        [key],
      );
      if (rows[0]?.locked) locked.add(key);
      return locked.has(key);
    },
    async close() {
      locked.clear();
      await client?.end();
      client = null;
    },
  };
}
