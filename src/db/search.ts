import { createHash } from "node:crypto";
import type { MailOwner } from "./emails.ts";
import { statementChunks } from "./rows.ts";
import { oneOf, type Param, type Row, type Statements } from "./statements.ts";

// Full-text search over received mail as each database does it, in a table
// "EmailSearch" beside "Email": SQLite's FTS5 index by the email's rowid, and
// PostgreSQL's tsvector by its id under a GIN index. Both hold every word
// with its agent's tag in front, written by our code at filing, so a search
// reads only its agent's words. Terms arrive as searchWords makes them, so
// nothing in them can be query syntax.

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
 * The agent's tag on its words in the index: 16 hex digits of its id's
 * SHA-256, a fixed length so that SQLite's prefix sizes fall on the word's
 * first letters. Agents sharing a tag would share counts, never mail: a
 * search's rows are joined to "Email" by the agent too.
 */
export const searchTag = (agentId: string) => createHash("sha256").update(agentId).digest("hex").slice(0, 16);

/**
 * Longer runs of letters and digits are data, not words (no query of 500
 * characters would ask for one whole), and PostgreSQL refuses a word of
 * over 2,046 bytes.
 */
const LONGEST_WORD = 200;
export const isIndexed = (word: string) => word.length <= LONGEST_WORD;

/**
 * How much of each column is searched: its first 256 KiB, as reading help
 * reads. Its words are found while the filing transaction is open, on the
 * thread that answers requests.
 */
const SEARCHED_LENGTH = 256 * 1024;

/** An email's searched columns, each as its tagged words: subject, sender, text. */
function taggedColumns(email: Row): string[][] {
  const tag = searchTag(email.agentId as string);
  const tagged = (text: string) =>
    searchWords(text.slice(0, SEARCHED_LENGTH))
      .filter(isIndexed)
      .map((word) => tag + word);
  const sender = `${email.fromName ?? ""} ${email.fromAddress}`;
  return [tagged((email.subject as string | null) ?? ""), tagged(sender), tagged((email.text as string | null) ?? "")];
}

/** PostgreSQL's limits on a tsvector: positions up to 16,383, 256 of them a word, under 1 MB of words. */
const LAST_POSITION = 16_383;
const POSITIONS_PER_WORD = 256;
const WORD_BYTES = 512 * 1024;

/**
 * An email's entry in PostgreSQL's index as tsvector text: each word with
 * its positions and its column's weight (subject A, sender B, text C). A
 * column starts a position after the last one's end, so no phrase spans two.
 * Words past the size limit are left out; past the last position, words
 * share it.
 */
export function postgresSearchVector(email: Row): string {
  const positions = new Map<string, string[]>();
  let position = 0;
  let bytes = 0;
  for (const [column, words] of taggedColumns(email).entries()) {
    for (const word of words) {
      position = Math.min(position + 1, LAST_POSITION);
      let at = positions.get(word);
      if (!at) {
        const size = Buffer.byteLength(word);
        if (bytes + size > WORD_BYTES) continue;
        bytes += size;
        at = [];
        positions.set(word, at);
      }
      const mark = `${position}${"ABC"[column]}`;
      if (at.length < POSITIONS_PER_WORD && at[at.length - 1] !== mark) at.push(mark);
    }
    position = Math.min(position + 1, LAST_POSITION);
  }
  return [...positions].map(([word, at]) => `'${word}':${at.join(",")}`).join(" ");
}

/** How one database's index is written: an entry's values, and the insert that joins them to "Email" by id. */
interface SearchIndex {
  values: string;
  entry(email: Row): Param[];
  insert: string;
}

/** SQLite: by the email's rowid, words apart by a space (the ascii tokenizer splits there and nowhere else). */
const SQLITE_INDEX: SearchIndex = {
  values: `"v" ("id", "subject", "sender", "body")`,
  entry: (email) => [email.id as string, ...taggedColumns(email).map((words) => words.join(" "))],
  insert: `INSERT INTO "EmailSearch" ("rowid", "subject", "sender", "body")
    SELECT "Email"."rowid", "v"."subject", "v"."sender", "v"."body"`,
};

