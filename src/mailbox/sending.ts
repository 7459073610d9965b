import { randomUUID } from "node:crypto";
import { approveRecipients, type Draft, deleteDraftAsRead, failScheduledDraft, insertDraft } from "../db/drafts.ts";
import * as quota from "../db/quota.ts";
import { suppressedAmong } from "../db/reports.ts";
import {
  deleteSentRow,
  insertSent,
  type SentQuery,
  sendsIntoThread,
  sentById,
  sentPage,
  setProviderId,
  sentSlice as sliceOfSent,
} from "../db/sent.ts";
import type { Tx } from "../db/statements.ts";
import { ServiceError } from "../errors.ts";
import { describeFault } from "../log.ts";
import { composeMessage } from "../outbound/compose.ts";
import { type Delivery, type Envelope, type FinalOutcome, type Mailer, NotDelivered } from "../outbound/delivery.ts";
import { signMessage } from "../outbound/dkim.ts";
import { addressOf, domainOf, type Outcome } from "./agents.ts";
import { signingKeyFor } from "./domains.ts";
import { type Emit, withEvents } from "./events.ts";
import type { AnswerCodec } from "./idempotency.ts";
import { limitsOf } from "./limits.ts";
import { fileLocally, LOCAL_PROVIDER, recipientsByWay, refuseUnknownLocal } from "./local-delivery.ts";
import { lookupOf } from "./lookups.ts";
import { type Outgoing, storedMessage } from "./outgoing.ts";
import { type Page, type PageRequest, readPage, type SliceRequest } from "./pages.ts";
import { type AgentRecord, listsOf, recipientsOf, type SentRecord, splitAddresses } from "./records.ts";
import { returnPathFor } from "./return-path.ts";
import { refuseBlockedRecipients } from "./senders.ts";
import type { Services } from "./services.ts";
import { joinThread } from "./threads.ts";

// Sending: one send is one against the daily limit, whatever the number of
// recipients, and the sent message's bytes count against storage. Both are
// taken with the record before the provider is asked. What happens next
// depends on how far the message got (see outbound/smtp.ts): not delivered
// gives everything back, unconfirmed keeps it until the provider answers
// (a late refusal gives it back, a scheduled draft failed). A message the
// provider took or may deliver is never answered with a fault of ours: an
// Idempotency-Key's retry hears what happened rather than sending it again.

export interface SendQuota {
  limit: number;
  used: number;
  resetAt: Date;
}

/** What a send took, to give back if it comes to nothing. */
interface Taken {
  id: string;
  agentId: string;
  day: string;
  size: number;
  to: string[];
  subject: string;
  /** The draft it was sent from, which it took the place of. */
  draft: Draft | null;
}

/** Addresses as sent records joined them before they became lists. */
const listFromJoined = (joined: string | null | undefined) => (joined ? splitAddresses(joined) : []);

/**
 * A sent record as an idempotent answer is kept. One kept before recipients
 * became lists (keys answer for 24 hours, across an upgrade) has them joined.
 */
export const SENT_ANSWER: AnswerCodec<SentRecord> = {
  encode: (sent) => ({ ...sent, sentAt: sent.sentAt.getTime() }),
  decode: (stored) => {
    // Kept before delivery reports: sent, as every answer then was.
    const {
      to,
      cc,
      bcc,
      deliveryStatus = "sent",
      ...sent
    } = stored as SentRecord & {
      sentAt: number;
      to?: string;
      cc?: string;
      bcc?: string;
    };
    const lists =
      to === undefined ? {} : { toList: listFromJoined(to), ccList: listFromJoined(cc), bccList: listFromJoined(bcc) };
    return { ...sent, deliveryStatus, ...lists, sentAt: new Date(sent.sentAt) };
  },
};

async function dailyLimitReached(tx: Tx, agentId: string, limit: number, now: Date): Promise<ServiceError> {
  return new ServiceError("RATE_LIMITED", `Daily send limit of ${limit} reached; it resets at midnight UTC`, {
    code: "DAILY_SEND_LIMIT_EXCEEDED",
    limit,
    current: await quota.sendsOn(tx, agentId, quota.utcDay(now)),
    resetAt: quota.nextUtcMidnight(now).getTime(),
  });
}

