import type { ImapFlow } from "imapflow";
import {
  cursorOf,
  dropped,
  type Filed,
  fileBatch,
  type ImapCursor,
  type Lease,
  saveCursor,
} from "../mailbox/filing.ts";
import type { Services } from "../mailbox/services.ts";
import type { BatchReader, ReadBatch, Waiting } from "./arrivals.ts";
import type { ServerMarks } from "./server-marks.ts";
import type { InboundState } from "./state.ts";

// Reading the mailbox to its end: the messages past the cursor in UID order,
// a batch per transaction that moves the cursor past it.
//
// No message may hold the mailbox. One too large or that cannot be read is
// set aside at once; an attempt that never commits (its filing failed, or the
// process died during it) is counted in the cursor before it begins, the next
// messages are then filed one at a time, and a message whose attempts keep
// failing is set aside too. Set aside, a message is passed over and left on
// the server, flagged and moved as IMAP_PROCESSED moves mail.

const BATCH_SIZE = 100;
/**
 * A batch's bytes, by the server's RFC822.SIZE. A larger message, or one
 * whose size the server does not give, is a batch alone; the next batch is
 * read while one is filed only when both are within this, so that at most
 * twice this, or one message of up to INBOUND_MAX_BYTES, is held at once.
 */
const BATCH_BYTES = 16 * 1024 * 1024;
/** Attempts at one message before it is set aside. */
const MAX_TRIES = 3;

/** A batch being read before its turn. */
interface ReadAhead {
  batch: Waiting[];
  read: Promise<ReadBatch>;
}

/** A message's bytes as a batch counts them: a size the server does not give fills a batch alone. */
const bytesOf = ({ size }: Waiting) => size ?? Number.POSITIVE_INFINITY;

/** The batch that starts at `waiting[from]`: up to `count` messages in UID order, of BATCH_BYTES in all, and at least one. */
export function batchAt(waiting: Waiting[], from: number, count: number): Waiting[] {
  let end = from;
  let bytes = 0;
  while (end < waiting.length && end - from < count) {
    bytes += bytesOf(waiting[end] as Waiting);
    if (end > from && bytes > BATCH_BYTES) break;
    end++;
  }
  return waiting.slice(from, end);
}

/** Whether a batch is within BATCH_BYTES, and so may be held beside another. */
export const withinBytes = (batch: Waiting[]) =>
  batch.reduce((bytes, message) => bytes + bytesOf(message), 0) <= BATCH_BYTES;

/** Batches of the same drain: the same when they start at the same message and hold as many. */
const sameBatch = (a: Waiting[], b: Waiting[]) => a[0] === b[0] && a.length === b.length;

/** Why a message was set aside: over INBOUND_MAX_BYTES, not readable as mail, or its filing kept failing. */
type SetAsideReason = "too_large" | "unreadable" | "failed";

/** What a drain works with: the mailbox (`key` names it across servers), its marks, its reader, its state. */
export interface DrainParts {
  services: Services;
  key: string;
  mailbox: string;
  marks: ServerMarks;
  reader: BatchReader;
  state: InboundState;
  stopped: () => boolean;
}

export class MailboxDrain {
  constructor(private readonly parts: DrainParts) {}

  /** Files everything past the cursor, a batch at a time, while the lease is ours and the poller runs. */
  async drain(client: ImapFlow, lease: Lease): Promise<void> {
    const { services, state, stopped } = this.parts;
    let cursor = await this.#cursor(client);
    const waiting = await this.#waiting(client, cursor);
    // Attempts counted at a message that is gone (removed by hand, say) are not the next one's.
    if (cursor.attemptUid !== null && BigInt(waiting[0]?.uid ?? 0) !== cursor.attemptUid)
      cursor = { ...cursor, tries: 0 };
    state.lag = waiting.length;
    // After an attempt that never committed, the next batch's worth is filed one at a time, to find the one at fault.
    let careful = cursor.tries > 0 ? BATCH_SIZE : 0;
    let ahead: ReadAhead | null = null;
    for (let i = 0; i < waiting.length && !stopped(); ) {
      const batch = batchAt(waiting, i, careful > 0 ? 1 : BATCH_SIZE);
      const uids = batch.map(({ uid }) => uid);
      if (cursor.tries >= MAX_TRIES) {
        ahead = null;
        cursor = await this.#passOver(client, cursor, uids, lease);
      } else {
        const read = ahead && sameBatch(ahead.batch, batch) ? ahead.read : this.parts.reader.read(client, batch);
        // The next batch is read while this one is filed and marked, unless either is larger than BATCH_BYTES
        // or the next is filed one message at a time.
        const next = careful > batch.length ? [] : batchAt(waiting, i + batch.length, BATCH_SIZE);
        ahead = next.length > 0 && withinBytes(batch) && withinBytes(next) ? this.#readAhead(client, next) : null;
        cursor = await this.#attempt(client, cursor, uids, await read, lease);
      }
      i += batch.length;
      careful = Math.max(0, careful - batch.length);
      state.lag = waiting.length - i;
    }
    if (!stopped()) state.lastPollAt = services.clock.now();
  }