/** PostgreSQL: by the email's id, with its time for the order of equal matches. */
const POSTGRES_INDEX: SearchIndex = {
  values: `"v" ("id", "search")`,
  entry: (email) => [email.id as string, postgresSearchVector(email)],
  insert: `INSERT INTO "EmailSearch" ("emailId", "emailReceivedAt", "search")
    SELECT "Email"."id", "Email"."receivedAt", CAST("v"."search" AS tsvector)`,
};

async function writeEntries(index: SearchIndex, db: Pick<Statements, "run">, emails: Row[]): Promise<void> {
  const entries = emails.map(index.entry);
  const row = `(${entries[0]?.map(() => "?").join(", ")})`;
  await db.run(
    `WITH ${index.values} AS (VALUES ${entries.map(() => row).join(", ")})
      ${index.insert} FROM "v" JOIN "Email" ON "Email"."id" = "v"."id"`,
    entries.flat(),
  );
}

const BATCH = 200;
const SEARCHED = `SELECT "id", "agentId", "subject", "fromName", "fromAddress", "text" FROM "Email"
  WHERE "id" > ? ORDER BY "id" LIMIT ${BATCH}`;

/** Writes the index anew from "Email": after a migration that makes it, or mail written around the service. */
async function reindex(index: SearchIndex, db: Pick<Statements, "all" | "run">): Promise<void> {
  await db.run(`DELETE FROM "EmailSearch"`, []);
  for (let after = ""; ; ) {
    const emails = await db.all(SEARCHED, [after]);
    if (emails.length === 0) return;
    await writeEntries(index, db, emails);
    after = emails[emails.length - 1]?.id as string;
  }
}

/** Adds just filed emails to the index, in the transaction that files them, a statement for many. Their searched columns never change. */
async function indexEmails(index: SearchIndex, tx: Statements, emails: Row[]): Promise<void> {
  for (const chunk of statementChunks(emails)) await writeEntries(index, tx, chunk);
}

export const indexSqliteEmails = (tx: Statements, emails: Row[]) => indexEmails(SQLITE_INDEX, tx, emails);
export const indexPostgresEmails = (tx: Statements, emails: Row[]) => indexEmails(POSTGRES_INDEX, tx, emails);
export const reindexSqliteSearch = (db: Pick<Statements, "all" | "run">) => reindex(SQLITE_INDEX, db);
export const reindexPostgresSearch = (db: Pick<Statements, "all" | "run">) => reindex(POSTGRES_INDEX, db);

/** Subject first, then sender, then text; bm25 is lower for better matches. Ties: the latest filed first. */
const SCORE = `bm25("EmailSearch", 10.0, 5.0, 1.0)`;

/** The owner's agents, one or several. */
const agentsOf = (owner: MailOwner): readonly string[] => (typeof owner === "string" ? [owner] : owner);

/** Each agent's query joined by the database's OR; one agent's as it is. */
const anyOf = (queries: string[], or: string) =>
  queries.length === 1 ? (queries[0] as string) : queries.map((query) => `(${query})`).join(` ${or} `);

/** A search of excluded words alone: the mail `where` keeps, each agent's unwanted phrases joined by the database's OR. */
const excludingOnly = (where: string, queries: { unwanted: string }[], or: string): SearchClause => {
  const unwanted = queries.map((query) => query.unwanted);
  return { join: "", where, params: [anyOf(unwanted, or)], relevance: null, relevanceParams: [], ranked: null };
};

/**
 * SQLite's index holds every agent's mail, each word tagged with its agent,
 * so a search reads only its agents' entries however much mail the others
 * hold: its words are other words than theirs. Several agents' mail (a pod's)
 * is each agent's query, joined by OR.
 */
