import type pg from "pg";
import { pgModule } from "./pg.ts";
import type { Statements } from "./statements.ts";

// Wake-ups for whoever waits on an agent's events (or on any of a pod's agents'): long polls and
// subscriptions; and for the webhook worker, under a name of its own, when deliveries were queued. A wake-up
// only says "look again"; the event log is the truth, so a lost one is repaired by reading the log, never by
// replaying.

export interface Wakeups {
  /**
   * Inside the transaction that wrote the agents' events (or queued deliveries): tells other instances once it
   * commits.
   */
  announce(tx: Statements, agentIds: readonly string[]): Promise<void>;
  /** Resolves at the next wake-up for any of the agents (or for everyone), or when the signal aborts. */
  next(agentIds: readonly string[], signal?: AbortSignal): Promise<void>;
  /** After a commit that wrote the agents' events (or queued deliveries): wakes their waiters in this process. */
  committed(agentIds: Iterable<string>): void;
  close(): Promise<void>;
}

/** What the webhook worker waits on, announced as an agent's id is: no agent's id holds a "*". */
export const DELIVERIES_QUEUED = "*deliveries";

/** The waiters of this process, by agent. */
class Waiters {
  #byAgent = new Map<string, Set<() => void>>();

  /** Resolves at the next wake-up for any of the agents (one waiter, gone from all of theirs once woken). */
  next(agentIds: readonly string[], signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      if (signal?.aborted) return resolve();
      const sets = agentIds.map((agentId) => {
        const waiters = this.#byAgent.get(agentId) ?? new Set();
        this.#byAgent.set(agentId, waiters);
        return [agentId, waiters] as const;
      });
      const done = () => {
        for (const [agentId, waiters] of sets) {
          waiters.delete(done);
          if (waiters.size === 0 && this.#byAgent.get(agentId) === waiters) this.#byAgent.delete(agentId);
        }
        signal?.removeEventListener("abort", done);
        resolve();
      };
      for (const [, waiters] of sets) waiters.add(done);
      signal?.addEventListener("abort", done, { once: true });
    });
  }

  wake(agentId: string): void {
    for (const done of [...(this.#byAgent.get(agentId) ?? [])]) done();
  }

  wakeAll(): void {
    for (const agentId of [...this.#byAgent.keys()]) this.wake(agentId);
  }
}

/** SQLite: one process writes and reads, so a commit wakes its waiters directly. */
export function localWakeups(): Wakeups {
  const waiters = new Waiters();
  return {
    announce: async () => {},
    next: (agentIds, signal) => waiters.next(agentIds, signal),
    committed: (agentIds) => {
      for (const agentId of agentIds) waiters.wake(agentId);
    },
    close: async () => waiters.wakeAll(),
  };
}

const RECONNECT_MS = 1_000;

/**
 * PostgreSQL: every instance LISTENs on a connection of its own; a writer's
 * NOTIFY rides its commit (see events.ts), so every instance hears of every
 * event. When the connection drops, everyone is woken to read the log again.
 */
export function listeningWakeups(connectionString: string, channel: string, onError: (error: Error) => void): Wakeups {
  const waiters = new Waiters();
  let client: pg.Client | null = null;
  let closed = false;
  let timer: NodeJS.Timeout | undefined;

  const connect = async () => {
    const fresh = new (pgModule().Client)({ connectionString });
    const lost = (error?: Error) => {
      if (client !== fresh) return;
      client = null;
      waiters.wakeAll();
      if (error) onError(error);
      if (!closed) timer = setTimeout(() => void connect(), RECONNECT_MS);
    };
    fresh.on("error", lost);
    fresh.on("end", () => lost());
    fresh.on("notification", ({ payload }) => {
      // The agent's id (after a space, from instances older than this one: "<event id> <agent id>").
      const agentId = payload?.slice(payload.indexOf(" ") + 1);
      if (agentId) waiters.wake(agentId);
    });
    client = fresh;
    try {
      await fresh.connect();
      await fresh.query(`LISTEN ${channel}`);
      // Anything written while this connection was away is in the log: look again.
      waiters.wakeAll();
    } catch (error) {
      lost(error as Error);
    }
  };
  void connect();

  return {
    // NOTIFY inside the transaction is delivered when it commits, to every listener, this one included.
    // One notification an agent, all in one statement.
    announce: async (tx, agentIds) => {
      if (agentIds.length === 0) return;
      const agents = agentIds.map(() => "(CAST(? AS text))").join(", ");
      await tx.all(`SELECT pg_notify(?, "v"."agent") FROM (VALUES ${agents}) AS "v" ("agent")`, [channel, ...agentIds]);
    },
    next: (agentIds, signal) => waiters.next(agentIds, signal),
    committed: () => {},
    close: async () => {
      closed = true;
      clearTimeout(timer);
      waiters.wakeAll();
      const current = client;
      client = null;
      await current?.end().catch(() => {});
    },
  };
}
