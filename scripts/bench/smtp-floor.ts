// The SMTP door's floor: a bare smtp-server that keeps each message with one
// INSERT into the same database and answers 250 once it is written. Given a
// DNS server, it first does to each message what the door does before filing
// it: parses it (mailparser, as the service reads mail) and checks its sender
// (mailauth's SPF for the connecting client, DKIM and DMARC against that
// server, each answer asked once). Run as its own process:
//   node --import tsx scripts/bench/smtp-floor.ts <database url> [<dns server>]
import { randomUUID } from "node:crypto";
import type { AddressInfo } from "node:net";
import { SMTPServer, type SMTPServerDataStream, type SMTPServerSession } from "smtp-server";
import { parseMime } from "../../src/mailbox/mime.ts";
import { floorPool } from "./floor-pool.ts";
import { bareAuthenticator } from "./mail.ts";

const [url = "", dnsServer] = process.argv.slice(2);
const authenticate = dnsServer ? bareAuthenticator(dnsServer) : null;

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

/** The message read and its sender checked, when this floor does the door's reading too. */
async function read(raw: Buffer, session: SMTPServerSession): Promise<void> {
  if (!authenticate) return;
  await parseMime(raw);
  const sender = session.envelope.mailFrom ? session.envelope.mailFrom.address : "";
  await authenticate(raw, { ip: session.remoteAddress, helo: session.hostNameAppearsAs, sender });
}

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
      .then(async (raw) => {
        await read(raw, session);
        await keep(id, recipients, raw);
      })
      .then(
        () => callback(null, `2.0.0 Ok: queued as ${id}`),
        (error: Error) => callback(Object.assign(error, { responseCode: 451 })),
      );
  },
});
server.listen(0, "127.0.0.1", () => {
  process.stdout.write(`${JSON.stringify({ port: (server.server.address() as AddressInfo).port })}\n`);
});