export function sqliteSearch({ words, phrases, excluded }: SearchTerms, owner: MailOwner): SearchClause {
  const queries = agentsOf(owner).map((agentId) => {
    const tag = searchTag(agentId);
    const phrase = (parts: string[]) => `"${parts.map((word) => tag + word).join(" ")}"`;
    const wanted = [...words.map((word) => `${phrase([word])}*`), ...phrases.map(phrase)];
    const unwanted = excluded.map(phrase).join(" OR ");
    const match = excluded.length > 0 ? `(${wanted.join(" AND ")}) NOT (${unwanted})` : wanted.join(" AND ");
    return { wanted, unwanted, match };
  });
  const agents = oneOf(`"Email"."agentId"`, owner);
  if (words.length + phrases.length === 0) {
    const where = `"Email"."rowid" NOT IN (SELECT "rowid" FROM "EmailSearch" WHERE "EmailSearch" MATCH ?)`;
    return excludingOnly(where, queries, "OR");
  }
  const match = anyOf(
    queries.map((query) => query.match),
    "OR",
  );
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
          JOIN "Email" ON "Email"."rowid" = "found"."hit" AND ${agents.where}
          ORDER BY "found"."score", "found"."hit" DESC`,
        params: [match, limit, offset, ...agents.params],
      }),
      count: { text: `SELECT COUNT(*) AS "n" FROM "EmailSearch" WHERE "EmailSearch" MATCH ?`, params: [match] },
    },
  };
}

/** Subject first, then sender, then text (ts_rank's default weights for A, B, C); higher is better. */
const POSTGRES_SCORE = `ts_rank("EmailSearch"."search", CAST(? AS tsquery))`;

/**
 * PostgreSQL's index is a table of its own beside "Email", narrow so that
 * checking and ranking a match reads little, its words tagged as SQLite's
 * are. The query is tsquery text: the terms hold letters and digits only.
 */
export function postgresSearch({ words, phrases, excluded }: SearchTerms, owner: MailOwner): SearchClause {
  const queries = agentsOf(owner).map((agentId) => {
    const tag = searchTag(agentId);
    const phrase = (parts: string[]) => `(${parts.map((word) => `'${tag}${word}'`).join(" <-> ")})`;
    const wanted = [...words.map((word) => `'${tag}${word}':*`), ...phrases.map(phrase)].join(" & ");
    const unwanted = excluded.map(phrase).join(" | ");
    const query = [wanted, ...excluded.map((parts) => `!${phrase(parts)}`)].join(" & ");
    return { wanted, unwanted, query };
  });
  const agents = oneOf(`"Email"."agentId"`, owner);
  if (words.length + phrases.length === 0) {
    const where = `"Email"."id" NOT IN (SELECT "emailId" FROM "EmailSearch" WHERE "search" @@ CAST(? AS tsquery))`;
    return excludingOnly(where, queries, "|");
  }
  const wanted = anyOf(
    queries.map((query) => query.wanted),
    "|",
  );
  const query = anyOf(
    queries.map((each) => each.query),
    "|",
  );
  const found = `SELECT "emailId", "emailReceivedAt", ${POSTGRES_SCORE} AS "score" FROM "EmailSearch"
    WHERE "search" @@ CAST(? AS tsquery)`;
  const order = `"score" DESC, "emailReceivedAt" DESC, "emailId" DESC`;
  return {
    join: `JOIN "EmailSearch" ON "EmailSearch"."emailId" = "Email"."id"`,
    where: `"EmailSearch"."search" @@ CAST(? AS tsquery)`,
    params: [query],
    // Ranked by what is wanted only: an excluded word in the query skews ts_rank.
    relevance: `-${POSTGRES_SCORE}`,
    relevanceParams: [wanted],
    ranked: {
      page: (columns, limit, offset) => ({
        text: `SELECT ${columns} FROM (${found} ORDER BY ${order} LIMIT ? OFFSET ?) AS "found"
          JOIN "Email" ON "Email"."id" = "found"."emailId" AND ${agents.where} ORDER BY ${order}`,
        params: [wanted, query, limit, offset, ...agents.params],
      }),
      count: {
        text: `SELECT COUNT(*) AS "n" FROM "EmailSearch" WHERE "search" @@ CAST(? AS tsquery)`,
        params: [query],
      },
    },
  };
}
