import type { MailSelector } from "../db/emails.ts";
import { isIndexed, type SearchTerms, searchWords } from "../db/search.ts";
import { ServiceError } from "../errors.ts";
import { labelSelector } from "./labels.ts";

// Which of an agent's received mail a list shows: a folder, a full-text
// search, and filters on sender, recipient, time, read flag, attachments and
// sender authentication, the spam verdict, and labels.
// A search is plain words (all must match, each as a prefix), "exact
// phrases", and -excluded words; any other character is text, never syntax.

export interface MailFilter {
  folder?: string | null;
  search?: string | null;
  /** An address, or `@domain` for any sender there. */
  from?: string | null;
  /** An address in To or Cc. */
  to?: string | null;
  /** Received after / before these times (ms). */
  after?: number | null;
  before?: number | null;
  isRead?: boolean | null;
  hasAttachments?: boolean | null;
  /** The sender's domain vouched for it (verdict pass), or not. */
  authenticated?: boolean | null;
  /** Sent by a machine (true: auto-replies, auto-generated mail, lists) or by a person (false). */
  autoSubmitted?: boolean | null;
  /** Only mail the spam verdict calls spam (true), or none of it (false). */
  spam?: boolean | null;
  /** Labels that must all be on it, and -label for one that must not. */
  label?: readonly string[] | null;
}

const MAX_QUERY = 500;
/** An address is at most 64 characters, an @ and 255 of domain. */
const MAX_ADDRESS = 320;

/** A subject line is at most 998 characters. */
const MAX_SUBJECT = 998;

/**
 * A filter's text, no longer than what it filters can be: a longer one
 * matches nothing, and makes a LIKE pattern SQLite refuses.
 */
export function filterText(value: string, name: "from" | "to" | "subject"): string {
  const max = name === "subject" ? MAX_SUBJECT : MAX_ADDRESS;
  if ([...value].length > max) throw new ServiceError("BAD_REQUEST", `${name} must be at most ${max} characters`);
  return value;
}

/**
 * The terms of a query; null when it wants a word longer than any the index
 * holds, which no mail can match (and the database would refuse to look up).
 * Excluding such a word excludes nothing.
 */
export function parseSearch(query: string): SearchTerms | null {
  if ([...query].length > MAX_QUERY) throw new ServiceError("BAD_REQUEST", `q must be at most ${MAX_QUERY} characters`);
  const terms: SearchTerms = { words: [], phrases: [], excluded: [] };
  for (const [, minus, phrase, word] of query.matchAll(/(-?)(?:"([^"]*)"?|([^\s"]+))/g)) {
    const parts = searchWords(phrase ?? word ?? "");
    if (parts.length === 0) continue;
    if (!parts.every(isIndexed)) {
      if (minus) continue;
      return null;
    }
    if (minus) terms.excluded.push(parts);
    else if (phrase !== undefined && parts.length > 1) terms.phrases.push(parts);
    else terms.words.push(...parts);
  }
  return terms;
}

/** The selector a filter makes but its folder, checked: the search as its terms, the addresses bounded. */
export function selectorOf(filter: MailFilter): Omit<MailSelector, "folder"> {
  return {
    search: filter.search == null ? undefined : parseSearch(filter.search),
    from: filter.from == null ? null : filterText(filter.from, "from"),
    to: filter.to == null ? null : filterText(filter.to, "to"),
    after: filter.after == null ? null : new Date(filter.after),
    before: filter.before == null ? null : new Date(filter.before),
    isRead: filter.isRead,
    hasAttachments: filter.hasAttachments,
    authenticated: filter.authenticated,
    autoSubmitted: filter.autoSubmitted,
    spam: filter.spam,
    labels: labelSelector(filter.label),
  };
}
