import { createHash, randomBytes } from "node:crypto";
import { type Database, openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { reindexPostgresSearch, reindexSqliteSearch } from "../../src/db/search.ts";
import { numberedParams } from "../../src/db/sql.ts";
import type { Row } from "../../src/db/statements.ts";

// Fills a fresh database with what the scenarios read: agents with known
// keys, and realistic mail. Written with plain SQL in large transactions; the
// timestamps are stored as the service stores them.

export interface SeedAgent {
  id: string;
  apiKey: string;
}

export interface Seeded {
  /** The verified agent every read scenario uses. */
  agent: SeedAgent;
  /** One of its emails. */
  emailId: string;
  /** Agents that hold mail, for the large-mailbox scenarios. */
  owners: SeedAgent[];
}

const PARAGRAPH =
  "Thanks for getting back to us about the quarterly numbers. We looked at the figures you sent and " +
  "they line up with what finance reported, apart from the travel line, which seems to count the " +
  "October conference twice. Could you check the source sheet and send a corrected version? ";

/** About 4 KB of mail (or 1 KB when small): a text and an HTML body, and the raw message they came in. */
function realisticEmail(n: number, small: boolean) {
  const paragraphs = PARAGRAPH.repeat(small ? 1 : 4);
  const text = `Hello,\n\n${paragraphs}\n\nBest regards,\nJordan Example\nExample Corp, n=${n}\n`;
  const html = `<html><body><p>Hello,</p><p>${paragraphs}</p><p>Best regards,<br>Jordan Example</p></body></html>`;
  const raw = Buffer.from(
    `From: Jordan <jordan@sender.example>\r\nSubject: Quarterly numbers ${n}\r\n\r\n${text}\r\n${html}`,
  );
  return { text, html, raw };
}

export const hashKey = (key: string) => createHash("sha256").update(key).digest("hex");

export interface Writer {
  run(sql: string, rows: unknown[][]): Promise<void>;
  close(): Promise<void>;
}

/** Inserts rows in chunks, each chunk one multi-row statement inside one transaction. */
export async function writerFor(database: Database): Promise<Writer> {
  if (database.provider === "sqlite") {
    const { default: Sqlite } = await import("better-sqlite3");
    const file = (process.env.BENCH_DATABASE_URL ?? "").replace(/^file:/, "");
    const db = new Sqlite(file);
    db.pragma("journal_mode = WAL");
    return {
      async run(sql, rows) {
        const statement = db.prepare(sql);
        db.transaction(() => {
          for (const row of rows) statement.run(...row);
        })();
      },
      // Mail written around the service: made searchable as the service's migration would.
      async close() {
        db.exec("BEGIN");
        await reindexSqliteSearch({
          all: async (text, params) => db.prepare(text).all(...params) as Row[],
          run: async (text, params) => db.prepare(text).run(...params).changes,
        });
        db.exec("COMMIT");
        db.close();
      },
    };
  }
  const { default: pg } = await import("pg");
  const client = new pg.Client({ connectionString: database.connectionString });
  await client.connect();
  await client.query(`SET search_path TO "${database.schema}"`);
  return {
    async run(sql, rows) {
      const width = rows[0]?.length ?? 0;
      const columns = sql.replace(/VALUES.*$/s, "VALUES ");
      await client.query("BEGIN");
      for (let i = 0; i < rows.length; i += 1000) {
        const chunk = rows.slice(i, i + 1000);
        const values = chunk.map((_, r) => `(${Array.from({ length: width }, (_, c) => `$${r * width + c + 1}`)})`);
        await client.query(columns + values.join(","), chunk.flat());
      }
      await client.query("COMMIT");
    },
    async close() {
      await client.query("BEGIN");
      await reindexPostgresSearch({
        all: async (text, params) => (await client.query<Row>(numberedParams(text), params)).rows,
        run: async (text, params) => (await client.query(numberedParams(text), params)).rowCount ?? 0,
      });
      await client.query("COMMIT");
      // Statistics, as autovacuum would gather soon after a bulk load: without them the planner guesses.
      await client.query(`ANALYZE "Email"`);
      await client.query(`ANALYZE "EmailSearch"`);
      await client.end();
    },
  };
}

const AGENT_SQL = `INSERT INTO "Agent" ("id","idKey","name","apiKeyHash","createdAt","verifiedAt","storageUsed") VALUES (?,?,?,?,?,?,?)`;
const THREAD_SQL = `INSERT INTO "Thread" ("id","agentId","subject","startedAt","lastMessageAt") VALUES (?,?,?,?,?)`;
const EMAIL_SQL = `INSERT INTO "Email" ("id","agentId","messageId","fromAddress","fromName","to","subject","bodyText","bodyHtml","size","receivedAt","isRead","folder","threadId","text","preview") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)`;
const SOURCE_SQL = `INSERT INTO "EmailSource" ("emailId","raw") VALUES (?,?)`;

/** A timestamp as the service writes it on this database. */
export function stamp(database: Database, ms: number): unknown {
  return database.provider === "sqlite" ? new Date(ms).toISOString().replace("Z", "+00:00") : new Date(ms);
}

export async function seed(
  url: string,
  options: { agents: number; mailboxes: number; emailsPerMailbox: number; domain: string; small?: boolean },
): Promise<Seeded> {
  process.env.BENCH_DATABASE_URL = url;
  const database = await openDatabase(url);
  await migrate(database);
  const writer = await writerFor(database);
  const now = Date.now();
  const agents: SeedAgent[] = Array.from({ length: options.agents }, (_, i) => ({
    id: `bench-${i}`,
    apiKey: `ph_${randomBytes(32).toString("base64url")}`,
  }));
  const owners = agents.slice(0, options.mailboxes);
  const small = options.small ?? false;
  const body = realisticEmail(0, small);
  const storage = body.raw.length * options.emailsPerMailbox;
  await writer.run(
    AGENT_SQL,
    agents.map((a, i) => {
      const used = i < options.mailboxes ? storage : 0;
      return [a.id, a.id, `Bench ${i}`, hashKey(a.apiKey), stamp(database, now), stamp(database, now), used];
    }),
  );
  let emailId = "";
  for (const owner of owners) {
    const rows: unknown[][] = [];
    const sources: unknown[][] = [];
    const threads: unknown[][] = [];
    for (let n = 0; n < options.emailsPerMailbox; n++) {
      const { text, html, raw } = n === 0 ? body : realisticEmail(n, small);
      const id = `e${owner.id.slice(6)}x${n.toString().padStart(7, "0")}`;
      if (!emailId) emailId = id;
      const received = stamp(database, now - n * 60_000);
      rows.push([
        id,
        owner.id,
        `<${id}@sender.example>`,
        "jordan@sender.example",
        "Jordan Example",
        `${owner.id}@${options.domain}`,
        `Quarterly numbers ${n}`,
        text,
        html,
        raw.length,
        received,
        n % 3 === 0 ? 1 : 0,
        n % 10 === 0 ? "archive" : "inbox",
        // Each message a conversation of its own.
        id,
        text,
        text.replace(/\s+/g, " ").trim().slice(0, 200),
      ]);
      sources.push([id, raw]);
      threads.push([id, owner.id, `Quarterly numbers ${n}`, received, received]);
    }
    await writer.run(THREAD_SQL, threads);
    await writer.run(EMAIL_SQL, database.provider === "postgresql" ? rows.map(asPostgresRow) : rows);
    await writer.run(SOURCE_SQL, sources);
  }
  await writer.close();
  await database.prisma.$disconnect();
  return { agent: agents[0] as SeedAgent, emailId, owners };
}

/** PostgreSQL takes booleans as booleans. */
function asPostgresRow(row: unknown[]): unknown[] {
  return row.map((value, i) => (i === 11 ? value === 1 : value));
}
