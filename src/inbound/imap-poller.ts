import { setTimeout as sleep } from "node:timers/promises";
import { ImapFlow } from "imapflow";
import type { ImapConfig } from "../config.ts";
import { readCursor } from "../db/imap-cursor.ts";
import { type Lease, lease } from "../db/lease.ts";
import type { Takeover } from "../db/takeover.ts";
import { describeFault, type Logger } from "../log.ts";
import { type Arrival, type Filed, fileBatch, type ImapCursor, saveCursor } from "../mailbox/filing.ts";
import type { InboundState, Services } from "../mailbox/services.ts";
import { authenticator } from "./authentication.ts";
import { recipientsOf } from "./parse.ts";
import { startReaders, Unreadable } from "./readers.ts";

// Pulls mail from the catch-all mailbox: one instance at a time (a lease),
// in UID order, a batch per transaction, marking messages on the server only
// after their batch committed. IDLE wakes it at once; a timer checks anyway.
//
// No message may hold the mailbox. One too large or that cannot be read is
// set aside at once; an attempt that never commits (its filing failed, or the
// process died during it) is counted in the cursor before it begins, the next
// messages are then filed one at a time, and a message whose attempts keep
// failing is set aside too. Set aside, a message is passed over and left on
// the server, flagged as SET_ASIDE and moved as IMAP_PROCESSED moves mail.

const LEASE_TTL_MS = 30_000;
const LEASE_RENEW_MS = 10_000;
const BATCH_SIZE = 100;
const MAX_BACKOFF_MS = 60_000;
/** Attempts at one message before it is set aside. */
const MAX_TRIES = 3;
/** The flags of a message set aside: one a mail client shows, and one to search for. */
export const SET_ASIDE_FLAGS = ["\\Flagged", "$PigeonholeSetAside"];

