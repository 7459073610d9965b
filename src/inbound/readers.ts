import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import { headerSection, type MessageHead, type ParsedMessage } from "./parse.ts";
import type { ReadAnswer, ReadRequest } from "./parse-worker.ts";

// Raw messages are parsed, and their reading help worked out, on threads of
// their own: the work grows with what a stranger sent, and on the thread
// that answers requests a single message could hold every request up. A
// download of an attachment parses its stored message there too, and a
// message's header section is read there for its head.
//
// A batch's messages go to the readers all at once, each thread working on
// several side by side, as the poller did on its own thread. A thread whose
// message takes too long is stopped. That message is read once more without
// its reading help, and refused if even that takes too long; the others the
// thread held are read again alone, on a thread kept for that, so that only
// the one at fault loses anything.

/** Threads reading at once: the cores but one, which files the mail and answers requests; at most four. */
const READERS = Math.min(4, Math.max(1, availableParallelism() - 1));
/** How long one reading may take; a 25 MB message is read in about a second. */
const READ_TIMEOUT_MS = 15_000;
/** How long a thread may take to start: its messages' reading time runs from when it is ready. */
const START_TIMEOUT_MS = 60_000;
/** A reader's heap: a message at INBOUND_MAX_BYTES takes a few times its size to parse. */
const READER_HEAP_MB = 768;

/** Why a message could not be read: its parser's complaint, or that reading it took too long even alone. */
export class Unreadable extends Error {}
/** The reading was stopped: `own` when this message took too long, else another held by the same thread did. */
class CutShort extends Unreadable {
  constructor(
    message: string,
    readonly own: boolean,
  ) {
    super(message);
  }
}

export interface Readers {
  /** The message with its reading help; without it when that takes too long; Unreadable when neither can be had. */
  read(raw: Buffer): Promise<ParsedMessage>;
  /** Each of its attachments' bytes, in the positions filing recorded; Unreadable when that takes too long. */
  attachments(raw: Buffer): Promise<Buffer[]>;
  /**
   * What its header section alone says (readHead): only the section goes to the thread. Null when the section
   * cannot be read alone, or its reading was cut short: reading the whole message then says what it is.
   */
  head(raw: Buffer): Promise<MessageHead | null>;
  close(): Promise<void>;
}

export interface ReaderOptions {
  timeoutMs?: number;
  /** The thread to read on; the tests start others. */
  startWorker?: () => Worker;
}

/** The worker's module: beside this one, as TypeScript when running from source (registering tsx inside the thread). */
function startParseWorker(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB } };
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./parse-worker.js", import.meta.url), options);
  const entry = JSON.stringify(new URL("./parse-worker.ts", import.meta.url).href);
  const source = `import("tsx/esm/api").then(({ register }) => { register(); return import(${entry}); });`;
  return new Worker(source, { ...options, eval: true });
}

/** A thread's answer to what it was asked, without its id. */
type Found = { message: ParsedMessage } | { attachments: Uint8Array[] } | { head: MessageHead | null };

interface Pending {
  resolve(found: Found): void;
  reject(error: Error): void;
  /** Armed once the thread is ready: a slow start is no message's fault. */
  timer?: NodeJS.Timeout;
}

/** One thread and the messages it holds; stopped with all of them when one outlasts the timeout. */
class Reader {
  #worker: Worker | null = null;
  /** The thread said it is ready: a failure from then on is a message's, not the reader's. */
  #ready = false;
  #closed = false;
  #pending = new Map<number, Pending>();
  #next = 0;

  constructor(private readonly options: Required<ReaderOptions>) {}

  get load(): number {
    return this.#pending.size;
  }

  async read(raw: Buffer, derive: boolean): Promise<ParsedMessage> {
    const found = await this.#ask({ id: this.#next++, raw, derive });
    if (!("message" in found)) throw new Error("a reader answered a reading with something else");
    return found.message;
  }

