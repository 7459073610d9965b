// The SMTP door's floor: a bare smtp-server that keeps each message with one
// INSERT into the same database and answers 250 once it is written. Run as
// its own process:
//   node --import tsx scripts/bench/smtp-floor.ts <database url>
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream } from "smtp-server";
import { floorPool } from "./floor-pool.ts";

const [url = ""] = process.argv.slice(2);

type Keep = (id: string, recipients: string, raw: Buffer) => Promise<void>;

const table = (blob: string) =>
  `CREATE TABLE IF NOT EXISTS "BenchInbound" ("id" TEXT PRIMARY KEY, "recipients" TEXT NOT NULL, "raw" ${blob} NOT NULL)`;

async function sqliteKeeper(file: string): Promise<Keep> {
  const { default: Sqlite } = await import("better-sqlite3");
  const db = new Sqlite(file);
  db.pragma("journal_mode = WAL");
  db.pragma("synchronous = NORMAL");
  db.pragma("busy_timeout = 5000");
  db.exec(table("BLOB"));
  const insert = db.prepare(`INSERT INTO "BenchInbound" ("id","recipients","raw") VALUES (?,?,?)`);
  return async (...row) => {
    insert.run(...row);
  };
}

async function postgresKeeper(connection: string): Promise<Keep> {
  const pool = await floorPool(connection);
  await pool.query(table("BYTEA"));
  return async (...row) => {
    await pool.query({
      name: "keep",
      text: `INSERT INTO "BenchInbound" ("id","recipients","raw") VALUES ($1,$2,$3)`,
      values: row,
    });
  };
}

const keep = url.startsWith("file:") ? await sqliteKeeper(url.slice("file:".length)) : await postgresKeeper(url);

async function readAll(stream: SMTPServerDataStream): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

const server = new SMTPServer({
  disabledCommands: ["AUTH", "STARTTLS"],
  authOptional: true,
  logger: false,
  onData(stream, session, callback) {
    const id = randomUUID();
    const recipients = session.envelope.rcptTo.map((rcpt) => rcpt.address).join(",");
    readAll(stream)
      .then((raw) => keep(id, recipients, raw))
      .then(
        () => callback(null, `2.0.0 Ok: queued as ${id}`),
        (error: Error) => callback(Object.assign(error, { responseCode: 451 })),
      );
  },
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: (server.server.address() as AddressInfo).port })}\n`);
});
