import { asSubject } from "./outgoing.ts";

// Subject prefixes of replies and forwards, in the common languages and
// clients: a reply's Re:, Aw:, Sv:, Antw:, Vs:, Odp: (with a count like
// Re[2]: or not), a forward's Fwd:, Fw:, WG:, TR:, RV:.

const REPLY = "re|aw|sv|antw|vs|odp";
const FORWARD = "fwd?|wg|tr|rv";
const stacked = (words: string) => new RegExp(`^\\s*(?:(?:${words})\\s*(?:\\[\\d+\\])?\\s*:\\s*)+`, "i");

const REPLY_PREFIXES = stacked(REPLY);
const ANY_PREFIXES = stacked(`${REPLY}|${FORWARD}`);
const FORWARD_PREFIX = new RegExp(`^\\s*(?:${FORWARD})\\s*:`, "i");

/** The subject without any reply or forward prefixes: what a thread is named. */
export function baseSubject(subject: string | null): string {
  return (subject ?? "").replace(ANY_PREFIXES, "").trim();
}

/** Re: and the subject, without the reply prefixes it had. */
export function replySubject(subject: string | null): string {
  return asSubject(`Re: ${(subject ?? "").replace(REPLY_PREFIXES, "")}`);
}

/** Fwd: and the subject, unless it is a forward's already. */
export function forwardSubject(subject: string | null): string {
  const original = (subject ?? "").trim();
  return asSubject(FORWARD_PREFIX.test(original) ? original : `Fwd: ${original}`);
}
