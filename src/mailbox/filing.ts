import { randomUUID } from "node:crypto";
import { forgetDelivery } from "../db/filing.ts";
import { type ImapCursor, readCursor, writeCursor } from "../db/imap-cursor.ts";
import { type Lease, lease } from "../db/lease.ts";
import { insertQuarantined } from "../db/quarantine.ts";
import { jsonInput } from "../db/rows.ts";
import type { Tx } from "../db/statements.ts";
import type { Attachment } from "../generated/prisma/sqlite/client.ts";
import { addressOf } from "./agents.ts";
import type { SenderChecks } from "./authentication.ts";
import { type Emit, withEvents } from "./events.ts";
import { FilingBatch } from "./filing-batch.ts";
import {
  type Placement,
  placementOf,
  type QuarantineReason,
  releasedPlacement,
  type Scans,
  type ScreeningPolicy,
} from "./inspection.ts";
import { limitsOf } from "./limits.ts";
import type { Reading } from "./reading/index.ts";
import { type AutoSubmitted, type DeliveryReport, type ReportIgnored, recordReport } from "./reports.ts";
import { announceQuarantined } from "./review-notices.ts";
import type { Screening } from "./screening/index.ts";
import type { Services } from "./services.ts";

// Filing inbound mail: one batch of messages, and the mailbox cursor moved
// past them, in the same transaction, so a crash anywhere leaves either both
// or neither.

/** What is kept of a message: the inbound side reads it out of the raw source. */
export interface IncomingMessage {
  /** As the header has it, angle brackets included. */
  messageId: string | null;
  /** The same message, once per agent: its Message-ID, else its bytes without the trace servers add. */
  dedupeKey: string;
  from: { address: string; name: string | null };
  subject: string | null;
  /** When the sender says it was written: its Date header, when that can be read. */
  date: Date | null;
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
  /** What the prompt-injection screening found in what an agent would read. */
  screening: Screening;
  /** Whether a machine sent it; a report is auto-generated when it is filed as mail. */
  autoSubmitted: AutoSubmitted;
  /** A delivery report or complaint about mail the service sent, else null. */
  report: DeliveryReport | null;
}

/** A part that is not the message's text, as the parser found it; its position is where it is found again. */
export type AttachmentInfo = Omit<Attachment, "id" | "emailId">;

/** The envelope as the server that took the message recorded it. */
export interface RecordedEnvelope {
  /** The reverse path (MAIL FROM): "" for a bounce's <>, null when it was not recorded. */
  from: string | null;
  /** The recipients it was delivered to, in lower case. */
  to: string[];
}

export interface Arrival {
  uid: bigint;
  raw: Buffer;
  message: IncomingMessage;
  /** Who sent it, as far as the sender's domain tells. */
  authentication: SenderChecks;
  /** The scanners' verdicts (NOT_SCANNED for mail between agents here). */
  scans: Scans;
  /** Its recipients: addresses at the served domains, in lower case. */
  recipients: string[];
  envelope: RecordedEnvelope;
}

export type Outcome =
  | "stored"
  | "report"
  | "duplicate"
  | "unknown_recipient"
  | "unverified"
  | "sender_refused"
  | "over_quota"
  | "quarantined";

/** Whether an outcome kept nothing of the message for the agent: it was refused, not filed, held, recorded or seen before. */
export const dropped = (outcome: Outcome): boolean =>
  !["stored", "report", "duplicate", "quarantined"].includes(outcome);

export interface Filed {
  uid: bigint;
  recipient: string;
  outcome: Outcome;
}

export type { ImapCursor, Lease };

/** How long the catch-all's lease lasts unless renewed; its holder renews it three times as often. */
export const LEASE_TTL_MS = 30_000;

/** The lease that lets one instance at a time read a catch-all mailbox. */
export function catchAllLease(services: Services, mailbox: string): Lease {
  return lease(services.sql, services.clock, `imap:${mailbox}`, services.takeover, LEASE_TTL_MS);
}

/** How far the mailbox has been read; null before its first batch. */
export function cursorOf(services: Services, mailbox: string): Promise<ImapCursor | null> {
  return readCursor(services.sql, mailbox);
}

/** The batch is not this poller's to file any more; it reconnects and reads the cursor again. */
export class BatchRefused extends Error {}

/** A message a person let out of quarantine: remembered and inspected when it first came; told the email's id. */
interface Release {
  filed(emailId: string): void;
}

