import { availableParallelism } from "node:os";
import { Worker } from "node:worker_threads";
import type { ParsedMessage } from "./parse.ts";
import type { ReadAnswer } from "./parse-worker.ts";

// Raw messages are parsed, and their reading help worked out, on threads of
// their own: the work grows with what a stranger sent, and on the thread
// that answers requests a single message could hold every request up. A
// reader that takes too long is stopped and a new one started. A message
// whose reading help takes too long is read again without it; one that
// cannot be read even so is refused.

/** Threads reading at once: the cores but one, which files the mail and answers requests; at most four. */
const READERS = Math.min(4, Math.max(1, availableParallelism() - 1));
/** How long one reading may take; a 25 MB message is read in about a second. */
const READ_TIMEOUT_MS = 15_000;
/** A reader's heap: a message at INBOUND_MAX_BYTES takes a few times its size to parse. */
const READER_HEAP_MB = 768;

/** Why a message could not be read: its parser's complaint, or that reading it was cut short. */
export class Unreadable extends Error {}
/** Reading took too long, or more memory than a reader has. */
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

/** One thread, one message at a time; stopped when a message outlasts the timeout, started again at the next. */
class Reader {
  #worker: Worker | null = null;

  read(raw: Buffer, derive: boolean): Promise<ParsedMessage> {
    const worker = this.#started();
    return new Promise((resolve, reject) => {
      const finish = (outcome: () => void) => {
        clearTimeout(timer);
        worker.off("message", answered).off("error", failed).off("exit", exited);
        outcome();
      };
      const stop = (reason: string) => {
        void worker.terminate();
        finish(() => reject(new CutShort(reason)));
      };
      const answered = (answer: ReadAnswer) =>
        finish(() => ("message" in answer ? resolve(answer.message) : reject(new Unreadable(answer.error))));
      const failed = (error: Error) => stop(`its reader failed: ${error.message}`);
      const exited = () => stop("its reader stopped");
      const timer = setTimeout(() => stop(`reading it took over ${READ_TIMEOUT_MS / 1000} s`), READ_TIMEOUT_MS);
      worker.on("message", answered).on("error", failed).on("exit", exited);
      worker.postMessage({ raw, derive });
    });
  }

  #started(): Worker {
    if (this.#worker) return this.#worker;
    const worker = startWorker();
    // Idle, it holds nothing up; whenever it ends, the next message starts another.
    worker.unref();
    worker.on("exit", () => {
      if (this.#worker === worker) this.#worker = null;
    });
    this.#worker = worker;
    return worker;
  }

  async close(): Promise<void> {
    await this.#worker?.terminate();
  }
}

export function startReaders(): Readers {
  const idle = Array.from({ length: READERS }, () => new Reader());
  const waiting: ((reader: Reader) => void)[] = [];
  const take = () =>
    new Promise<Reader>((resolve) => (idle.length > 0 ? resolve(idle.pop() as Reader) : waiting.push(resolve)));
  const give = (reader: Reader) => (waiting.length > 0 ? waiting.shift()?.(reader) : idle.push(reader));
  const all = [...idle];
  const readOnce = async (raw: Buffer, derive: boolean) => {
    const reader = await take();
    try {
      return await reader.read(raw, derive);
    } finally {
      give(reader);
    }
  };
  return {
    async read(raw) {
      try {
        return await readOnce(raw, true);
      } catch (error) {
        // A parser's complaint is final; a reading cut short is tried once more, without its reading help.
        if (error instanceof CutShort) return readOnce(raw, false);
        throw error;
      }
    },
    async close() {
      await Promise.all(all.map((reader) => reader.close()));
    },
  };
}
