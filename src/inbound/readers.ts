import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { ParsedMessage } from "./parse.ts";
import type { ReadAnswer, ReadRequest } from "./parse-worker.ts";

// Raw messages are parsed, and their reading help worked out, on threads of
// their own: the work grows with what a stranger sent, and on the thread
// that answers requests a single message could hold every request up.
//
// A batch's messages go to the readers all at once, each thread working on
// several side by side, as the poller did on its own thread. A thread whose
// message takes too long is stopped, and every message it held is read
// again alone on a thread kept for that: the one that took too long is read
// once more without its reading help, and is refused if even that fails.

/** Threads reading at once: the cores but one, which files the mail and answers requests; at most four. */
const READERS = Math.min(4, Math.max(1, availableParallelism() - 1));
/** How long one reading may take; a 25 MB message is read in about a second. */
const READ_TIMEOUT_MS = 15_000;
/** A reader's heap: a message at INBOUND_MAX_BYTES takes a few times its size to parse. */
const READER_HEAP_MB = 768;

/** Why a message could not be read: its parser's complaint, or that reading it was cut short. */
export class Unreadable extends Error {}
/** Reading took too long, or more memory than a reader has, or the reader stopped with it. */
class CutShort extends Unreadable {}

export interface Readers {
  /** The message with its reading help; without it when that takes too long; Unreadable when neither can be had. */
  read(raw: Buffer): Promise<ParsedMessage>;
  close(): Promise<void>;
}

/** The worker's module: beside this one, as TypeScript when running from source (registering tsx inside the thread). */
function startWorker(): Worker {
  const options = { resourceLimits: { maxOldGenerationSizeMb: READER_HEAP_MB } };
  if (!import.meta.url.endsWith(".ts")) return new Worker(new URL("./parse-worker.js", import.meta.url), options);
  const entry = JSON.stringify(new URL("./parse-worker.ts", import.meta.url).href);
  const source = `import("tsx/esm/api").then(({ register }) => { register(); return import(${entry}); });`;
  return new Worker(source, { ...options, eval: true });
}

interface Pending {
  resolve(message: ParsedMessage): void;
  reject(error: Unreadable): void;
  timer: NodeJS.Timeout;
}

/** One thread and the messages it holds; stopped with all of them when one outlasts the timeout. */
class Reader {
  #worker: Worker | null = null;
  #pending = new Map<number, Pending>();
  #next = 0;

  get load(): number {
    return this.#pending.size;
  }

  /** Starts the thread now, so that the first message does not wait for it. */
  warm(): void {
    this.#started();
  }

  read(raw: Buffer, derive: boolean): Promise<ParsedMessage> {
    const worker = this.#started();
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => this.#stop(`reading took over ${READ_TIMEOUT_MS / 1000} s`), READ_TIMEOUT_MS);
      this.#pending.set(id, { resolve, reject, timer });
      worker.postMessage({ id, raw, derive } satisfies ReadRequest);
    });
  }

  #started(): Worker {
    if (this.#worker) return this.#worker;
    const worker = startWorker();
    // Idle, it holds nothing up.
    worker.unref();
    const ours = () => this.#worker === worker;
    worker.on("message", (answer: ReadAnswer) => this.#settle(answer));
    worker.on("error", (error) => ours() && this.#stop(`its reader failed: ${error.message}`));
    worker.on("exit", () => ours() && this.#stop("its reader stopped"));
    this.#worker = worker;
    return worker;
  }

  #settle(answer: ReadAnswer): void {
    const pending = this.#pending.get(answer.id);
    if (!pending) return;
    this.#pending.delete(answer.id);
    clearTimeout(pending.timer);
    if ("message" in answer) pending.resolve(answer.message);
    else pending.reject(new Unreadable(answer.error));
  }

  /** Stops the thread; every message it held is cut short. The next read starts another. */
  #stop(reason: string): void {
    const worker = this.#worker;
    this.#worker = null;
    void worker?.terminate();
    for (const pending of this.#pending.values()) {
      clearTimeout(pending.timer);
      pending.reject(new CutShort(reason));
    }
    this.#pending.clear();
  }

  async close(): Promise<void> {
    const worker = this.#worker;
    this.#worker = null;
    await worker?.terminate();
  }
}

export function startReaders(): Readers {
  const readers = Array.from({ length: READERS }, () => new Reader());
  for (const reader of readers) reader.warm();
  // Messages cut short are read again here one at a time, so that only the one at fault is cut short again.
  const alone = new Reader();
  let turn: Promise<unknown> = Promise.resolve();
  const readAlone = (raw: Buffer, derive: boolean) => {
    const read = turn.then(() => alone.read(raw, derive));
    turn = read.catch(() => {});
    return read;
  };
  return {
    async read(raw) {
      const least = readers.reduce((a, b) => (b.load < a.load ? b : a));
      try {
        return await least.read(raw, true);
      } catch (error) {
        if (!(error instanceof CutShort)) throw error;
      }
      try {
        return await readAlone(raw, true);
      } catch (error) {
        if (!(error instanceof CutShort)) throw error;
        return readAlone(raw, false);
      }
    },
    async close() {
      await Promise.all([...readers, alone].map((reader) => reader.close()));
    },
  };
}