/** Files the message for one recipient. */
async function fileOne(
  tx: Tx,
  emit: Emit,
  services: Services,
  batch: FilingBatch,
  arrival: Arrival,
  address: string,
  released: Release | null = null,
): Promise<Outcome> {
  const addressee = await batch.addressee(address);
  if (!addressee) return "unknown_recipient";
  const { agent } = addressee;
  const agentId = agent.id;
  const { message, raw, authentication: auth, envelope } = arrival;
  if (!released && !(await batch.remember(agentId, message.dedupeKey))) return "duplicate";
  if (agent.verifiedAt === null) return "unverified";
  // About mail the agent sent: recorded on it and not filed once it proves itself; else filed, saying why not.
  let reportIgnored: ReportIgnored | null = null;
  if (message.report) {
    reportIgnored = await recordReport(tx, emit, services, {
      agentId,
      report: message.report,
      returnPathOf: envelope.to.includes(address) ? addressee.returnPathOf : null,
      reversePath: envelope.from,
      dkimDomains: auth.dkimDomains,
    });
    if (reportIgnored === null) return "report";
  }
  // Asked again, though the inbound paths asked before reading (intake.ts refusedBeforeReading): this is where
  // mail between agents here and a release from quarantine are asked, where a return path's mail is once its
  // report was looked for, where a header section too long to read alone is, and where lists changed since are.
  const sender = await batch.standing(agent, message.from.address);
  if (!sender.filed) return "sender_refused";
  const placement: Placement = released
    ? releasedPlacement(arrival.scans)
    : placementOf(arrival.scans, message.screening, {
        allowed: sender.allowed,
        policy: agent.screeningPolicy as ScreeningPolicy,
      });
  if ("quarantine" in placement) {
    await holdInQuarantine(tx, services, { arrival, agentId, recipient: address, placement });
    return "quarantined";
  }
  const { storageBytes } = limitsOf(agent, services.config);
  if (!(await batch.takeStorage(agentId, raw.length, storageBytes))) {
    // Not kept: a retry, once there is room, is not a duplicate (a release stays held).
    if (!released) await forgetDelivery(tx, agentId, message.dedupeKey);
    return "over_quota";
  }
  const { config, clock } = services;
  const emailId = randomUUID();
  const now = clock.now();
  const threadId = await batch.thread({ agentId, ...message, at: now });
  const { subject, from, reading, screening } = message;
  const email = {
    id: emailId,
    agentId,
    messageId: message.messageId,
    fromAddress: from.address,
    fromName: from.name,
    to: addressOf(agent, config),
    subject,
    bodyText: message.bodyText,
    bodyHtml: message.bodyHtml,
    size: raw.length,
    receivedAt: now,
    headerDate: message.date,
    toList: message.toList,
    ccList: message.ccList,
    replyToList: message.replyToList,
    inReplyTo: message.inReplyTo,
    references: message.references.join(" ") || null,
    threadId,
    text: reading.text,
    preview: reading.preview,
    replyText: reading.replyText,
    links: reading.links,
    codes: reading.codes,
    autoSubmitted: message.autoSubmitted,
    authSpf: auth.spf,
    authDkim: auth.dkim,
    authDmarc: auth.dmarc,
    authArc: auth.arc,
    authVerdict: auth.verdict,
    reportIgnored,
    ...scanColumns(arrival.scans),
    spam: placement.spam,
    screening: screening.verdict,
    screeningSignals: screening.signals.map((signal) => ({ ...signal })),
  };
  const attachments = message.attachments.map((a) => ({ ...a, id: randomUUID(), emailId }));
  batch.store({ email: { ...email, folder: placement.folder }, raw, attachments });
  released?.filed(emailId);
  const { folder } = placement;
  await emit({
    type: "email.received",
    agentId,
    data: { emailId, folder, subject, from, size: raw.length, autoSubmitted: message.autoSubmitted },
  });
  if (screening.verdict === "suspicious") {
    const signals = [...new Set(screening.signals.map((signal) => signal.name))];
    await emit({ type: "message.screened", agentId, data: { emailId, folder, verdict: screening.verdict, signals } });
  }
  return "stored";
}

/** What a quarantined message keeps to be filed on release: as it came, with what was known of it then. */
export interface HeldArrival {
  envelope: RecordedEnvelope;
  authentication: SenderChecks;
  scans: Scans;
}

/** Holds the message out of the agent's mailbox, and tells its reviewer; it takes none of its storage until released. */
async function holdInQuarantine(
  tx: Tx,
  services: Services,
  held: {
    arrival: Arrival;
    agentId: string;
    recipient: string;
    placement: { quarantine: QuarantineReason; detail: string };
  },
): Promise<void> {
  const { arrival, agentId, recipient, placement } = held;
  const { message, raw, envelope, authentication, scans } = arrival;
  const kept: HeldArrival = { envelope, authentication, scans };
  const summary = {
    id: randomUUID(),
    agentId,
    recipient,
    reason: placement.quarantine,
    detail: placement.detail,
    fromAddress: message.from.address,
    subject: message.subject,
    size: raw.length,
    receivedAt: services.clock.now(),
  };
  await insertQuarantined(tx, { ...summary, raw, arrival: jsonInput(kept), dedupeKey: message.dedupeKey });
  await announceQuarantined(tx, services, summary);
  services.log("info", "inbound_quarantined", { agentId, reason: placement.quarantine });
}

