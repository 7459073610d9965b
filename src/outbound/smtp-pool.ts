import SMTPConnection from "nodemailer/lib/smtp-connection";
import type { SmtpConfig } from "../config.ts";
import { NotDelivered } from "./delivery.ts";

// Connections to the provider: opened (and logged in) on demand, kept a
// while between messages, closed after a hundred or when idle.

const MAX_MESSAGES_PER_CONNECTION = 100;
/** An unused connection is closed after this long, before the provider drops it. */
const IDLE_MS = 30_000;
/** RFC 5321 4.5.3.2.6: a client waits up to 10 minutes for the reply to the final dot. */
export const FINAL_REPLY_MS = 10 * 60_000;

export interface Connection {
  smtp: SMTPConnection;
  messages: number;
  idleTimer?: NodeJS.Timeout;
}

export class ConnectionPool {
  readonly #idle = new Set<Connection>();
  readonly #open = new Set<SMTPConnection>();

  constructor(
    private readonly config: SmtpConfig,
    private readonly deadlineMs: number,
  ) {}

  /** A connection that served a message and waits for the next, when there is one. */
  takeIdle(): Connection | null {
    const [connection] = this.#idle;
    if (!connection) return null;
    this.#idle.delete(connection);
    clearTimeout(connection.idleTimer);
    return connection;
  }

  /** A new session, logged in; NotDelivered when none is ready before the signal aborts. */
  connect(signal: AbortSignal): Promise<Connection> {
    const { config, deadlineMs } = this;
    const smtp = new SMTPConnection({
      host: config.host,
      port: config.port,
      secure: config.secure,
      connectionTimeout: deadlineMs,
      greetingTimeout: deadlineMs,
      socketTimeout: FINAL_REPLY_MS,
    });
    this.#open.add(smtp);
    const connection: Connection = { smtp, messages: 0 };
    smtp.once("end", () => {
      this.#open.delete(smtp);
      this.#idle.delete(connection);
      clearTimeout(connection.idleTimer);
    });
    // Errors also reach the callback of whatever was asked; this keeps them from being unhandled.
    smtp.on("error", () => {});
    return new Promise((resolve, reject) => {
      const settled = () => {
        signal.removeEventListener("abort", onDeadline);
        smtp.off("error", fail);
      };
      const fail = (error: unknown) => {
        settled();
        smtp.close();
        reject(new NotDelivered(`the provider could not be reached: ${(error as Error).message}`, true));
      };
      const onDeadline = () => fail(new Error("no session before the deadline"));
      const ready = () => {
        settled();
        resolve(connection);
      };
      signal.addEventListener("abort", onDeadline, { once: true });
      // A refused connection, or one that fails before the greeting, is an error event: connect's callback never hears of it.
      smtp.once("error", fail);
      smtp.connect((error) => {
        if (error) return fail(error);
        if (!config.user) return ready();
        smtp.login({ user: config.user, pass: config.password }, (loginError) =>
          loginError ? fail(loginError) : ready(),
        );
      });
    });
  }

  /** A connection whose message the provider took: kept for the next, unless it has served enough. */
  reuse(connection: Connection): void {
    if (connection.smtp.destroyed || connection.messages >= MAX_MESSAGES_PER_CONNECTION) {
      connection.smtp.quit();
      return;
    }
    connection.idleTimer = setTimeout(() => {
      this.#idle.delete(connection);
      connection.smtp.quit();
    }, IDLE_MS);
    this.#idle.add(connection);
  }

  close(): void {
    for (const smtp of this.#open) smtp.close();
  }
}
