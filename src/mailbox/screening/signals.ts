// The signals screening names, the places it finds them, and how a signal
// quotes what it found: the closed set every door shows (GraphQL makes an
// enum of SIGNAL_NAMES), and the rule that turns signals into a verdict.

export const SIGNAL_NAMES = [
  "ai_instruction",
  "role_marker",
  "tool_call",
  "reveal_secrets",
  "forward_mail",
  "hidden_text",
  "bidi_override",
  "zero_width",
  "misleading_link",
  "encoded_blob",
] as const;
export type SignalName = (typeof SIGNAL_NAMES)[number];

export const SIGNAL_PLACES = ["from_name", "subject", "text", "html", "attachment_name", "attachment"] as const;
export type SignalPlace = (typeof SIGNAL_PLACES)[number];

export interface Signal {
  name: SignalName;
  where: SignalPlace;
  /** At most EXCERPT_LENGTH characters around what was found, invisible characters written as `[U+200B]`. */
  excerpt: string;
}

export type Verdict = "clear" | "suspicious";

export interface Screening {
  verdict: Verdict;
  signals: Signal[];
}

/**
 * Signals ordinary mail carries too: newsletters send links through click
 * trackers, signatures pick up zero-width characters, messages carry encoded
 * data. One of them alone leaves a message clear; two kinds together do not.
 */
const WEAK: ReadonlySet<SignalName> = new Set(["zero_width", "misleading_link", "encoded_blob"]);

/** Suspicious with any signal but the weak ones, or with weak signals of two kinds. */
export function verdictOf(signals: Signal[]): Verdict {
  const weak = new Set(signals.filter((signal) => WEAK.has(signal.name)).map((signal) => signal.name));
  return signals.some((signal) => !WEAK.has(signal.name)) || weak.size >= 2 ? "suspicious" : "clear";
}

export const EXCERPT_LENGTH = 80;
/** Characters shown before what was found. */
const EXCERPT_LEAD = 24;
const INVISIBLE = /[\u200B-\u200F\u202A-\u202E\u2060-\u2069\uFEFF\u00AD]/g;

/** What a signal quotes: a bounded window around `at`, invisible characters made visible, whitespace collapsed. */
export function excerptOf(source: string, at: number): string {
  const start = Math.max(0, at - EXCERPT_LEAD);
  const window = source
    .slice(start, start + EXCERPT_LENGTH * 2)
    .replace(INVISIBLE, (char) => `[U+${char.charCodeAt(0).toString(16).toUpperCase().padStart(4, "0")}]`)
    .replace(/[\s\p{Cc}]+/gu, " ")
    .trim();
  return Array.from(window).slice(0, EXCERPT_LENGTH).join("").trimEnd();
}
