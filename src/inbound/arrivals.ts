import type { ImapFlow } from "imapflow";
import { servedDomains } from "../mailbox/domains.ts";
import type { Arrival } from "../mailbox/filing.ts";
import type { Services } from "../mailbox/services.ts";
import { authenticator, tracedClient } from "./authentication.ts";
import { type Scanner, scannerOf } from "./inspect.ts";
import { type ParsedMessage, recipientsOf } from "./parse.ts";
import { startReaders, Unreadable } from "./readers.ts";

// A batch as it comes off the server: each message downloaded (unless it is
// too large), read on a reader thread, then authenticated and scanned, side by side.

/** What a batch came to: the messages to file in UID order, and those that cannot be. */
export interface ReadBatch {
  arrivals: Arrival[];
  /** Not readable as mail, with why. */
  unreadable: { uid: number; reason: string }[];
  /** Over INBOUND_MAX_BYTES: not downloaded. */
  tooLarge: number[];
}

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

  async read(client: ImapFlow, batch: number[]): Promise<ReadBatch> {
    const { sources, tooLarge } = await this.#download(client, batch);
    const domains = new Set(await servedDomains(this.services));
    const read = await Promise.all(sources.map(({ uid, source }) => this.#arrival(uid, source, domains)));
    const unreadable = read.flatMap((result, index) =>
      result instanceof Unreadable ? [{ uid: sources[index]?.uid ?? 0, reason: result.message }] : [],
    );
    const arrivals = read.filter((result): result is Arrival => !(result instanceof Unreadable));
    return { arrivals, unreadable, tooLarge };
  }

  close(): Promise<void> {
    return this.#readers.close();
  }

  /** The batch's sources in UID order, but those over INBOUND_MAX_BYTES, which are not downloaded. */
  async #download(client: ImapFlow, batch: number[]) {
    const sizes = await client.fetchAll(batch, { uid: true, size: true }, { uid: true });
    const limit = this.services.config.inboundMaxBytes;
    const tooLarge = sizes.filter((m) => (m.size ?? 0) > limit).map((m) => m.uid);
    const wanted = sizes.filter((m) => !tooLarge.includes(m.uid)).map((m) => m.uid);
    const fetched =
      wanted.length === 0 ? [] : await client.fetchAll(wanted, { uid: true, source: true }, { uid: true });
    const sources = fetched.flatMap(({ uid, source }) => (source ? [{ uid, source }] : []));
    return { sources: sources.sort((a, b) => a.uid - b.uid), tooLarge };
  }

  /** One message as it is filed, or why it cannot be read. Authentication waits on DNS, so each reads apart. */
  async #arrival(uid: number, raw: Buffer, domains: ReadonlySet<string>): Promise<Arrival | Unreadable> {
    const { log, metrics } = this.services;
    let message: ParsedMessage;
    try {
      message = await this.#readers.read(raw);
    } catch (error) {
      if (error instanceof Unreadable) return error;
      throw error;
    }
    const recipients = recipientsOf(message, domains, this.catchAll);
    if (recipients.length === 0) {
      log("warn", "inbound_dropped", { reason: "no_recipient", uid });
      metrics.inbound("no_recipient");
    }
    const client = tracedClient(raw, this.services.config.trustedMxHosts);
    // The catch-all's server recorded the envelope on top: Return-Path, and X-Original-To and its kin.
    const envelope = { from: message.returnPath, to: message.envelopeTo.map((address) => address.toLowerCase()) };
    const [authentication, scans] = await Promise.all([
      this.#authenticate(raw, message.from.address, client),
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
