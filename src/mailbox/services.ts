import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Sql } from "../db/sql.ts";
import type { Wakeups } from "../db/wakeups.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics.ts";
import type { Mailer } from "../outbound/smtp.ts";
import type { PostLookup } from "../social/posts.ts";
import type { RequestLimits } from "./request-limits.ts";

/** What every domain function may use; one set per running service. */
export interface Services {
  config: Config;
  prisma: Db;
  sql: Sql;
  clock: Clock;
  posts: PostLookup;
  /** null when SMTP_URL is not set. */
  mailer: Mailer | null;
  /** Who waits on an agent's events hears of them here. */
  wakeups: Wakeups;
  log: Logger;
  /** What this instance's IMAP poller last saw; null when IMAP_URL is not set. */
  inbound: InboundState | null;
  /** How this instance's last sends went; null when SMTP_URL is not set. */
  outbound: OutboundState | null;
  metrics: Metrics;
  limits: RequestLimits;
}

/** The provider as this instance's sends found it. */
export interface OutboundState {
  lastSuccessAt: Date | null;
  lastErrorAt: Date | null;
  lastError: string | null;
}

/** The poller's own account of itself, kept up to date as it works. */
export interface InboundState {
  /** This instance holds the catch-all's lease (one instance polls at a time). */
  polling: boolean;
  connected: boolean;
  /** When the mailbox was last read to the end. */
  lastPollAt: Date | null;
  /** Messages on the server not yet filed, as of the last look. */
  lag: number | null;
  lastError: string | null;
}
