import { randomUUID } from "node:crypto";
import type { Lease } from "../db/lease.ts";
import { takeStorage } from "../db/quota.ts";
import type { Statements } from "../db/sql.ts";
import { addressOf } from "./agents.ts";
import type { Authentication } from "./authentication.ts";
import { type NewEvent, withEvents } from "./events.ts";
import { limitsOf } from "./limits.ts";
import type { Reading } from "./reading/index.ts";
import { senderAllowed, senderListsOf } from "./senders.ts";
import type { Services } from "./services.ts";
import { threadFor } from "./threads.ts";

// Filing inbound mail: one batch of messages, and the mailbox cursor moved
// past them, in the same transaction, so a crash anywhere leaves either both
// or neither.

/** What is kept of a message: the inbound side reads it out of the raw source. */
export interface IncomingMessage {
  /** As the header has it, angle brackets included. */
  messageId: string | null;
  /** The same message, once per agent: its Message-ID, else its bytes. */
  dedupeKey: string;
  from: { address: string; name: string | null };
  subject: string | null;
  bodyText: string | null;
  bodyHtml: string | null;
  /** Addresses as the headers name them. */
  toList: string[];
  ccList: string[];
  replyToList: string[];
  /** The Message-ID it answers, and the thread's before it, oldest first. */
  inReplyTo: string | null;
  references: string[];
  attachments: AttachmentInfo[];
  /** What an agent reads of it besides its bodies. */
  reading: Reading;
}

/** A part that is not the message's text, as the parser found it. */
export interface AttachmentInfo {
  /** Its place among the message's attachments: where it is found again. */
  position: number;
  filename: string;
  contentType: string;
  size: number;
  contentId: string | null;
  inline: boolean;
  sha256: string;
}

export interface Arrival {
  uid: bigint;
  raw: Buffer;
  message: IncomingMessage;
  /** Who sent it, as far as the sender's domain tells. */
  authentication: Authentication;
  /** Local parts at the mail domain. */
  recipients: string[];
}

export type Outcome = "stored" | "duplicate" | "unknown_recipient" | "unverified" | "sender_refused" | "over_quota";

export interface Filed {
  uid: bigint;
  recipient: string;
  outcome: Outcome;
}

export interface Cursor {
  mailbox: string;
  uidValidity: bigint;
  /** The highest UID of the batch: everything up to it is done once this commits. */
  lastUid: bigint;
}

/** The batch is not this poller's to file any more; it reconnects and reads the cursor again. */
export class BatchRefused extends Error {}

const AGENT = `SELECT "id", "verifiedAt", "senderAllow", "senderBlock", "storageLimit", "dailySendLimit" FROM "Agent" WHERE "idKey" = ?`;
/** Remembered whatever becomes of the message: one dropped or deleted is not filed again. */
const REMEMBER = `INSERT INTO "Delivery" ("agentId", "dedupeKey") VALUES (?, ?) ON CONFLICT DO NOTHING`;
const FILE = `INSERT INTO "Email" ("id", "agentId", "messageId", "fromAddress", "fromName", "to", "subject", "bodyText",
  "bodyHtml", "raw", "size", "receivedAt", "isRead", "folder", "toList", "ccList", "replyToList", "inReplyTo",
  "references", "threadId", "text", "preview", "replyText", "links", "codes", "authSpf", "authDkim", "authDmarc",
  "authArc", "authVerdict")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const ATTACHMENT = `INSERT INTO "Attachment" ("id", "emailId", "position", "filename", "contentType", "size", "contentId",
  "inline", "sha256") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const CURSOR = `SELECT "uidValidity", "lastUid" FROM "ImapCursor" WHERE "mailbox" = ?`;
const MOVE_CURSOR = `INSERT INTO "ImapCursor" ("mailbox", "uidValidity", "lastUid") VALUES (?, ?, ?)
  ON CONFLICT ("mailbox") DO UPDATE SET "uidValidity" = excluded."uidValidity", "lastUid" = excluded."lastUid"`;

async function fileOne(
  tx: Statements,
  emit: (event: NewEvent) => Promise<void>,
  services: Services,
  arrival: Arrival,
  localPart: string,
): Promise<Outcome> {
  const agent = await tx.one(AGENT, [localPart]);
  if (!agent) return "unknown_recipient";
  const agentId = agent.id as string;
  const { message, raw, authentication: auth } = arrival;
  if ((await tx.run(REMEMBER, [agentId, message.dedupeKey])) === 0) return "duplicate";
  if (agent.verifiedAt === null) return "unverified";
  if (!senderAllowed(senderListsOf(agent), message.from.address)) return "sender_refused";
  const { storageBytes } = limitsOf(
    agent as { storageLimit: number | null; dailySendLimit: number | null },
    services.config,
  );
  if (!(await takeStorage(tx, agentId, raw.length, storageBytes))) return "over_quota";
  const { sql, config, clock } = services;
  const emailId = randomUUID();
  const now = clock.now();
  const threadId = await threadFor(tx, sql, { agentId, ...message, at: now });
  await tx.run(FILE, [
    emailId,
    agentId,
    message.messageId,
    message.from.address,
    message.from.name,
    addressOf({ id: agentId }, config),
    message.subject,
    message.bodyText,
    message.bodyHtml,
    raw,
    raw.length,
    sql.at(now),
    false,
    "inbox",
    JSON.stringify(message.toList),
    JSON.stringify(message.ccList),
    JSON.stringify(message.replyToList),
    message.inReplyTo,
    message.references.join(" ") || null,
    threadId,
    message.reading.text,
    message.reading.preview,
    message.reading.replyText,
    JSON.stringify(message.reading.links),
    JSON.stringify(message.reading.codes),
    auth.spf,
    auth.dkim,
    auth.dmarc,
    auth.arc,
    auth.verdict,
  ]);
  const { subject, from } = message;
  const text = message.reading.text;
  await sql.indexForSearch(tx, { id: emailId, agentId, subject, fromName: from.name, fromAddress: from.address, text });
  for (const a of message.attachments) {
    const row = [randomUUID(), emailId, a.position, a.filename, a.contentType, a.size, a.contentId, a.inline, a.sha256];
    await tx.run(ATTACHMENT, row);
  }
  await emit({ type: "email.received", agentId, data: { emailId, folder: "inbox", subject, from, size: raw.length } });
  return "stored";
}

/** UIDs are 32-bit but stored as BIGINT, which PostgreSQL hands back as text. */
const uid = (value: unknown) => BigInt(value as number | string);

export async function fileBatch(
  services: Services,
  cursor: Cursor,
  arrivals: Arrival[],
  lease: Lease,
): Promise<Filed[]> {
  return withEvents(services, async (tx, emit) => {
    // First, so that an instance taking the lease over waits for this commit.
    if (!(await lease.confirm(tx))) throw new BatchRefused("the poller lease was taken over");
    const current = await tx.one(CURSOR, [cursor.mailbox]);
    if (current && uid(current.uidValidity) === cursor.uidValidity && uid(current.lastUid) >= cursor.lastUid) {
      throw new BatchRefused("the cursor is past this batch already");
    }
    const filed: Filed[] = [];
    for (const arrival of arrivals) {
      for (const recipient of arrival.recipients) {
        filed.push({ uid: arrival.uid, recipient, outcome: await fileOne(tx, emit, services, arrival, recipient) });
      }
    }
    await tx.run(MOVE_CURSOR, [cursor.mailbox, String(cursor.uidValidity), String(cursor.lastUid)]);
    return filed;
  });
}
