import { type Database, takeoverFor, wakeupsFor } from "./db/client.ts";
import { lazyReaders, type Readers } from "./inbound/readers.ts";
import type { InboundState } from "./inbound/state.ts";
import { createRequestLimits } from "./mailbox/request-limits.ts";
import type { Services } from "./mailbox/services.ts";
import type { OutboundState } from "./outbound/smtp.ts";
import { oembedLookup } from "./social/oembed.ts";

// Where the domain's services are put together: by the service, and by the
// CLI, which sends and polls nothing.

/** The domain's services, and how this instance's poller and sends are doing: what health and the operator see. */
export interface Instance extends Services {
  /** What this instance's IMAP poller last saw; null when IMAP_URL is not set. */
  inbound: InboundState | null;
  /** How this instance's last sends went; null when SMTP_URL is not set. */
  outbound: OutboundState | null;
  /** The reader threads, started by the first message read; closed when the instance stops. */
  reader: Readers;
}

/** The domain's services over an open database: the service's, or the CLI's (which sends and polls nothing). */
export function servicesFor(
  database: Database,
  parts: Pick<Instance, "config" | "clock" | "log" | "mailer" | "inbound" | "outbound" | "metrics">,
): Instance {
  const { log } = parts;
  return {
    ...parts,
    prisma: database.prisma,
    sql: database.sql,
    posts: oembedLookup(parts.config.socialOembedUrl),
    reader: lazyReaders(),
    limits: createRequestLimits(parts.config, database),
    wakeups: wakeupsFor(database, (error) => log("warn", "events_listener_lost", { error: error.message })),
    takeover: takeoverFor(database),
  };
}