  async attachments(raw: Buffer): Promise<Buffer[]> {
    const found = await this.#ask({ id: this.#next++, raw, attachments: true });
    if (!("attachments" in found)) throw new Error("a reader answered a download with something else");
    return found.attachments.map((bytes) => Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength));
  }

  async head(section: Buffer): Promise<MessageHead | null> {
    const found = await this.#ask({ id: this.#next++, raw: section, head: true });
    if (!("head" in found)) throw new Error("a reader answered a head with something else");
    return found.head;
  }

  #ask(request: ReadRequest): Promise<Found> {
    if (this.#closed) return Promise.reject(new Error("the readers are closed"));
    const worker = this.started();
    return new Promise((resolve, reject) => {
      const pending: Pending = { resolve, reject };
      this.#pending.set(request.id, pending);
      if (this.#ready) this.#arm(request.id, pending);
      worker.postMessage(request);
    });
  }

  /** Starts the message's reading time. */
  #arm(id: number, pending: Pending): void {
    const { timeoutMs } = this.options;
    pending.timer = setTimeout(() => this.#stop(`reading took over ${timeoutMs / 1000} s`, id), timeoutMs);
  }

  /** The thread, started now if it is not running: the first message then does not wait for it. */
  started(): Worker {
    if (this.#worker) return this.#worker;
    const worker = this.options.startWorker();
    // Idle, it holds nothing up.
    worker.unref();
    const ours = () => this.#worker === worker;
    const late = setTimeout(
      () => ours() && !this.#ready && this.#stop(`it did not start within ${START_TIMEOUT_MS / 1000} s`),
      START_TIMEOUT_MS,
    );
    late.unref();
    worker.on("message", (answer: ReadAnswer | "ready") => {
      if (answer !== "ready") return this.#settle(answer);
      this.#ready = true;
      clearTimeout(late);
      for (const [id, pending] of this.#pending) this.#arm(id, pending);
    });
    worker.on("error", (error) => ours() && this.#stop(`its reader failed: ${error.message}`));
    worker.on("exit", () => ours() && this.#stop("its reader stopped"));
    this.#worker = worker;
    this.#ready = false;
    return worker;
  }

  #settle(answer: ReadAnswer): void {
    const pending = this.#pending.get(answer.id);
    if (!pending) return;
    this.#pending.delete(answer.id);
    clearTimeout(pending.timer);
    if ("error" in answer) pending.reject(new Unreadable(answer.error));
    else pending.resolve(answer);
  }

  /**
   * Stops the thread; every message it held is cut short, `culprit` by its
   * own doing. A thread that failed before it was ready is a fault of the
   * service, not of any message. The next read starts another.
   */
  #stop(reason: string, culprit?: number): void {
    const worker = this.#worker;
    const broken = !this.#ready;
    this.#worker = null;
    void worker?.terminate();
    for (const [id, pending] of this.#pending) {
      clearTimeout(pending.timer);
      pending.reject(
        broken ? new Error(`the reader thread did not start: ${reason}`) : new CutShort(reason, id === culprit),
      );
    }
    this.#pending.clear();
  }

  async close(): Promise<void> {
    this.#closed = true;
    const worker = this.#worker;
    this.#stop("the readers are closing");
    await worker?.terminate();
  }
}

export function startReaders(options: ReaderOptions = {}): Readers {
  const settings = { timeoutMs: READ_TIMEOUT_MS, startWorker: startParseWorker, ...options };
  const readers = Array.from({ length: READERS }, () => new Reader(settings));
  for (const reader of readers) reader.started();
  // Messages cut short are read again here one at a time, so that only the one at fault is cut short again.
  const alone = new Reader(settings);
  let turn: Promise<unknown> = Promise.resolve();
  const inTurn = <T>(work: (reader: Reader) => Promise<T>): Promise<T> => {
    const done = turn.then(() => work(alone));
    turn = done.catch(() => {});
    return done;
  };
  const readAlone = (raw: Buffer, derive: boolean) => inTurn((reader) => reader.read(raw, derive));
  const leastLoaded = () => readers.reduce((a, b) => (b.load < a.load ? b : a));
  /** Read alone: with its help unless its own reading took too long; without it if this one does too. */
  const again = async (raw: Buffer, cut: CutShort) => {
    if (cut.own) return readAlone(raw, false);
    try {
      return await readAlone(raw, true);
    } catch (error) {
      if (error instanceof CutShort) return readAlone(raw, false);
      throw error;
    }
  };
  return {
    async read(raw) {
      try {
        return await leastLoaded().read(raw, true);
      } catch (error) {
        if (error instanceof CutShort) return again(raw, error);
        throw error;
      }
    },
    async attachments(raw) {
      try {
        return await leastLoaded().attachments(raw);
      } catch (error) {
        // Cut short by another message the thread held: read alone.
        if (error instanceof CutShort && !error.own) return inTurn((reader) => reader.attachments(raw));
        throw error;
      }
    },
    async head(raw) {
      const section = headerSection(raw);
      if (!section) return null;
      try {
        return await leastLoaded().head(section);
      } catch (error) {
        if (error instanceof Unreadable) return null;
        throw error;
      }
    },
    async close() {
      await Promise.all([...readers, alone].map((reader) => reader.close()));
    },
  };
}

/** Readers whose threads start with the first message: an instance that reads none keeps none. */
export function lazyReaders(): Readers {
  let readers: Readers | null = null;
  return {
    read(raw) {
      readers ??= startReaders();
      return readers.read(raw);
    },
    attachments(raw) {
      readers ??= startReaders();
      return readers.attachments(raw);
    },
    head(raw) {
      readers ??= startReaders();
      return readers.head(raw);
    },
    async close() {
      await readers?.close();
    },
  };
}
