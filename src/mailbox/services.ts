import type { Clock } from "../clock.ts";
import type { Config } from "../config.ts";
import type { Db } from "../db/client.ts";
import type { Sql } from "../db/sql.ts";
import type { Wakeups } from "../db/wakeups.ts";
import type { Logger } from "../log.ts";
import type { Mailer } from "../outbound/smtp.ts";
import type { PostLookup } from "../social/posts.ts";

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
}
