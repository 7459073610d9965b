import { createHash } from "node:crypto";
import type { Param, Row, Statements } from "./sql.ts";

// Full-text search over received mail as each database does it: SQLite's
// FTS5 index "EmailSearch" (by the email's rowid, every word written with its
// agent's tag in front) and PostgreSQL's tsvector column "search" beside the
// agent's id. Terms arrive as searchWords makes them, so nothing in them can
// be query syntax.

export interface SearchTerms {
  /** Each must match, as a prefix. */
  words: string[];
  /** Each must match, word after word. */
  phrases: string[][];
  /** None may match: a word, or words after one another. */
  excluded: string[][];
}

export interface Query {
  text: string;
  params: Param[];
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
  /** The page's rows with these columns, best first. */
  page(columns: string, limit: number, offset: number): Query;
  count: Query;
}

/** Words as the index holds them and a query asks for them: letters and digits in lower case without accents (é matches e). */
export function searchWords(text: string): string[] {
  return (
    text
      .normalize("NFKD")
      .replace(/\p{M}/gu, "")
      .toLowerCase()
      .match(/[\p{L}\p{N}]+/gu) ?? []
  );
}

/**
 * The agent's tag on its words in SQLite's index: 16 hex digits of its id's
 * SHA-256, a fixed length so that the index's prefix sizes fall on the word's
 * first letters. Agents sharing a tag would share counts, never mail: a
 * search's rows are joined to "Email" by the agent too.
 */
export const searchTag = (agentId: string) => createHash("sha256").update(agentId).digest("hex").slice(0, 16);

/** The columns of an email's entry in SQLite's index: each word tagged, words apart by a space. */
export function sqliteSearchEntry(email: Row): [subject: string, sender: string, body: string] {
  const tag = searchTag(email.agentId as string);
  const tagged = (text: string) =>
    searchWords(text)
      .map((word) => tag + word)
      .join(" ");
  const sender = `${email.fromName ?? ""} ${email.fromAddress}`;
  return [tagged((email.subject as string | null) ?? ""), tagged(sender), tagged((email.text as string | null) ?? "")];
}

const ENTRY = `INSERT INTO "EmailSearch" ("rowid", "subject", "sender", "body") SELECT "rowid", ?, ?, ? FROM "Email" WHERE "id" = ?`;

/** Adds a just filed email to SQLite's index, in the transaction that files it. Its searched columns never change. */
export async function indexSqliteEmail(tx: Statements, email: Row): Promise<void> {
  await tx.run(ENTRY, [...sqliteSearchEntry(email), email.id as string]);
}

const BATCH = 200;
const SEARCHED = `SELECT "rowid" AS "n", "agentId", "subject", "fromName", "fromAddress", "text" FROM "Email"
  WHERE "rowid" > ? ORDER BY "rowid" LIMIT ${BATCH}`;

/** Writes SQLite's index anew from "Email": after a migration that makes it, or mail written around the service. */
export async function reindexSqliteSearch(db: Pick<Statements, "all" | "run">): Promise<void> {
  await db.run(`DELETE FROM "EmailSearch"`, []);
  for (let after: Param = -1; ; ) {
    const rows = await db.all(SEARCHED, [after]);
    if (rows.length === 0) return;
    const values = rows.map(() => "(?, ?, ?, ?)").join(", ");
    const params = rows.flatMap((row) => [row.n as number, ...sqliteSearchEntry(row)]);
    await db.run(`INSERT INTO "EmailSearch" ("rowid", "subject", "sender", "body") VALUES ${values}`, params);
    after = rows[rows.length - 1]?.n as number;
  }
}

/** Subject first, then sender, then text; bm25 is lower for better matches. Ties: the latest filed first. */
const SCORE = `bm25("EmailSearch", 10.0, 5.0, 1.0)`;

/**
 * SQLite's index holds every agent's mail, each word tagged with its agent,
 * so a search reads only that agent's entries however much mail the others
 * hold: its words are other words than theirs.
 */
export function sqliteSearch({ words, phrases, excluded }: SearchTerms, agentId: string): SearchClause {
  const tag = searchTag(agentId);
  const phrase = (parts: string[]) => `"${parts.map((word) => tag + word).join(" ")}"`;
  const wanted = [...words.map((word) => `${phrase([word])}*`), ...phrases.map(phrase)];
  const unwanted = excluded.map(phrase).join(" OR ");
  if (wanted.length === 0) {
    const where = `"Email"."rowid" NOT IN (SELECT "rowid" FROM "EmailSearch" WHERE "EmailSearch" MATCH ?)`;
    return { join: "", where, params: [unwanted], relevance: null, relevanceParams: [], ranked: null };
  }
  const match = excluded.length > 0 ? `(${wanted.join(" AND ")}) NOT (${unwanted})` : wanted.join(" AND ");
  const found = `SELECT "rowid" AS "hit", ${SCORE} AS "score" FROM "EmailSearch" WHERE "EmailSearch" MATCH ?`;
  return {
    join: `JOIN "EmailSearch" ON "EmailSearch"."rowid" = "Email"."rowid"`,
    where: `"EmailSearch" MATCH ?`,
    params: [match],
    relevance: `${SCORE}, "Email"."rowid" DESC`,
    relevanceParams: [],
    ranked: {
      page: (columns, limit, offset) => ({
        text: `SELECT ${columns} FROM (${found} ORDER BY "score", "rowid" DESC LIMIT ? OFFSET ?) AS "found"
          JOIN "Email" ON "Email"."rowid" = "found"."hit" AND "Email"."agentId" = ?
          ORDER BY "found"."score", "found"."hit" DESC`,
        params: [match, limit, offset, agentId],
      }),
      count: { text: `SELECT COUNT(*) AS "n" FROM "EmailSearch" WHERE "EmailSearch" MATCH ?`, params: [match] },
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