/** Mail to an address the agent's mail bounced hard from, or that complained, is refused before anything is taken. */
async function refuseSuppressed(tx: Tx, agentId: string, out: Outgoing): Promise<void> {
  const suppressed = await suppressedAmong(tx, agentId, recipientsOf(out));
  if (suppressed.length === 0) return;
  throw new ServiceError(
    "BAD_REQUEST",
    `Mail to ${suppressed.join(", ")} bounced or was reported as spam: remove the suppression to send to it again`,
    { code: "RECIPIENT_SUPPRESSED", recipients: suppressed },
  );
}

const HOUR_MS = 3_600_000;

/** Two programs answering each other stop here: at most `limit` sends into one thread per rolling hour (0: no cap). */
async function holdThreadLimit(tx: Tx, threadId: string, limit: number, now: Date): Promise<void> {
  if (limit === 0) return;
  const { count, oldest } = await sendsIntoThread(tx, threadId, new Date(now.getTime() - HOUR_MS));
  if (count < limit) return;
  throw new ServiceError(
    "RATE_LIMITED",
    `At most ${limit} sends into one thread per hour: is another program answering?`,
    {
      code: "THREAD_SEND_LIMIT_EXCEEDED",
      limit,
      current: count,
      resetAt: (oldest ?? now).getTime() + HOUR_MS,
    },
  );
}

export async function storageFull(tx: Tx, agentId: string, limit: number): Promise<ServiceError> {
  return new ServiceError(
    "RATE_LIMITED",
    "Storage limit reached: delete emails permanently, or sent emails, to make room",
    {
      code: "STORAGE_LIMIT_EXCEEDED",
      limit,
      current: await quota.storageUsed(tx, agentId),
    },
  );
}

/**
 * A send the provider refused: its record, its daily slot and its storage go back, together, and its draft comes
 * back as it was. After a late refusal a scheduled one comes back failed, in the same transaction: its claim ran
 * out long since, and back as scheduled another instance could send it again before it was failed.
 */
async function undoSend(services: Services, taken: Taken, lateRefusal: ServiceError | null): Promise<void> {
  const now = services.clock.now();
  await withEvents(services, async (tx, emit) => {
    if ((await deleteSentRow(tx, taken.id)) === null) return;
    await quota.giveSendBack(tx, taken.agentId, taken.day);
    await quota.giveStorageBack(tx, taken.agentId, taken.size);
    if (taken.draft) await restoreDraft(tx, emit, taken.draft, lateRefusal, now);
  });
}

/**
 * The draft a send takes the place of, as it was read: gone with the storage
 * it held, or a 404 when it changed meanwhile. Mail a person approved makes
 * its recipients known: review_new_recipients holds no more mail to them.
 */
async function consumeDraft(tx: Tx, draft: Draft, now: Date): Promise<void> {
  if (!(await deleteDraftAsRead(tx, draft))) {
    throw new ServiceError("NOT_FOUND", "Draft not found: it was sent, changed or deleted meanwhile");
  }
  await quota.giveStorageBack(tx, draft.agentId, draft.size);
  if (draft.approvedAt !== null) await approveRecipients(tx, draft.agentId, recipientsOf(listsOf(draft)), now);
}

/**
 * A draft whose send was refused, as it was (a scheduled one failed, saying why, after a late refusal); it held
 * this storage a moment before, so it takes it back whatever the limit.
 */
async function restoreDraft(
  tx: Tx,
  emit: Emit,
  draft: Draft,
  lateRefusal: ServiceError | null,
  now: Date,
): Promise<void> {
  await insertDraft(tx, draft);
  if (lateRefusal) await failDraft(tx, emit, draft, lateRefusal, now);
  await quota.takeStorage(tx, draft.agentId, draft.size, quota.QUOTA_MAX);
}

