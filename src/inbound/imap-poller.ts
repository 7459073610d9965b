import { setTimeout as sleep } from "node:timers/promises";
import type { ImapConfig } from "../config.ts";
import { describeFault } from "../log.ts";
import { catchAllLease, LEASE_TTL_MS, type Lease } from "../mailbox/filing.ts";
import type { Services } from "../mailbox/services.ts";
import { BatchReader } from "./arrivals.ts";
import { MailboxDrain } from "./drain.ts";
import { ServerMarks } from "./server-marks.ts";
import { Session } from "./session.ts";
import type { InboundState } from "./state.ts";

// Pulls mail from the catch-all mailbox: one instance at a time (a lease),
// in UID order, a batch per transaction (drain.ts), marking messages on the
// server only after their batch committed (server-marks.ts). IDLE wakes it at
// once; a timer checks anyway. Lost connections are tried again with backoff.

const LEASE_RENEW_MS = LEASE_TTL_MS / 3;
/** How often an instance that does not hold the lease asks for it: a holder that stops hands it back, and the next takes it within this. */
const STANDBY_MS = 1_000;
const MAX_BACKOFF_MS = 60_000;

export interface Poller {
  stop(): Promise<void>;
}

export function startImapPoller(services: Services, imap: ImapConfig, state: InboundState): Poller {
  const { config, log } = services;
  const key = `${imap.user}@${imap.host}:${imap.port}/${imap.mailbox}`;
  // The catch-all's own address, which a Delivered-To may name: the login, at the mail domain when it has none.
  const catchAll = imap.user.includes("@") ? imap.user : `${imap.user}@${config.mailDomain}`;
  const reader = new BatchReader(services, catchAll);
  const marks = new ServerMarks(config.imapProcessed, log, key);
  const lease = catchAllLease(services, key);
  const stopping = new AbortController();
  const stopped = () => stopping.signal.aborted;
  const drain = new MailboxDrain({ services, key, mailbox: imap.mailbox, marks, reader, state, stopped });
  const pause = (ms: number) => sleep(ms, undefined, { signal: stopping.signal }).catch(() => {});
  let session: Session | null = null;

  async function run(): Promise<void> {
    let backoff = 1_000;
    while (!stopped()) {
      try {
        state.polling = await lease.acquire();
        if (!state.polling) {
          await pause(STANDBY_MS);
          continue;
        }
        session = new Session(imap, log);
        await session.client.connect();
        backoff = 1_000;
        Object.assign(state, { connected: true, lastError: null });
        log("info", "imap_connected", { mailbox: key });
        await poll(session);
      } catch (error) {
        Object.assign(state, { connected: false, lastError: describeFault(error) });
        if (stopped()) break;
        log("warn", "imap_disconnected", { mailbox: key, error: describeFault(error), retryInMs: backoff });
        await pause(backoff);
        backoff = Math.min(backoff * 2, MAX_BACKOFF_MS);
      } finally {
        session?.client.close();
        session = null;
        state.connected = false;
      }
    }
  }

  /** Drains the mailbox, then waits for more, while the lease is ours. */
  async function poll(current: Session): Promise<void> {
    const lock = await current.client.getMailboxLock(imap.mailbox);
    const renewal = keepLeaseRenewed(lease, current);
    try {
      while (!stopped() && !renewal.lost) {
        await drain.drain(current.client, lease);
        await current.wait(config.imapPollIntervalMs);
        if (!current.client.usable && !stopped()) throw new Error("connection closed");
      }
      if (renewal.lost) log("warn", "imap_lease_lost", { mailbox: key });
    } finally {
      renewal.stop();
      lock.release();
    }
  }

  const running = run();
  return {
    async stop() {
      stopping.abort();
      session?.wake();
      await running;
      await lease.release();
      await reader.close();
    },
  };
}

/** Renews the lease while a session works; once lost, lost for that session: its view of the mailbox may be stale. */
function keepLeaseRenewed(lease: Lease, session: Session) {
  const renewal = {
    lost: false,
    stop: () => clearInterval(timer),
  };
  const timer = setInterval(async () => {
    if (await lease.acquire().catch(() => false)) return;
    renewal.lost = true;
    session.wake();
  }, LEASE_RENEW_MS);
  return renewal;
}
