import type { ImapFlow } from "imapflow";
import { servedDomains } from "../mailbox/domains.ts";
import type { Arrival, Filed } from "../mailbox/filing.ts";
import { type Heading, refusedBeforeReading } from "../mailbox/intake.ts";
import type { Services } from "../mailbox/services.ts";
import { authenticator, tracedClient } from "./authentication.ts";
import { type Scanner, scannerOf } from "./inspect.ts";
import { type ParsedMessage, recipientsOf } from "./parse.ts";
import { startReaders, Unreadable } from "./readers.ts";

// A batch as it comes off the server: each message downloaded (unless it is
// too large); its header section read for its From and recipients, and the
// recipients whose sender lists refuse it set apart (one read of the lists
// for the whole batch); then, for those left,
// read on a reader thread, authenticated and scanned, side by side. A message
// every recipient refuses is never parsed, screened or scanned.

/** What a batch came to: the messages to file in UID order, and those that cannot be. */
export interface ReadBatch {
  arrivals: Arrival[];
  /** Not readable as mail, with why. */
  unreadable: { uid: number; reason: string }[];
  /** Over INBOUND_MAX_BYTES: not downloaded. */
  tooLarge: number[];
  /** Recipients whose sender lists refused a message before it was read (sender_refused), by UID. */
  refused: Filed[];
}

/** A message past the cursor: its UID, and its size as the server gives it (RFC822.SIZE), if it does. */
export interface Waiting {
  uid: number;
  size: number | null;
}

/** One message of the batch: refused before reading for some or all of its recipients, and filed for the others. */
interface Read {
  arrival: Arrival | null;
  refused: Filed[];
}

/** A message whose header section cannot be read alone: no recipient is asked about before it is read. */
const NO_HEADING: Heading = { from: "", recipients: [] };

export class BatchReader {
  readonly #readers = startReaders();
  readonly #authenticate: ReturnType<typeof authenticator>;
  readonly #scan: Scanner;

  /** `catchAll`: the catch-all's own address, which a Delivered-To may name. */
  constructor(
    private readonly services: Services,
    private readonly catchAll: string,
  ) {
    this.#authenticate = authenticator(services.config, services.log);
    this.#scan = scannerOf(services);
  }

  async read(client: ImapFlow, batch: Waiting[]): Promise<ReadBatch> {
    const { sources, tooLarge } = await this.#download(client, batch);
    const domains = new Set(await servedDomains(this.services));
    const headings = await Promise.all(sources.map(({ source }) => this.#heading(source, domains)));
    const refusing = await refusedBeforeReading(this.services, headings);
    const read = await Promise.all(
      sources.map(({ uid, source }, n) =>
        this.#arrival(uid, source, domains, headings[n]?.recipients ?? [], refusing[n] ?? []),
      ),
    );
    const unreadable = read.flatMap((result, index) =>
      result instanceof Unreadable ? [{ uid: sources[index]?.uid ?? 0, reason: result.message }] : [],
    );
    const readable = read.filter((result): result is Read => !(result instanceof Unreadable));
    const arrivals = readable.flatMap(({ arrival }) => (arrival ? [arrival] : []));
    return { arrivals, unreadable, tooLarge, refused: readable.flatMap(({ refused }) => refused) };
  }

  close(): Promise<void> {
    return this.#readers.close();
  }

  /**
   * The batch's sources in UID order, but those over INBOUND_MAX_BYTES: not downloaded when the server's
   * size says so, else set aside once downloaded (a size the server did not give, or gave wrong).
   */
  async #download(client: ImapFlow, batch: Waiting[]) {
    const limit = this.services.config.inboundMaxBytes;
    const tooLarge = batch.filter(({ size }) => size !== null && size > limit).map(({ uid }) => uid);
    const wanted = new Set(batch.filter(({ uid }) => !tooLarge.includes(uid)).map(({ uid }) => uid));
    const fetched =
      wanted.size === 0 ? [] : await client.fetchAll([...wanted], { uid: true, source: true }, { uid: true });
    const sources: { uid: number; source: Buffer }[] = [];
    for (const { uid, source } of fetched) {
      // A FETCH the server sent of its own accord, or one message twice, is not the batch's.
      if (!source || !wanted.delete(uid)) continue;
      if (source.length > limit) tooLarge.push(uid);
      else sources.push({ uid, source });
    }
    // Listed at the start of the pass, then removed from the mailbox by someone else: there is nothing to file.
    for (const uid of wanted) this.services.log("warn", "imap_message_gone", { uid });
    return { sources: sources.sort((a, b) => a.uid - b.uid), tooLarge };
  }

  /** What the header section alone says: its From, and its recipients here; none when it cannot be read alone. */
  async #heading(raw: Buffer, domains: ReadonlySet<string>): Promise<Heading> {
    const head = await this.#readers.head(raw);
    return head ? { from: head.from.address, recipients: recipientsOf(head, domains, this.catchAll) } : NO_HEADING;
  }

  /**
   * One message, refused before reading for `refusing` of the recipients its header section names (`addressed`):
   * unless that is all of them, the message as it is filed for the others, or why it cannot be read.
   * Authentication waits on DNS, so each reads apart.
   */
  async #arrival(
    uid: number,
    raw: Buffer,
    domains: ReadonlySet<string>,
    addressed: string[],
    refusing: string[],
  ): Promise<Read | Unreadable> {
    const refused = refusing.map((recipient) => ({ uid: BigInt(uid), recipient, outcome: "sender_refused" as const }));
    if (refusing.length > 0 && refusing.length === addressed.length) return { arrival: null, refused };
    const arrival = await this.#read(uid, raw, domains, refusing);
    return arrival instanceof Unreadable ? arrival : { arrival, refused };
  }

  /** The message as it is filed for its recipients but those `refused`, or why it cannot be read. */
  async #read(
    uid: number,
    raw: Buffer,
    domains: ReadonlySet<string>,
    refused: string[],
  ): Promise<Arrival | Unreadable> {
    const { log, metrics } = this.services;
    let message: ParsedMessage;
    try {
      message = await this.#readers.read(raw);
    } catch (error) {
      if (error instanceof Unreadable) return error;
      throw error;
    }
    const recipients = recipientsOf(message, domains, this.catchAll).filter((address) => !refused.includes(address));
    if (recipients.length === 0) {
      log("warn", "inbound_dropped", { reason: "no_recipient", uid });
      metrics.inbound("no_recipient");
    }
    const client = tracedClient(raw, this.services.config.trustedMxHosts);
    // The catch-all's server recorded the envelope on top: Return-Path, and X-Original-To and its kin.
    const envelope = { from: message.returnPath, to: message.envelopeTo.map((address) => address.toLowerCase()) };
    const [authentication, scans] = await Promise.all([
      this.#authenticate(raw, message.from.address, client, false),
      this.#scan(raw, {
        clientAddress: client?.ip ?? null,
        helo: client?.helo ?? null,
        mailFrom: envelope.from,
        recipients,
      }),
    ]);
    return { uid: BigInt(uid), raw, message, recipients, authentication, scans, envelope };
  }
}