/** Inside a transaction: the record gets its providerId, and the agent's event log says it went out; false when the record is gone. */
async function markSent(tx: Tx, emit: Emit, taken: Taken, providerId: string): Promise<boolean> {
  if (!(await setProviderId(tx, taken.id, providerId))) return false;
  const { id: sentId, to, subject } = taken;
  await emit({ type: "email.sent", agentId: taken.agentId, data: { sentId, to, subject } });
  return true;
}

/** The provider took it: marked sent; false when the record is gone. */
function recordAccepted(services: Services, taken: Taken, providerId: string): Promise<boolean> {
  return withEvents(services, (tx, emit) => markSent(tx, emit, taken, providerId));
}

/** The draft a scheduled send read: which, whose, and its version then. */
type ReadDraft = Pick<Draft, "id" | "agentId" | "updatedAt">;

/** Inside a transaction: a scheduled draft whose send was refused is left failed, with why, and an event says so. */
async function failDraft(tx: Tx, emit: Emit, draft: ReadDraft, refusal: ServiceError, now: Date) {
  const failure = { code: refusal.details.code ?? refusal.kind, message: refusal.message };
  if (!(await failScheduledDraft(tx, draft, failure, now))) return;
  await emit({ type: "email.send_failed", agentId: draft.agentId, data: { draftId: draft.id, ...failure } });
}

/**
 * A scheduled send that was refused: its draft, as the send read it, is left failed, with why, and an
 * `email.send_failed` event; one changed since stays as it was changed.
 */
export function failScheduled(services: Services, draft: ReadDraft, refusal: ServiceError) {
  const now = services.clock.now();
  return withEvents(services, (tx, emit) => failDraft(tx, emit, draft, refusal, now));
}

/** A send the provider refused after all: undone, and a scheduled draft it was sent from is back, failed. */
function undoLate(services: Services, taken: Taken): Promise<void> {
  const refusal = new ServiceError("INTERNAL_SERVER_ERROR", "Delivery failed: the email provider refused it late");
  return undoSend(services, taken, refusal);
}

/** The provider's late answer to an unconfirmed send: it gets its providerId, or is undone. */
async function settleLate(services: Services, taken: Taken, messageId: string, final: FinalOutcome): Promise<void> {
  const { log } = services;
  try {
    if (final.outcome === "accepted") await recordAccepted(services, taken, final.queueId ?? messageId);
    else if (final.outcome === "refused") await undoLate(services, taken);
    log(final.outcome === "accepted" ? "info" : "warn", "delivery_settled", {
      agentId: taken.agentId,
      sentId: taken.id,
      outcome: final.outcome,
    });
  } catch (error) {
    log("error", "delivery_settle_failed", { sentId: taken.id, error: describeFault(error) });
  }
}

/** Takes the day's send, the storage and the record in one transaction: storage always matches the records kept. */
async function recordSend(
  services: Services,
  agent: AgentRecord,
  out: Outgoing,
  sent: { messageId: string; raw: Buffer; now: Date; draft: Draft | null },
) {
  const { messageId, raw, now, draft } = sent;
  const { sql, config } = services;
  const taken = {
    id: randomUUID(),
    agentId: agent.id,
    day: quota.utcDay(now),
    size: raw.length,
    to: out.to,
    subject: out.subject,
    draft,
  };
  const limits = limitsOf(agent, config);
  const refused = (error: ServiceError) => {
    services.metrics.quotaRefused(String(error.details.code));
    return error;
  };
  const row = await sql.transaction(async (tx) => {
    await refuseSuppressed(tx, agent.id, out);
    await refuseBlockedRecipients(tx, services, agent, recipientsOf(out));
    if (draft) await consumeDraft(tx, draft, now);
    if (!(await quota.takeSend(tx, agent.id, taken.day, limits.dailySends))) {
      throw refused(await dailyLimitReached(tx, agent.id, limits.dailySends, now));
    }
    if (!(await quota.takeStorage(tx, agent.id, raw.length, limits.storageBytes))) {
      throw refused(await storageFull(tx, agent.id, limits.storageBytes));
    }
    const threading = { agentId: agent.id, messageId, subject: out.subject, at: now };
    const threadId = await joinThread(tx, { ...threading, ...out });
    // A send that names no message it answers starts a thread of its own: no cap to hold.
    const answers = out.threadId !== null || out.inReplyTo !== null || out.references.length > 0;
    if (answers) await holdThreadLimit(tx, threadId, config.threadSendLimit, now);
    const row = {
      id: taken.id,
      agentId: agent.id,
      ...storedMessage(out),
      messageId,
      size: raw.length,
      sentAt: now,
      inReplyTo: out.inReplyTo,
      threadId,
    };
    await insertSent(tx, row);
    return row;
  });
  return { ...taken, row };
}

