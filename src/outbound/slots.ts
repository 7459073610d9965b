import { NotDelivered } from "./delivery.ts";

/** At most n holders at a time, served in order; a waiter gives up when its signal aborts. */
export class Slots {
  #free: number;
  #waiting: (() => void)[] = [];

  constructor(size: number) {
    this.#free = size;
  }

  take(signal: AbortSignal): Promise<void> {
    if (this.#free > 0) {
      this.#free--;
      return Promise.resolve();
    }
    return new Promise((resolve, reject) => {
      const granted = () => {
        signal.removeEventListener("abort", gaveUp);
        resolve();
      };
      const gaveUp = () => {
        this.#waiting = this.#waiting.filter((waiter) => waiter !== granted);
        reject(new NotDelivered("every connection to the provider stayed busy until the deadline"));
      };
      signal.addEventListener("abort", gaveUp, { once: true });
      this.#waiting.push(granted);
    });
  }

  give(): void {
    const next = this.#waiting.shift();
    if (next) next();
    else this.#free++;
  }
}
