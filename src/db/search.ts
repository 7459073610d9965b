import type { Param } from "./sql.ts";

// Full-text search over received mail as each database does it: SQLite's
// FTS5 index "EmailSearch" (by the email's rowid, with the agent as a word)
// and PostgreSQL's tsvector column "search" beside the agent's id. Terms arrive as plain letters and digits, in lower case
// and without accents, so nothing in them can be query syntax.

export interface SearchTerms {
  /** Each must match, as a prefix. */
  words: string[];
  /** Each must match, word after word. */
  phrases: string[][];
  /** None may match: a word, or words after one another. */
  excluded: string[][];
}

/** What a search adds to a query of "Email": a join, a condition, and an order by relevance (best first). */
export interface SearchClause {
  join: string;
  where: string;
  params: Param[];
  /** An ORDER BY term, best first; null when nothing is matched, only excluded. */
  relevance: string | null;
  relevanceParams: Param[];
  /** A page of best matches found in the index alone, where the database can and the search is all that narrows. */
  ranked: RankedSearch | null;
}

/** The page's rows and their count read from the index alone, joined to "Email" for the page's rows only. */
export interface RankedSearch {
  /** Selects the columns, best first; its parameters are params, then LIMIT and OFFSET. */
  page(columns: string): string;
  count: string;
  params: Param[];
}

const quoted = (words: string[]) => `"${words.join(" ")}"`;

/** The agent's own word in the index: its id in hex, which no search term can reach (terms match other columns). */
const agentWord = (agentId: string) => `a${Buffer.from(agentId).toString("hex")}`;

/** Subject first, then sender, then text; bm25 is lower for better matches. Ties: the latest filed first. */
const SCORE = `bm25("EmailSearch", 10.0, 5.0, 1.0, 0.0)`;

/**
 * SQLite's index holds every agent's mail with the agent as a word of its
 * own, so a search reads only that agent's entries, however much mail the
 * others hold.
 */
export function sqliteSearch({ words, phrases, excluded }: SearchTerms, agentId: string): SearchClause {
  const wanted = [...words.map((word) => `${quoted([word])}*`), ...phrases.map(quoted)];
  const inText = (terms: string[], joiner: string) => `{subject sender body} : (${terms.join(joiner)})`;
  let match = `{agent} : ${agentWord(agentId)}`;
  if (wanted.length > 0) match = `(${match} AND ${inText(wanted, " AND ")})`;
  if (excluded.length > 0) match = `${match} NOT ${inText(excluded.map(quoted), " OR ")}`;
  const found = `SELECT "rowid" AS "hit", ${SCORE} AS "score" FROM "EmailSearch" WHERE "EmailSearch" MATCH ?`;
  return {
    join: `JOIN "EmailSearch" ON "EmailSearch"."rowid" = "Email"."rowid"`,
    where: `"EmailSearch" MATCH ?`,
    params: [match],
    relevance: wanted.length === 0 ? null : `${SCORE}, "Email"."rowid" DESC`,
    relevanceParams: [],
    ranked:
      wanted.length === 0
        ? null
        : {
            page: (columns) =>
              `SELECT ${columns} FROM (${found} ORDER BY "score", "rowid" DESC LIMIT ? OFFSET ?) AS "found"
                JOIN "Email" ON "Email"."rowid" = "found"."hit" ORDER BY "found"."score", "found"."hit" DESC`,
            count: `SELECT COUNT(*) AS "n" FROM "EmailSearch" WHERE "EmailSearch" MATCH ?`,
            params: [match],
          },
  };
}

export function postgresSearch({ words, phrases, excluded }: SearchTerms): SearchClause {
  const phrase = (parts: string[]) => `(${parts.join(" <-> ")})`;
  const wanted = [...words.map((word) => `${word}:*`), ...phrases.map(phrase)];
  const query = [...wanted, ...excluded.map((parts) => `!${phrase(parts)}`)].join(" & ");
  return {
    join: "",
    where: `"Email"."search" @@ to_tsquery('simple', ?)`,
    params: [query],
    // Ranked by what is wanted only: an excluded word in the query skews ts_rank.
    relevance: wanted.length === 0 ? null : `-ts_rank("Email"."search", to_tsquery('simple', ?))`,
    relevanceParams: wanted.length === 0 ? [] : [wanted.join(" & ")],
    ranked: null,
  };
}