/** The message DKIM-signed with its domain's key, when the domain has one; the bytes stored are the bytes sent. */
export async function signed(services: Services, domain: string, raw: Buffer): Promise<Buffer> {
  const key = await signingKeyFor(services, domain);
  return key ? signMessage(raw, key) : raw;
}

/** The provider, when some recipients are elsewhere (503 when none is configured); null when all are here. */
function providerFor({ mailer }: Services, remote: string[]): Mailer | null {
  if (remote.length === 0) return null;
  if (mailer) return mailer;
  throw new ServiceError(
    "SERVICE_UNAVAILABLE",
    "Sending is not configured on this server: only mail to its own agents goes (SMTP_URL is not set)",
  );
}

/** Hands the message to the provider for the recipients elsewhere; a refusal undoes the send and is thrown. */
async function sendRemote(
  services: Services,
  mailer: Mailer,
  taken: Taken,
  envelope: Envelope,
  raw: Buffer,
): Promise<Delivery> {
  try {
    return await mailer.send(envelope, raw);
  } catch (error) {
    if (!(error instanceof NotDelivered)) throw error;
    const what = error.unreachable ? "could not be reached" : "did not accept the message";
    await undoSend(services, taken, null);
    services.log("warn", "delivery_failed", { agentId: taken.agentId, sentId: taken.id, error: error.message });
    throw new ServiceError("INTERNAL_SERVER_ERROR", `Delivery failed: the email provider ${what}`);
  }
}

/**
 * Sends a checked message from the agent's address; from a draft, in its
 * place. Recipients elsewhere get it through the configured provider; agents
 * of this instance get it filed at once (local-delivery.ts), in the
 * transaction that marks it sent.
 */
export async function deliver(
  services: Services,
  agent: AgentRecord,
  out: Outgoing,
  draft: Draft | null = null,
): Promise<SentRecord> {
  const { config, clock, log } = services;
  const { local, remote } = await recipientsByWay(services, [...out.to, ...out.cc, ...out.bcc]);
  const mailer = providerFor(services, remote);
  await refuseUnknownLocal(services, local);
  const now = clock.now();
  const from = addressOf(agent, config);
  const domain = domainOf(agent, config);
  const messageId = `<${randomUUID()}@${domain}>`;
  const raw = await signed(
    services,
    domain,
    await composeMessage({ ...out, from: { name: agent.name, address: from }, messageId, date: now }),
  );
  // Read before anything is taken, as the recipients' side reads it.
  const message = local.length > 0 ? await services.reader.read(raw) : null;
  const taken = await recordSend(services, agent, out, { messageId, raw, now, draft });
  // The envelope's sender is the email's own return path, where its reports are believed; From stays the agent's.
  const returnPath = await returnPathFor(services, taken.id, domain);
  const delivery = mailer
    ? await sendRemote(services, mailer, taken, { from: returnPath, to: remote }, raw)
    : ({ outcome: "accepted", queueId: LOCAL_PROVIDER } as const);
  const providerId = delivery.outcome === "accepted" ? (delivery.queueId ?? messageId) : null;
  const { threadId } = taken.row;
  const send = { sentId: taken.id, agentId: agent.id, threadId, returnPath, raw, recipients: local, now };
  if (delivery.outcome === "unconfirmed") {
    void delivery.final.then((final) => settleLate(services, taken, messageId, final));
    log("warn", "delivery_unconfirmed", { agentId: agent.id, sentId: taken.id });
  }
  const deliveryStatus = await withEvents(services, async (tx, emit) => {
    const status = message ? await fileLocally(tx, emit, services, { ...send, message }) : "sent";
    // The agent was deleted while its message went out.
    if (providerId !== null && !(await markSent(tx, emit, taken, providerId))) {
      throw new ServiceError("NOT_FOUND", "The agent or email was deleted meanwhile");
    }
    return status;
  }).catch((fault: unknown) => {
    throw mailer ? noteUnrecorded(services, taken, delivery.outcome, fault) : fault;
  });
  if (delivery.outcome === "unconfirmed") throw unconfirmed(taken);
  // The row as written, rather than read back: a read through Prisma cost a send a fifth of its time.
  return { ...taken.row, providerId, deliveryStatus };
}