/** Why a message was set aside: over INBOUND_MAX_BYTES, not readable as mail, or its filing kept failing. */
type SetAsideReason = "too_large" | "unreadable" | "failed";

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
  /** Messages the server has not yet marked, filed or set aside, by UID in one mailbox. */
  const marks = { uidValidity: 0n, pending: { processed: [] as number[], aside: [] as number[] } };
  const authenticate = authenticator(config, log);
  const readers = startReaders();
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
        Object.assign(state, { connected: false, lastError: describeFault(error) });
        if (stopped) break;
        log("warn", "imap_disconnected", { mailbox, error: describeFault(error), retryInMs: backoff });
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
    if (marks.uidValidity !== box.uidValidity)
      Object.assign(marks, { uidValidity: box.uidValidity, pending: { processed: [], aside: [] } });
    await markOnServer(client, []);
    const saved = await readCursor(sql, mailbox);
    if (saved && saved.uidValidity !== box.uidValidity)
      log("warn", "imap_uidvalidity_changed", { mailbox, was: `${saved.uidValidity}`, now: `${box.uidValidity}` });
    let cursor: ImapCursor =
      saved?.uidValidity === box.uidValidity
        ? saved
        : { uidValidity: box.uidValidity, lastUid: 0n, tries: 0, attemptUid: null };
    const found = (await client.search({ uid: `${cursor.lastUid + 1n}:*` }, { uid: true })) || [];
    const uids = found.filter((uid) => BigInt(uid) > cursor.lastUid).sort((a, b) => a - b);
    // Attempts counted at a message that is gone (removed by hand, say) are not the next one's.
    if (cursor.attemptUid !== null && BigInt(uids[0] ?? 0) !== cursor.attemptUid) cursor = { ...cursor, tries: 0 };
    state.lag = uids.length;
    // After an attempt that never committed, the next batch's worth is filed one at a time, to find the one at fault.
    let careful = cursor.tries > 0 ? BATCH_SIZE : 0;
    for (let i = 0; i < uids.length && !stopped; ) {
      const batch = uids.slice(i, i + (careful > 0 ? 1 : BATCH_SIZE));
      cursor =
        cursor.tries >= MAX_TRIES
          ? await passOver(client, cursor, batch, current)
          : await attempt(client, cursor, batch, current);
      i += batch.length;
      careful = Math.max(0, careful - batch.length);
      state.lag = uids.length - i;
    }
    if (!stopped) state.lastPollAt = clock.now();
  }

  /**
   * Files a batch. The attempt is counted once its messages are read, just
   * before filing them, so that a crash while filing is known at the next.
   */
  async function attempt(client: ImapFlow, cursor: ImapCursor, batch: number[], current: Lease): Promise<ImapCursor> {
    const first = BigInt(batch[0] ?? 0);
    const { sources, tooLarge } = await download(client, batch);
    const read = await Promise.all(sources.map(({ uid, source }) => arrival(BigInt(uid), source)));
    const arrivals = read
      .filter((a): a is Arrival => !(a instanceof Unreadable))
      .sort((a, b) => (a.uid < b.uid ? -1 : 1));
    await saveCursor(services, mailbox, { ...cursor, tries: cursor.tries + 1, attemptUid: first }, current);
    const through = { uidValidity: cursor.uidValidity, lastUid: BigInt(batch.at(-1) ?? 0), tries: 0, attemptUid: null };
    const filed = await fileBatch(services, mailbox, through, arrivals, current);
    report(batch, filed);
    for (const uid of tooLarge) setAside(uid, "too_large");
    read.forEach((result, index) => {
      if (result instanceof Unreadable) setAside(sources[index]?.uid ?? 0, "unreadable", result.message);
    });
    await markOnServer(
      client,
      arrivals.map((arrival) => Number(arrival.uid)),
    );
    return through;
  }

  /** Moves past a message whose attempts all failed: flagged first, then passed over, so that the ones after it are filed. */
  async function passOver(client: ImapFlow, cursor: ImapCursor, batch: number[], current: Lease): Promise<ImapCursor> {
    const uid = batch[0] ?? 0;
    marks.pending.aside.push(uid);
    await markOnServer(client, []);
    const passed = { uidValidity: cursor.uidValidity, lastUid: BigInt(uid), tries: 0, attemptUid: null };
    await saveCursor(services, mailbox, passed, current);
    setAside(uid, "failed", `${cursor.tries} attempts at filing it failed`, { marked: true });
    return passed;
  }

  /** Logged, counted, and flagged on the server with the next marks (unless it already is). */
  function setAside(uid: number, reason: SetAsideReason, error?: string, { marked = false } = {}): void {
    log("warn", "inbound_set_aside", { mailbox, uid, reason, error });
    services.metrics.inbound(reason);
    if (!marked) marks.pending.aside.push(uid);
  }

  /** The batch's sources in UID order, but those over INBOUND_MAX_BYTES, which are not downloaded. */
  async function download(client: ImapFlow, batch: number[]) {
    const sizes = await client.fetchAll(batch, { uid: true, size: true }, { uid: true });
    const tooLarge = sizes.filter((m) => (m.size ?? 0) > config.inboundMaxBytes).map((m) => m.uid);
    const wanted = sizes.filter((m) => !tooLarge.includes(m.uid)).map((m) => m.uid);
    const fetched =
      wanted.length === 0 ? [] : await client.fetchAll(wanted, { uid: true, source: true }, { uid: true });
    const sources = fetched.flatMap(({ uid, source }) => (source ? [{ uid, source }] : []));
    return { sources: sources.sort((a, b) => a.uid - b.uid), tooLarge };
  }

  /** One message as it is filed, or why it cannot be read. Read and authenticated side by side: authentication waits on DNS. */
  async function arrival(uid: bigint, raw: Buffer): Promise<Arrival | Unreadable> {
    let message: Awaited<ReturnType<typeof readers.read>>;
    try {
      message = await readers.read(raw);
    } catch (error) {
      if (error instanceof Unreadable) return error;
      throw error;
    }
    const recipients = recipientsOf(message, config.mailDomain, catchAll);
    if (recipients.length === 0) {
      log("warn", "inbound_dropped", { reason: "no_recipient", uid: Number(uid) });
      services.metrics.inbound("no_recipient");
    }
    return { uid, raw, message, recipients, authentication: await authenticate(raw, message.from.address) };
  }

  /**
   * Marks messages whose batch committed: filed ones as IMAP_PROCESSED asks,
   * those set aside with SET_ASIDE_FLAGS (never deleted; moved when filed ones
   * are). imapflow answers false when the server refused; those are logged
   * and tried again with the next pass.
   */
  async function markOnServer(client: ImapFlow, filed: number[]): Promise<void> {
    const action = config.imapProcessed;
    /** A refusal (false) or a failure (thrown) puts the UIDs back, to be marked with the next pass. */
    const mark = async (kind: keyof typeof marks.pending, uids: number[], apply: () => Promise<unknown>) => {
      if (uids.length === 0) return;
      let done = false;
      try {
        done = Boolean(await apply());
      } finally {
        if (!done) marks.pending[kind].push(...uids);
      }
      if (done) return;
      log("warn", "imap_mark_failed", {
        mailbox,
        action: kind === "aside" ? "set_aside" : action.kind,
        uids: uids.length,
      });
    };
    // Kept first, so that a connection lost while marking the others loses none of these.
    marks.pending.processed.push(...filed);
    const aside = marks.pending.aside.splice(0);
    await mark("aside", aside, async () => {
      const flagged = await client.messageFlagsAdd(aside, SET_ASIDE_FLAGS, { uid: true });
      return flagged && (action.kind !== "move" || (await client.messageMove(aside, action.mailbox, { uid: true })));
    });
    const processed = marks.pending.processed.splice(0);
    await mark("processed", processed, () =>
      action.kind === "seen"
        ? client.messageFlagsAdd(processed, ["\\Seen"], { uid: true })
        : action.kind === "delete"
          ? client.messageDelete(processed, { uid: true })
          : client.messageMove(processed, action.mailbox, { uid: true }),
    );
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
      await readers.close();
    },
  };
}
