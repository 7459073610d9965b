import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Sql } from "../db/sql.ts";
import type { Takeover } from "../db/takeover.ts";
import type { Wakeups } from "../db/wakeups.ts";
import type { Logger } from "../log.ts";
import type { Metrics } from "../metrics.ts";
import type { Mailer } from "../outbound/delivery.ts";
import type { PostLookup } from "../social/posts.ts";
import type { IncomingMessage } from "./filing.ts";
import type { RequestLimits } from "./request-limits.ts";

/** Reads a message as inbound mail is read (on the inbound side's reader threads): mail between agents here is filed so. */
export interface MailReader {
  read(raw: Buffer): Promise<IncomingMessage>;
  /** Each attachment's bytes, in the positions filing recorded (attachmentContents, mime.ts). */
  attachments(raw: Buffer): Promise<Buffer[]>;
  /** Whom its header section alone says it is from; null when that cannot be read alone. */
  head(raw: Buffer): Promise<Pick<IncomingMessage, "from"> | null>;
}

/** What every domain function may use; one set per running service. */
export interface Services {
  config: Config;
  prisma: Db;
  sql: Sql;
  clock: Clock;
  posts: PostLookup;
  /** null when SMTP_URL is not set. */
  mailer: Mailer | null;
  reader: MailReader;
  /** Who waits on an agent's events hears of them here. */
  wakeups: Wakeups;
  /** How a lease whose holder died is known to be free (see db/takeover.ts). */
  takeover: Takeover;
  log: Logger;
  metrics: Metrics;
  limits: RequestLimits;
}
