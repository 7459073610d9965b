import {
  type DeliveryKey,
  deliveryKey,
  insertEmails,
  rememberDeliveries,
  rememberDelivery,
  type StoredEmail,
} from "../db/filing.ts";
import { giveStorageBack, takeStorage } from "../db/quota.ts";
import type { Tx } from "../db/statements.ts";
import { claimAll, claimKey, insertThreads, threadsOfIds } from "../db/threads.ts";
import type { Arrival } from "./filing.ts";
import { type Addressee, addresseeAt, addresseesAt } from "./return-path.ts";
import { type ListHolder, senderStandings } from "./senders.ts";
import type { Services } from "./services.ts";
import { joinThread, type Started, settleThread, startedThread, type Threading, threadIdsOf } from "./threads.ts";

// One filing transaction's messages, filed in order with the outcome each
// would have filed alone, in fewer statements (on PostgreSQL each is a round
// trip): what is the same for every message of the batch (an address's
// agent, an agent's sender lists) is read once, the records of delivery are
// written in one statement at the start, and the new threads and the emails
// are written together at the end. A message that depends on one before it
// in the batch (the same message again for the same agent, or a Message-ID
// the other has or names) is filed once what came before it is written.

/** A message for one of its recipients, as the batch files it. */
export interface Item {
  arrival: Arrival;
  address: string;
  /** Let out of quarantine: remembered when it first came. */
  released: boolean;
}

type Standing = { filed: boolean; allowed: boolean };

export class FilingBatch {
  /** Each recipient's addressee, read when the batch opens. */
  #addressees = new Map<string, Addressee | null>();
  /** Deliveries the first statement remembered, and those asked for since. */
  #remembered = new Set<string>();
  readonly #asked = new Set<string>();
  /** By agent: the senders of its messages, then how its lists stand on them (read when the batch opens). */
  readonly #senders = new Map<string, string[]>();
  #standings = new Map<string, Map<string, Standing>>();
  /** By agent: the Message-IDs of its messages, those its threads held when first read, and those threaded here. */
  readonly #ids = new Map<string, string[]>();
  readonly #known = new Map<string, Promise<Map<string, string>>>();
  readonly #threaded = new Map<string, Set<string>>();
  /** By agent: the bytes of its messages in the batch, then those taken from its storage for them and not yet used. */
  readonly #bytes = new Map<string, number>();
  readonly #reserved = new Map<string, number>();
  /** Written at the next flush: threads started, emails stored. */
  #started: { started: Started; message: Threading }[] = [];
  #emails: StoredEmail[] = [];

  private constructor(
    private readonly tx: Tx,
    private readonly services: Services,
  ) {}

