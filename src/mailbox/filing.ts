import { randomUUID } from "node:crypto";
import { type ImapCursor, readCursor, writeCursor } from "../db/imap-cursor.ts";
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

export type { ImapCursor };

/** The batch is not this poller's to file any more; it reconnects and reads the cursor again. */
export class BatchRefused extends Error {}

const AGENT = `SELECT "id", "verifiedAt", "senderAllow", "senderBlock", "storageLimit", "dailySendLimit" FROM "Agent" WHERE "idKey" = ?`;
/** Remembered whatever becomes of the message: one dropped or deleted is not filed again. */
const REMEMBER = `INSERT INTO "Delivery" ("agentId", "dedupeKey") VALUES (?, ?) ON CONFLICT DO NOTHING`;
const FILE = `INSERT INTO "Email" ("id", "agentId", "messageId", "fromAddress", "fromName", "to", "subject", "bodyText",
  "bodyHtml", "size", "receivedAt", "isRead", "folder", "toList", "ccList", "replyToList", "inReplyTo",
  "references", "threadId", "text", "preview", "replyText", "links", "codes", "authSpf", "authDkim", "authDmarc",
  "authArc", "authVerdict")
  VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`;
const SOURCE = `INSERT INTO "EmailSource" ("emailId", "raw") VALUES (?, ?)`;
const ATTACHMENT = `INSERT INTO "Attachment" ("id", "emailId", "position", "filename", "contentType", "size", "contentId",
  "inline", "sha256") VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`;

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
  await tx.run(SOURCE, [emailId, raw]);
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

/** The lease confirmed in the transaction, first, so that an instance taking it over waits for this commit. */
async function confirmLease(tx: Statements, lease: Lease): Promise<void> {
  if (!(await lease.confirm(tx))) throw new BatchRefused("the poller lease was taken over");
}

/**
 * Files a batch, the messages after the mailbox's cursor up to `through`,
 * and moves the cursor there in the same transaction.
 */
export async function fileBatch(
  services: Services,
  mailbox: string,
  through: ImapCursor,
  arrivals: Arrival[],
  lease: Lease,
): Promise<Filed[]> {
  return withEvents(services, async (tx, emit) => {
    await confirmLease(tx, lease);
    const current = await readCursor(tx, mailbox);
    if (current && current.uidValidity === through.uidValidity && current.lastUid >= through.lastUid) {
      throw new BatchRefused("the cursor is past this batch already");
    }
    const filed: Filed[] = [];
    for (const arrival of arrivals) {
      for (const recipient of arrival.recipients) {
        filed.push({ uid: arrival.uid, recipient, outcome: await fileOne(tx, emit, services, arrival, recipient) });
      }
    }
    await writeCursor(tx, mailbox, through);
    return filed;
  });
}

/** Writes the cursor while the lease is ours: an attempt begun, or a message passed over. */
export async function saveCursor(services: Services, mailbox: string, cursor: ImapCursor, lease: Lease): Promise<void> {
  await services.sql.transaction(async (tx) => {
    await confirmLease(tx, lease);
    await writeCursor(tx, mailbox, cursor);
  });
}
