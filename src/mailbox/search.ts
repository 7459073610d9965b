import { isIndexed, type RankedSearch, type SearchTerms, searchWords } from "../db/search.ts";
import type { Param, Sql } from "../db/sql.ts";
import { ServiceError } from "../errors.ts";
import { folderName } from "./folders.ts";

// Which of an agent's received mail a list shows: a folder, a full-text
// search, and filters on sender, recipient, time, read flag, attachments and
// sender authentication.
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
}

/** The rows a filter selects: what to join, the condition, and the order by relevance when it searches. */
export interface MailSelection {
  join: string;
  where: string;
  params: Param[];
  relevance: { order: string; params: Param[] } | null;
  /** The page read from the search index alone, when the database can and nothing but the search narrows. */
  ranked: RankedSearch | null;
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

/** LIKE text for a literal piece, with its wildcards escaped. */
export const likeLiteral = (text: string) => text.toLowerCase().replace(/[\\%_]/g, (c) => `\\${c}`);

/** The condition on the sender: one address, or `@domain` for any address there. */
export function senderCondition(from: string): { where: string; params: Param[] } {
  filterText(from, "from");
  if (from.startsWith("@"))
    return { where: `LOWER("fromAddress") LIKE ? ESCAPE '\\'`, params: [`%${likeLiteral(from)}`] };
  return { where: `LOWER("fromAddress") = ?`, params: [from.toLowerCase()] };
}

export function mailSelection(sql: Sql, agentId: string, filter: MailFilter): MailSelection {
  const conditions = [`"Email"."agentId" = ?`];
  const params: Param[] = [agentId];
  const add = (where: string, ...values: Param[]) => {
    conditions.push(where);
    params.push(...values);
  };
  if (filter.folder != null) add(`"folder" = ?`, folderName(filter.folder));
  if (filter.from != null) {
    const sender = senderCondition(filter.from);
    add(sender.where, ...sender.params);
  }
  if (filter.to != null) {
    const quoted = `%${likeLiteral(JSON.stringify(filterText(filter.to, "to").toLowerCase()))}%`;
    add(`(LOWER("toList") LIKE ? ESCAPE '\\' OR LOWER("ccList") LIKE ? ESCAPE '\\')`, quoted, quoted);
  }
  if (filter.after != null) add(`"receivedAt" > ?`, sql.at(new Date(filter.after)));
  if (filter.before != null) add(`"receivedAt" < ?`, sql.at(new Date(filter.before)));
  if (filter.isRead != null) add(`"isRead" = ?`, filter.isRead);
  if (filter.hasAttachments != null) {
    const exists = `EXISTS (SELECT 1 FROM "Attachment" a WHERE a."emailId" = "Email"."id")`;
    add(filter.hasAttachments ? exists : `NOT ${exists}`);
  }
  if (filter.authenticated != null) add(filter.authenticated ? `"authVerdict" = 'pass'` : `"authVerdict" <> 'pass'`);
  const terms = filter.search == null ? undefined : parseSearch(filter.search);
  if (terms === null) add("1 = 0");
  if (!terms || terms.words.length + terms.phrases.length + terms.excluded.length === 0) {
    return { join: "", where: conditions.join(" AND "), params, relevance: null, ranked: null };
  }
  const searchAlone = conditions.length === 1;
  const clause = sql.search(terms, agentId);
  add(clause.where, ...clause.params);
  return {
    join: clause.join,
    where: conditions.join(" AND "),
    params,
    relevance: clause.relevance === null ? null : { order: clause.relevance, params: clause.relevanceParams },
    ranked: searchAlone ? clause.ranked : null,
  };
}
