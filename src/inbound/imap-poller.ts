import { setTimeout as sleep } from "node:timers/promises";
import { ImapFlow } from "imapflow";
import type { ImapConfig } from "../config.ts";
import { type Lease, lease } from "../db/lease.ts";
import type { Takeover } from "../db/takeover.ts";
import type { Logger } from "../log.ts";
import { type Arrival, type Filed, fileBatch } from "../mailbox/filing.ts";
import type { InboundState, Services } from "../mailbox/services.ts";
import { authenticator } from "./authentication.ts";
import { parseMessage, recipientsOf } from "./parse.ts";

// Pulls mail from the catch-all mailbox: one instance at a time (a lease),
// in UID order, a batch per transaction, marking messages on the server only
// after their batch committed. IDLE wakes it at once; a timer checks anyway.

const LEASE_TTL_MS = 30_000;
const LEASE_RENEW_MS = 10_000;
const BATCH_SIZE = 100;
const MAX_BACKOFF_MS = 60_000;

export interface Poller {
  stop(): Promise<void>;
}

/** imapflow's own warnings and errors, on our log; its chatter and protocol traces stay off. */
function imapLogger(log: Logger) {
  const forward = (level: "warn" | "error") => (entry: { msg?: string; err?: Error }) =>
    log(level, "imap_client", { message: entry.msg, error: entry.err?.message });
  return { debug: () => {}, info: () => {}, warn: forward("warn"), error: forward("error") };
}

class Session {
  /** Ends the wait in progress; null while the poller is busy. */
  #waiter: (() => void) | null = null;
  /** New mail, a close or a stop came while the poller was busy: the next wait returns at once. */
  #woken = false;
  readonly client: ImapFlow;

  constructor(imap: ImapConfig, log: Logger) {
    this.client = new ImapFlow({
      host: imap.host,
      port: imap.port,
      secure: imap.secure,
      auth: { user: imap.user, pass: imap.password },
      logger: imapLogger(log),
      connectionTimeout: 10_000,
      greetingTimeout: 10_000,
    });
    this.client.on("exists", () => this.wake());
    this.client.on("close", () => this.wake());
  }

  /**
   * IDLE until new mail, the timer, a close, or wake() from outside. imapflow
   * does not IDLE by itself while the poller holds the mailbox lock, so ask;
   * the next command ends the IDLE.
   */
  wait(ms: number): Promise<void> {
    if (this.#woken) {
      this.#woken = false;
      return Promise.resolve();
    }
    this.client.idle().catch(() => {});
    return new Promise((resolve) => {
      const done = () => {
        clearTimeout(timer);
        this.#waiter = null;
        resolve();
      };
      const timer = setTimeout(done, ms);
      this.#waiter = done;
    });
  }

