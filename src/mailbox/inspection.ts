import type { Screening } from "./screening/index.ts";

// What becomes of a received message by what inspection found: Rspamd's
// spam verdict, clamd's malware verdict (each only when the operator runs
// the scanner) and the built-in prompt-injection screening. Inbound scans
// (src/inbound/inspect.ts); this decides, the same way on every path.
//
// - Malware: never filed. The SMTP door refuses it (554); a message already
//   accepted (the catch-all, /inbound/raw) goes to quarantine.
// - Rspamd's reject: refused at the door (550), quarantined elsewhere.
// - Rspamd's soft reject and greylist: the door asks the sender to try again
//   (451); accepted elsewhere, they are filed in junk.
// - add header, rewrite subject: filed in junk, unless an allow entry names
//   the sender (an allow never passes malware or a reject).
// - Screening: suspicious mail is filed and marked, or quarantined when the
//   agent's screening policy says so.
// - A scanner that did not answer: filed as unscanned (the door answers 451
//   instead when the operator requires that scanner: RSPAMD_REQUIRED,
//   CLAMAV_REQUIRED).
// - Released from quarantine by a person: filed in the inbox, its verdicts
//   kept as they were (released spam is still called spam).

export const SPAM_ACTIONS = [
  "no action",
  "greylist",
  "add header",
  "rewrite subject",
  "soft reject",
  "reject",
] as const;
export type SpamAction = (typeof SPAM_ACTIONS)[number];

export type SpamVerdict =
  | { status: "scanned"; action: SpamAction; score: number; requiredScore: number; symbols: string[] }
  | { status: "unscanned"; reason: string };

export type MalwareVerdict =
  | { status: "clean" }
  | { status: "infected"; signature: string }
  | { status: "unscanned"; reason: string };

/** The scanners' verdicts on a message; null where the operator runs no such scanner. */
export interface Scans {
  spam: SpamVerdict | null;
  malware: MalwareVerdict | null;
}

export const NOT_SCANNED: Scans = { spam: null, malware: null };

export const SCREENING_POLICIES = ["screen", "quarantine"] as const;
export type ScreeningPolicy = (typeof SCREENING_POLICIES)[number];

export const QUARANTINE_REASONS = ["malware", "spam", "injection"] as const;
export type QuarantineReason = (typeof QUARANTINE_REASONS)[number];

export type Placement = { folder: "inbox" | "junk"; spam: boolean } | { quarantine: QuarantineReason; detail: string };

/** Whether Rspamd's verdict calls the message spam: every action but no action. */
export const callsSpam = (spam: SpamVerdict | null): boolean =>
  spam?.status === "scanned" && spam.action !== "no action";

/** Where the message goes for one agent. `allowed`: an allow entry names its sender. */
export function placementOf(
  scans: Scans,
  screening: Screening,
  agent: { allowed: boolean; policy: ScreeningPolicy },
): Placement {
  const { spam, malware } = scans;
  if (malware?.status === "infected") return { quarantine: "malware", detail: malware.signature };
  if (spam?.status === "scanned" && spam.action === "reject") {
    return { quarantine: "spam", detail: `Rspamd: reject, score ${spam.score} of ${spam.requiredScore}` };
  }
  if (screening.verdict === "suspicious" && agent.policy === "quarantine") {
    return { quarantine: "injection", detail: [...new Set(screening.signals.map((s) => s.name))].join(", ") };
  }
  const spammy = callsSpam(spam);
  return { folder: spammy && !agent.allowed ? "junk" : "inbox", spam: spammy };
}

/** Where a message a person let out of quarantine goes: the inbox, its spam verdict kept as the scanner gave it. */
export const releasedPlacement = (scans: Scans): Placement => ({ folder: "inbox", spam: callsSpam(scans.spam) });