/** Inside a transaction: files a message a person let out of quarantine, for its one recipient. */
export async function fileReleased(
  tx: Tx,
  emit: Emit,
  services: Services,
  arrival: Arrival,
  filed: (emailId: string) => void,
): Promise<Outcome> {
  const address = arrival.recipients[0] as string;
  const batch = await FilingBatch.open(tx, services, [{ arrival, address, released: true }]);
  const outcome = await fileOne(tx, emit, services, batch, arrival, address, { filed });
  await batch.finish();
  return outcome;
}

/** What a filed email keeps of the scanners' verdicts. */
function scanColumns({ spam, malware }: Scans) {
  const scanned = spam?.status === "scanned" ? spam : null;
  return {
    spamStatus: spam?.status ?? null,
    spamAction: scanned?.action ?? null,
    spamScore: scanned?.score ?? null,
    spamRequired: scanned?.requiredScore ?? null,
    spamSymbols: scanned?.symbols ?? [],
    malwareStatus: malware?.status ?? null,
  };
}

/** The lease confirmed in the transaction, first, so that an instance taking it over waits for this commit. */
async function confirmLease(tx: Tx, lease: Lease): Promise<void> {
  if (!(await lease.confirm(tx))) throw new BatchRefused("the poller lease was taken over");
}

/**
 * Inside the filing transaction: each message filed for each of its
 * recipients, in their order, as one batch (filing-batch.ts).
 */
async function fileAll(tx: Tx, emit: Emit, services: Services, arrivals: Arrival[]): Promise<Filed[][]> {
  const items = arrivals.flatMap((arrival) =>
    arrival.recipients.map((address) => ({ arrival, address, released: false })),
  );
  const batch = await FilingBatch.open(tx, services, items);
  const filed: Filed[][] = [];
  for (const arrival of arrivals) {
    const each: Filed[] = [];
    for (const recipient of arrival.recipients) {
      each.push({ uid: arrival.uid, recipient, outcome: await fileOne(tx, emit, services, batch, arrival, recipient) });
    }
    filed.push(each);
  }
  await batch.finish();
  return filed;
}

/** Inside the filing transaction: the message filed for each of its recipients, in their order. */
export async function fileForEach(tx: Tx, emit: Emit, services: Services, arrival: Arrival): Promise<Filed[]> {
  return (await fileAll(tx, emit, services, [arrival]))[0] ?? [];
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
    const filed = (await fileAll(tx, emit, services, arrivals)).flat();
    await writeCursor(tx, mailbox, through);
    return filed;
  });
}

/** At most this many messages handed over directly share one filing transaction. */
const GROUP_LIMIT = 50;

interface Waiting {
  arrival: Arrival;
  resolve: (filed: Filed[]) => void;
  reject: (error: unknown) => void;
}

/** The messages waiting for the next filing transaction, and whether one runs. */
interface Group {
  waiting: Waiting[];
  running: boolean;
}

/** Per database: its group. */
const groups = new WeakMap<Services["sql"], Group>();

/** Files the waiting messages a group at a time, each group in one transaction, until none wait. */
async function fileGroups(services: Services, group: Group): Promise<void> {
  group.running = true;
  // A turn of the event loop first: messages whose reading or checks end in this turn join the first group and
  // share its commit, where the first one alone would otherwise commit by itself. The next groups gather
  // while the one before commits.
  await new Promise((resolve) => setImmediate(resolve));
  while (group.waiting.length > 0) {
    const taken = group.waiting.splice(0, GROUP_LIMIT);
    try {
      const filed = await withEvents(services, (tx, emit) =>
        fileAll(
          tx,
          emit,
          services,
          taken.map(({ arrival }) => arrival),
        ),
      );
      for (const [index, { resolve }] of taken.entries()) resolve(filed[index] ?? []);
    } catch (error) {
      for (const { reject } of taken) reject(error);
    }
  }
  group.running = false;
}

/**
 * Files one message handed over directly (the SMTP door, /inbound/raw), for
 * each of its recipients. Messages handed over in the same turn of the event
 * loop share one filing transaction, and those handed over while it runs wait
 * for the next one, which files them all (group commit): each is
 * answered only once that transaction committed, and if it fails, every
 * message of it fails and none is kept. A retry of a message already filed
 * for a recipient is a duplicate, not a second copy.
 */
export function fileDelivered(services: Services, arrival: Arrival): Promise<Filed[]> {
  let group = groups.get(services.sql);
  if (!group) {
    group = { waiting: [], running: false };
    groups.set(services.sql, group);
  }
  const filed = new Promise<Filed[]>((resolve, reject) => group.waiting.push({ arrival, resolve, reject }));
  if (!group.running) void fileGroups(services, group);
  return filed;
}

/** Writes the cursor while the lease is ours: an attempt begun, or a message passed over. */
export async function saveCursor(services: Services, mailbox: string, cursor: ImapCursor, lease: Lease): Promise<void> {
  await services.sql.transaction(async (tx) => {
    await confirmLease(tx, lease);
    await writeCursor(tx, mailbox, cursor);
  });
}