  wake(): void {
    if (this.#waiter) this.#waiter();
    else this.#woken = true;
  }
}

export function startImapPoller(services: Services, imap: ImapConfig, takeover: Takeover, state: InboundState): Poller {
  const { config, log, sql, clock } = services;
  const mailbox = `${imap.user}@${imap.host}:${imap.port}/${imap.mailbox}`;
  // The catch-all's own address, which a Delivered-To may name: the login, at the mail domain when it has none.
  const catchAll = imap.user.includes("@") ? imap.user : `${imap.user}@${config.mailDomain}`;
  /** Filed messages the server has not yet marked as IMAP_PROCESSED asks, by UID in one mailbox. */
  const unmarked = { uidValidity: 0n, uids: [] as number[] };
  const authenticate = authenticator(config, log);
  const held = lease(sql, clock, `imap:${mailbox}`, takeover, LEASE_TTL_MS);
  const stopping = new AbortController();
  let stopped = false;
  let session: Session | null = null;
  const pause = (ms: number) => sleep(ms, undefined, { signal: stopping.signal }).catch(() => {});
  let renewTimer: NodeJS.Timeout | undefined;

  async function run(): Promise<void> {
    let backoff = 1_000;
    while (!stopped) {
      try {
        state.polling = await held.acquire();
        if (!state.polling) {
          await pause(LEASE_RENEW_MS);
          continue;
        }
        session = new Session(imap, log);
        session.client.on("error", (error: Error) => log("warn", "imap_error", { error: error.message }));
        await session.client.connect();
        backoff = 1_000;
        Object.assign(state, { connected: true, lastError: null });
        log("info", "imap_connected", { mailbox });
        await poll(session);
      } catch (error) {
        Object.assign(state, { connected: false, lastError: (error as Error).message });
        if (stopped) break;
        log("warn", "imap_disconnected", { mailbox, error: (error as Error).message, retryInMs: backoff });
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
    let leaseLost = false;
    renewTimer = setInterval(async () => {
      // Once lost, lost for this session: its view of the mailbox may be stale.
      if (await held.acquire().catch(() => false)) return;
      leaseLost = true;
      current.wake();
    }, LEASE_RENEW_MS);
    try {
      while (!stopped && !leaseLost) {
        await drain(current.client, held);
        await current.wait(config.imapPollIntervalMs);
        if (!current.client.usable && !stopped) throw new Error("connection closed");
      }
      if (leaseLost) log("warn", "imap_lease_lost", { mailbox });
    } finally {
      clearInterval(renewTimer);
      lock.release();
    }
  }

  async function drain(client: ImapFlow, current: Lease): Promise<void> {
    const box = client.mailbox;
    if (!box) throw new Error("no mailbox selected");
    // A mailbox deleted and created again under the same name is not always
    // announced to the session that has it open; STATUS shows the new one.
    const status = await client.status(imap.mailbox, { uidValidity: true });
    if (!status || status.uidValidity !== box.uidValidity)
      throw new Error("the mailbox was replaced; opening it again");
    if (unmarked.uidValidity !== box.uidValidity) Object.assign(unmarked, { uidValidity: box.uidValidity, uids: [] });
    await markProcessed(client, []);
    const cursor = await sql.one(`SELECT "uidValidity", "lastUid" FROM "ImapCursor" WHERE "mailbox" = ?`, [mailbox]);
    let lastUid = 0n;
    if (cursor && BigInt(cursor.uidValidity as number) === box.uidValidity) lastUid = BigInt(cursor.lastUid as number);
    else if (cursor)
      log("warn", "imap_uidvalidity_changed", { mailbox, was: `${cursor.uidValidity}`, now: `${box.uidValidity}` });
    const found = (await client.search({ uid: `${lastUid + 1n}:*` }, { uid: true })) || [];
    const uids = found.filter((uid) => BigInt(uid) > lastUid).sort((a, b) => a - b);
    state.lag = uids.length;
    for (let i = 0; i < uids.length && !stopped; i += BATCH_SIZE) {
      const batch = uids.slice(i, i + BATCH_SIZE);
      const arrivals = await download(client, batch);
      const filed = await fileBatch(
        services,
        { mailbox, uidValidity: box.uidValidity, lastUid: BigInt(batch.at(-1) ?? 0) },
        arrivals,
        current,
      );
      report(batch, filed);
      await markProcessed(
        client,
        arrivals.map((arrival) => Number(arrival.uid)),
      );
      state.lag = uids.length - i - batch.length;
    }
    if (!stopped) state.lastPollAt = clock.now();
  }

  /** The batch's messages in UID order; one too large or unreadable is logged and left on the server. */
  async function download(client: ImapFlow, batch: number[]): Promise<Arrival[]> {
    const sizes = await client.fetchAll(batch, { uid: true, size: true }, { uid: true });
    const wanted = sizes.filter((m) => {
      if ((m.size ?? 0) <= config.inboundMaxBytes) return true;
      log("warn", "inbound_dropped", { reason: "too_large", uid: m.uid, size: m.size, limit: config.inboundMaxBytes });
      services.metrics.inbound("too_large");
      return false;
    });
    if (wanted.length === 0) return [];
    const fetched = await client.fetchAll(
      wanted.map((w) => w.uid),
      { uid: true, source: true },
      { uid: true },
    );
    // Read and authenticated side by side: authentication waits on DNS.
    const arrivals = await Promise.all(fetched.map((m) => (m.source ? arrival(BigInt(m.uid), m.source) : null)));
    return arrivals.filter((a): a is Arrival => a !== null).sort((a, b) => (a.uid < b.uid ? -1 : 1));
  }

  /** One message as it is filed, or null (logged) when it cannot be read. */
  async function arrival(uid: bigint, raw: Buffer): Promise<Arrival | null> {
    try {
      const message = await parseMessage(raw);
      const recipients = recipientsOf(message, config.mailDomain, catchAll);
      if (recipients.length === 0) {
        log("warn", "inbound_dropped", { reason: "no_recipient", uid: Number(uid) });
        services.metrics.inbound("no_recipient");
      }
      return { uid, raw, message, recipients, authentication: await authenticate(raw, message.from.address) };
    } catch (error) {
      log("warn", "inbound_dropped", { reason: "unparseable", uid: Number(uid), error: (error as Error).message });
      services.metrics.inbound("unparseable");
      return null;
    }
  }

  /**
   * Applies IMAP_PROCESSED to filed messages. imapflow answers false when the
   * server refused; those are logged and tried again with the next pass.
   */
  async function markProcessed(client: ImapFlow, uids: number[]): Promise<void> {
    const pending = [...unmarked.uids.splice(0), ...uids];
    if (pending.length === 0) return;
    const action = config.imapProcessed;
    const done =
      action.kind === "seen"
        ? await client.messageFlagsAdd(pending, ["\\Seen"], { uid: true })
        : action.kind === "delete"
          ? await client.messageDelete(pending, { uid: true })
          : Boolean(await client.messageMove(pending, action.mailbox, { uid: true }));
    if (done) return;
    unmarked.uids.push(...pending);
    log("warn", "imap_mark_failed", { mailbox, action: action.kind, uids: pending.length });
  }

  function report(batch: number[], filed: Filed[]): void {
    const counts: Record<string, number> = {};
    for (const { uid, recipient, outcome } of filed) {
      counts[outcome] = (counts[outcome] ?? 0) + 1;
      services.metrics.inbound(outcome);
      if (outcome !== "stored" && outcome !== "duplicate") {
        log("warn", "inbound_dropped", { reason: outcome, uid: `${uid}`, recipient });
      }
    }
    log("info", "imap_batch", {
      mailbox,
      firstUid: batch[0],
      lastUid: batch.at(-1),
      messages: batch.length,
      ...counts,
    });
  }

  const running = run();
  return {
    async stop() {
      stopped = true;
      stopping.abort();
      clearInterval(renewTimer);
      session?.wake();
      await running;
      await held.release();
      await takeover.close();
    },
  };
}
