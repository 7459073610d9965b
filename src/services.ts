import { type Database, wakeupsFor } from "./db/client.ts";
import { createRequestLimits } from "./mailbox/request-limits.ts";
import type { Services } from "./mailbox/services.ts";
import { oembedLookup } from "./social/oembed.ts";

// Where the domain's services are put together: by the service, and by the
// CLI, which sends and polls nothing.

/** The domain's services over an open database: the service's, or the CLI's (which sends and polls nothing). */
export function servicesFor(
  database: Database,
  parts: Pick<Services, "config" | "clock" | "log" | "mailer" | "inbound" | "outbound" | "metrics">,
): Services {
  const { log } = parts;
  return {
    ...parts,
    prisma: database.prisma,
    sql: database.sql,
    posts: oembedLookup(parts.config.socialOembedUrl),
    limits: createRequestLimits(parts.config, database),
    wakeups: wakeupsFor(database, (error) => log("warn", "events_listener_lost", { error: error.message })),
  };
}
