import type { Scans } from "../mailbox/inspection.ts";
import type { Services } from "../mailbox/services.ts";
import { scanMalware } from "./scanners/clamav.ts";
import { checkSpam, type SpamEnvelope } from "./scanners/rspamd.ts";

// Every inbound message, by every path, put to the scanners the operator
// runs (RSPAMD_URL, CLAMAV_URL) before it is filed, both at once, with the
// real envelope. A scanner that does not answer in time leaves the message
// unscanned: said in a log line and a metric, never an error; what it
// becomes is mailbox/inspection.ts's to decide.

/** How long a scanner has for one message, connecting included. */
export const SCAN_TIMEOUT_MS = 15_000;

export type Scanner = (raw: Buffer, envelope: SpamEnvelope) => Promise<Scans>;

export function scannerOf({ config, log, metrics }: Pick<Services, "config" | "log" | "metrics">): Scanner {
  const { rspamdUrl, clamavUrl } = config;
  const options = { timeoutMs: SCAN_TIMEOUT_MS };
  return async (raw, envelope) => {
    const [spam, malware] = await Promise.all([
      rspamdUrl ? checkSpam(rspamdUrl, raw, envelope, options) : null,
      clamavUrl ? scanMalware(clamavUrl, raw, options) : null,
    ]);
    for (const [scanner, verdict] of [
      ["rspamd", spam],
      ["clamav", malware],
    ] as const) {
      if (!verdict) continue;
      metrics.scan(scanner, verdict.status);
      if (verdict.status === "unscanned") log("warn", "inbound_unscanned", { scanner, reason: verdict.reason });
    }
    return { spam, malware };
  };
}