/** A send the provider did not confirm in time: kept as sent, its late answer settles it. */
const unconfirmed = (taken: Taken) =>
  new ServiceError(
    "INTERNAL_SERVER_ERROR",
    `The email provider did not confirm the message in time, so it may still be delivered. It is kept as sent email ${taken.id}, counted against today's limit, with providerId null until the provider answers: check the sent list before sending it again.`,
  );

/**
 * Logs that recording a send the provider took (or may deliver) failed, and gives what to answer: an answer of
 * ours, so that a retry with the same Idempotency-Key hears it rather than sending the message again (a fault
 * would let the key go).
 */
function noteUnrecorded({ log }: Services, taken: Taken, outcome: Delivery["outcome"], fault: unknown): unknown {
  if (fault instanceof ServiceError) return fault;
  log("error", "send_record_failed", { agentId: taken.agentId, sentId: taken.id, error: describeFault(fault) });
  if (outcome === "unconfirmed") return unconfirmed(taken);
  return new ServiceError(
    "INTERNAL_SERVER_ERROR",
    `The email provider took the message, but recording it failed. It is kept as sent email ${taken.id}, counted against today's limit, with providerId null: check the sent list before sending it again.`,
  );
}

/** One sent email, with what reports said of its recipients when the query asks. */
export const getSent = lookupOf(
  (store, agent: { id: string }, id, query?: SentQuery) => sentById(store, agent.id, id, query),
  "Sent email",
);

/** Sent mail, newest first; total counts every send, not only today's. */
export async function listSent(
  services: Services,
  agent: { id: string },
  request: PageRequest,
  query: SentQuery,
): Promise<Page<SentRecord>> {
  return readPage(request, (window) => sentPage(services, agent.id, window, query));
}

/** Sent mail after or before a position, for cursor paging. */
export function sentSlice(
  services: Services,
  agent: { id: string },
  request: SliceRequest,
  query: SentQuery,
): Promise<SentRecord[]> {
  return sliceOfSent(services, agent.id, request, query);
}

/** A sent email's record, for good, freeing its storage. */
export async function deleteSent({ sql }: Services, agent: { id: string }, sentId: string): Promise<Outcome> {
  return sql.transaction(async (tx) => {
    const size = await deleteSentRow(tx, sentId, agent.id);
    if (size === null) throw new ServiceError("NOT_FOUND", "Sent email not found");
    await quota.giveStorageBack(tx, agent.id, size);
    return { success: true, message: "Sent email permanently deleted" };
  });
}

/** Where the agent stands against the daily send limit. */
export async function sendQuota({ sql, clock, config }: Services, agent: AgentRecord): Promise<SendQuota> {
  const now = clock.now();
  const used = await quota.sendsOn(sql, agent.id, quota.utcDay(now));
  return { limit: limitsOf(agent, config).dailySends, used, resetAt: quota.nextUtcMidnight(now) };
}

export type { SentQuery };
