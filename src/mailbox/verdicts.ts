import type { SpamAction } from "./inspection.ts";
import type { EmailRecord } from "./records.ts";
import { fence, newNonce, type Screening, type Signal } from "./screening/index.ts";

// The verdicts an email keeps from its filing (src/mailbox/filing.ts), as
// every door shows them, and its text for reading inside a fence. Each is
// read from the email's own row: no query beyond it.

/** Rspamd's verdict as shown: null when no scanner ran. `isSpam`: the verdict calls it spam (junk unless allowed or released). */
export interface ShownSpam {
  status: "scanned" | "unscanned";
  action: SpamAction | null;
  score: number | null;
  requiredScore: number | null;
  symbols: string[];
  isSpam: boolean;
}

/** clamd's verdict as shown (infected only when a person released it from quarantine): null when no scanner ran. */
export interface ShownMalware {
  status: "clean" | "unscanned" | "infected";
}

export function spamOf(email: EmailRecord): ShownSpam | null {
  if (email.spamStatus === null) return null;
  return {
    status: email.spamStatus as ShownSpam["status"],
    action: email.spamAction as SpamAction | null,
    score: email.spamScore,
    requiredScore: email.spamRequired,
    symbols: email.spamSymbols as string[],
    isSpam: email.spam,
  };
}

export function malwareOf(email: EmailRecord): ShownMalware | null {
  return email.malwareStatus === null ? null : { status: email.malwareStatus as ShownMalware["status"] };
}

export function screeningOf(email: EmailRecord): Screening {
  return {
    verdict: email.screening as Screening["verdict"],
    signals: email.screeningSignals as unknown as Signal[],
  };
}

/**
 * The email's text for reading inside a fence the text cannot close (see
 * screening/fence.ts), labelled with its sender, whether it authenticated
 * and its screening; a new nonce every time, so every answer has its own.
 */
export function fencedTextOf(email: EmailRecord): string {
  const label = { from: email.fromAddress, authenticated: email.authVerdict === "pass", screening: screeningOf(email) };
  return fence(email.text ?? "", label, newNonce());
}

/**
 * The text of mail the agent wrote (sent, or a draft), in the same fence, labelled as its own: a forward quotes
 * its original whole. Its plain text, else its HTML as written.
 */
export function fencedOwnTextOf(mail: { bodyText: string | null; bodyHtml: string | null }): string {
  return fence(mail.bodyText ?? mail.bodyHtml ?? "", { author: "you" }, newNonce());
}