  /** Reads every recipient's agent at once and remembers the batch's deliveries, in its order, each once. */
  static async open(tx: Tx, services: Services, items: Item[]): Promise<FilingBatch> {
    const batch = new FilingBatch(tx, services);
    batch.#addressees = await addresseesAt(tx, services, [...new Set(items.map(({ address }) => address))]);
    const keys = new Map<string, DeliveryKey>();
    for (const { arrival, address, released } of items) {
      const agentId = (await batch.addressee(address))?.agent.id;
      if (agentId === undefined) continue;
      const { message } = arrival;
      append(batch.#senders, agentId, [message.from.address]);
      append(batch.#ids, agentId, threadIdsOf(message).ids);
      batch.#bytes.set(agentId, (batch.#bytes.get(agentId) ?? 0) + arrival.raw.length);
      const key = { agentId, dedupeKey: message.dedupeKey };
      if (!released && !keys.has(deliveryKey(key))) keys.set(deliveryKey(key), key);
    }
    batch.#remembered = await rememberDeliveries(tx, [...keys.values()]);
    await batch.#readStandings();
    return batch;
  }

  /** How every agent's lists stand on the senders of its messages, in one read for the batch. */
  async #readStandings(): Promise<void> {
    const agents = new Map(
      [...this.#addressees.values()].flatMap((found) => (found ? [[found.agent.id, found.agent]] : [])),
    );
    const asked = [...this.#senders].flatMap(([agentId, senders]) => {
      const agent = agents.get(agentId);
      return agent ? [{ agent, senders: [...new Set(senders)] }] : [];
    });
    this.#standings = await senderStandings(this.tx, this.services, asked);
  }

  /** The addressee at an address: the batch's, read when it opened. */
  async addressee(address: string): Promise<Addressee | null> {
    const found = this.#addressees.get(address);
    return found === undefined ? addresseeAt(this.tx, this.services, address) : found;
  }

  /** As rememberDelivery: its first time in the batch from the first statement, after that asked again. */
  async remember(agentId: string, dedupeKey: string): Promise<boolean> {
    const key = deliveryKey({ agentId, dedupeKey });
    if (this.#asked.has(key)) return rememberDelivery(this.tx, agentId, dedupeKey);
    this.#asked.add(key);
    return this.#remembered.has(key);
  }

  /** As senderStanding: read when the batch opened, for every agent and sender of its messages. */
  async standing(agent: ListHolder, sender: string): Promise<Standing> {
    const standing = this.#standings.get(agent.id)?.get(sender);
    if (standing) return standing;
    const read = await senderStandings(this.tx, this.services, [{ agent, senders: [sender] }]);
    return read.get(agent.id)?.get(sender) as Standing;
  }

  /**
   * As takeStorage. The agent's first take asks for the bytes of all its
   * messages in the batch, in the one conditional statement: when they fit,
   * each take alone would have, and later ones use them; what is not used is
   * given back at the end. When they do not, each message takes its own.
   */
  async takeStorage(agentId: string, bytes: number, limit: number): Promise<boolean> {
    let reserved = this.#reserved.get(agentId);
    if (reserved === undefined) {
      const all = this.#bytes.get(agentId) ?? bytes;
      reserved = all > bytes && (await takeStorage(this.tx, agentId, all, limit)) ? all : 0;
      this.#reserved.set(agentId, reserved);
    }
    if (reserved < bytes) return takeStorage(this.tx, agentId, bytes, limit);
    this.#reserved.set(agentId, reserved - bytes);
    return true;
  }

  /**
   * As joinThread: a thread the message starts is written at the next flush;
   * one whose ids are known, or met before in the batch, is joined at once,
   * after what came before it is written.
   */
  async thread(message: Threading): Promise<string> {
    const { agentId } = message;
    const { ids } = threadIdsOf(message);
    const threaded = this.#threaded.get(agentId) ?? new Set<string>();
    this.#threaded.set(agentId, threaded);
    const started = ids.some((id) => threaded.has(id)) ? null : startedThread(message, await this.#knownTo(agentId));
    for (const id of ids) threaded.add(id);
    if (started) {
      this.#started.push({ started, message });
      return started.thread.id;
    }
    await this.flush();
    // Joining may merge threads: what was read of the agent's is read again when next asked.
    this.#known.delete(agentId);
    return joinThread(this.tx, message);
  }

  /** Stores the email at the next flush. */
  store(email: StoredEmail): void {
    this.#emails.push(email);
  }

  /**
   * Writes the threads started and the emails stored, a statement for many
   * of each; then a started thread whose ids a concurrent writer claimed
   * meanwhile is settled as joinThread settles it, its email moving with it.
   */
  async flush(): Promise<void> {
    const { tx, services } = this;
    const started = this.#started;
    const emails = this.#emails;
    this.#started = [];
    this.#emails = [];
    await insertThreads(
      tx,
      started.map(({ started }) => started.thread),
    );
    const claims = started.flatMap(({ started: { thread, ids } }) =>
      ids.map((messageId) => ({ agentId: thread.agentId, messageId, threadId: thread.id })),
    );
    const claimed = await claimAll(tx, claims);
    await insertEmails(services.sql, tx, emails);
    for (const { started: one, message } of started) {
      const { agentId, id: threadId } = one.thread;
      const own = new Set(one.ids.filter((messageId) => claimed.has(claimKey({ agentId, messageId }))));
      if (own.size === one.ids.length) continue;
      await settleThread(tx, message, { threadId, started: true, known: new Map(), claimed: own });
      this.#known.delete(agentId);
    }
  }

  /** Writes what is left to write, and gives back the storage taken and not used. */
  async finish(): Promise<void> {
    await this.flush();
    for (const [agentId, reserved] of this.#reserved) {
      if (reserved > 0) await giveStorageBack(this.tx, agentId, reserved);
    }
    this.#reserved.clear();
  }

  /** The agent's Message-IDs of the batch its threads hold, read once until a thread of its merges. */
  #knownTo(agentId: string): Promise<Map<string, string>> {
    let known = this.#known.get(agentId);
    if (!known) {
      known = threadsOfIds(this.tx, agentId, [...new Set(this.#ids.get(agentId) ?? [])]);
      this.#known.set(agentId, known);
    }
    return known;
  }
}

function append(map: Map<string, string[]>, key: string, values: string[]): void {
  const list = map.get(key) ?? [];
  list.push(...values);
  map.set(key, list);
}
