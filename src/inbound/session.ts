import { ImapFlow } from "imapflow";
import type { ImapConfig } from "../config.ts";
import type { Logger } from "../log.ts";

// One connection to the catch-all, and the poller's wait on it: IDLE until
// new mail, the timer, a close, or a wake from outside.

/** imapflow's own warnings and errors, on our log; its chatter and protocol traces stay off. */
function imapLogger(log: Logger) {
  const forward = (level: "warn" | "error") => (entry: { msg?: string; err?: Error }) =>
    log(level, "imap_client", { message: entry.msg, error: entry.err?.message });
  return { debug: () => {}, info: () => {}, warn: forward("warn"), error: forward("error") };
}

export class Session {
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
    this.client.on("error", (error: Error) => log("warn", "imap_error", { error: error.message }));
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
