import type { Param } from "./sql.ts";

// Full-text search over received mail as each database does it: SQLite's
// FTS5 index "EmailSearch" (by the email's rowid) and PostgreSQL's tsvector
// column "search". Terms arrive as plain letters and digits, in lower case
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
}

const quoted = (words: string[]) => `"${words.join(" ")}"`;

export function sqliteSearch({ words, phrases, excluded }: SearchTerms): SearchClause {
  const wanted = [...words.map((word) => `${quoted([word])}*`), ...phrases.map(quoted)];
  const unwanted = excluded.map(quoted);
  if (wanted.length === 0) {
    return {
      join: "",
      where: `"Email"."rowid" NOT IN (SELECT "rowid" FROM "EmailSearch" WHERE "EmailSearch" MATCH ?)`,
      params: [unwanted.join(" OR ")],
      relevance: null,
      relevanceParams: [],
    };
  }
  return {
    join: `JOIN "EmailSearch" ON "EmailSearch"."rowid" = "Email"."rowid"`,
    where: `"EmailSearch" MATCH ?`,
    params: [[wanted.join(" AND "), ...unwanted].join(" NOT ")],
    // Subject first, then sender, then text; bm25 is lower for better matches.
    relevance: `bm25("EmailSearch", 10.0, 5.0, 1.0)`,
    relevanceParams: [],
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
  };
}