  /** Where to go on from: the cursor of this version of the mailbox, which must still be the one open. */
  async #cursor(client: ImapFlow): Promise<ImapCursor> {
    const { services, key, mailbox, marks } = this.parts;
    const box = client.mailbox;
    if (!box) throw new Error("no mailbox selected");
    // A mailbox deleted and created again under the same name is not always
    // announced to the session that has it open; STATUS shows the new one.
    const status = await client.status(mailbox, { uidValidity: true });
    if (!status || status.uidValidity !== box.uidValidity)
      throw new Error("the mailbox was replaced; opening it again");
    marks.forMailbox(box.uidValidity);
    await marks.mark(client, []);
    const saved = await cursorOf(services, key);
    if (saved?.uidValidity === box.uidValidity) return saved;
    if (saved) {
      const was = `${saved.uidValidity}`;
      services.log("warn", "imap_uidvalidity_changed", { mailbox: key, was, now: `${box.uidValidity}` });
    }
    return { uidValidity: box.uidValidity, lastUid: 0n, tries: 0, attemptUid: null };
  }

  /** The messages past the cursor in UID order, each once, with their sizes: one UID FETCH. */
  async #waiting(client: ImapFlow, cursor: ImapCursor): Promise<Waiting[]> {
    const found = await client.fetchAll({ uid: `${cursor.lastUid + 1n}:*` }, { uid: true, size: true }, { uid: true });
    const waiting = new Map<number, Waiting>();
    for (const { uid, size } of found) {
      // "n:*" names the last message even when its UID is below n (RFC 9051 6.4.9); and the answer may carry
      // a FETCH the server sent of its own accord (another client's flags), with or without a UID.
      if (typeof uid !== "number" || BigInt(uid) <= cursor.lastUid) continue;
      if (!waiting.has(uid) || size !== undefined) waiting.set(uid, { uid, size: size ?? null });
    }
    return [...waiting.values()].sort((a, b) => a.uid - b.uid);
  }

  /**
   * Files a batch. The attempt is counted once its messages are read, just
   * before filing them, so that a crash while filing is known at the next.
   */
  async #attempt(
    client: ImapFlow,
    cursor: ImapCursor,
    batch: number[],
    { arrivals, unreadable, tooLarge, refused }: ReadBatch,
    lease: Lease,
  ): Promise<ImapCursor> {
    const { services, key, marks } = this.parts;
    const first = BigInt(batch[0] ?? 0);
    await saveCursor(services, key, { ...cursor, tries: cursor.tries + 1, attemptUid: first }, lease);
    const through = { uidValidity: cursor.uidValidity, lastUid: BigInt(batch.at(-1) ?? 0), tries: 0, attemptUid: null };
    this.#report(batch, [...refused, ...(await fileBatch(services, key, through, arrivals, lease))]);
    for (const uid of tooLarge) this.#setAside(uid, "too_large");
    for (const { uid, reason } of unreadable) this.#setAside(uid, "unreadable", reason);
    const done = new Set([...arrivals, ...refused].map(({ uid }) => Number(uid)));
    await marks.mark(client, [...done]);
    return through;
  }

  /** Starts reading a batch; a failure is met where the read is awaited, or dropped with the read when the drain ends first. */
  #readAhead(client: ImapFlow, batch: Waiting[]): ReadAhead {
    const read = this.parts.reader.read(client, batch);
    read.catch(() => {});
    return { batch, read };
  }

  /** Moves past a message whose attempts all failed: flagged first, then passed over, so that the ones after it are filed. */
  async #passOver(client: ImapFlow, cursor: ImapCursor, batch: number[], lease: Lease): Promise<ImapCursor> {
    const { services, key, marks } = this.parts;
    const uid = batch[0] ?? 0;
    marks.setAside(uid);
    await marks.mark(client, []);
    const passed = { uidValidity: cursor.uidValidity, lastUid: BigInt(uid), tries: 0, attemptUid: null };
    await saveCursor(services, key, passed, lease);
    this.#setAside(uid, "failed", `${cursor.tries} attempts at filing it failed`, { marked: true });
    return passed;
  }

  /** Logged, counted, and flagged on the server with the next marks (unless it already is). */
  #setAside(uid: number, reason: SetAsideReason, error?: string, { marked = false } = {}): void {
    const { services, key, marks } = this.parts;
    services.log("warn", "inbound_set_aside", { mailbox: key, uid, reason, error });
    services.metrics.inbound(reason);
    if (!marked) marks.setAside(uid);
  }

  #report(batch: number[], filed: Filed[]): void {
    const { services, key } = this.parts;
    const counts: Record<string, number> = {};
    for (const { uid, recipient, outcome } of filed) {
      counts[outcome] = (counts[outcome] ?? 0) + 1;
      services.metrics.inbound(outcome);
      if (dropped(outcome)) {
        services.log("warn", "inbound_dropped", { reason: outcome, uid: `${uid}`, recipient });
      }
    }
    const range = { firstUid: batch[0], lastUid: batch.at(-1), messages: batch.length };
    services.log("info", "imap_batch", { mailbox: key, ...range, ...counts });
  }
}
