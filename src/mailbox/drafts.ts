import { randomUUID } from "node:crypto";
import {
  anyDraftDue,
  changedAt,
  claimDueDrafts,
  type Draft,
  type DraftQuery,
  type DraftReader,
  type DraftRef,
  deleteDraftRow,
  draftById,
  draftPage,
  everyDraftOf,
  insertDraft,
  lockDraft,
  saveDraft,
  draftSlice as sliceOfDrafts,
  storedBytes,
} from "../db/drafts.ts";
import { giveStorageBack, takeStorage } from "../db/quota.ts";
import type { Tx } from "../db/statements.ts";
import { asServiceError, ServiceError } from "../errors.ts";
import { describeFault } from "../log.ts";
import { findAgent } from "./admin.ts";
import { addressOf, type Outcome } from "./agents.ts";
import { answering, replyRecipients } from "./answers.ts";
import { assertAgentMayChange, holding, mustHold, recordHold } from "./approval.ts";
import { type DueWork, doDueWork } from "./due-work.ts";
import { getEmail, type Reader } from "./emails.ts";
import { withEvents } from "./events.ts";
import type { Link } from "./keys.ts";
import { limitsOf } from "./limits.ts";
import { lookupOf } from "./lookups.ts";
import {
  type AttachmentInput,
  type AutoSubmittedHeader,
  checkedAddressLists,
  checkedAttachments,
  checkedBody,
  checkedOutgoing,
  checkedRecipients,
  checkedReplyTo,
  checkedSubject,
  type Outgoing,
  storedMessage,
} from "./outgoing.ts";
import { type Page, type PageRequest, readPage, type SliceRequest } from "./pages.ts";
import {
  type AgentRecord,
  addressesOf,
  keptAttachmentsOf,
  listsOf,
  type SentRecord,
  storedAttachments,
} from "./records.ts";
import { closeLink } from "./review.ts";
import { deliver, failScheduled, storageFull } from "./sending.ts";
import type { Services } from "./services.ts";
import { replySubject } from "./subjects.ts";

// Drafts: a message the agent writes now and sends later. Each field is held
// to its form as it is written (addresses, one-line subject, base64
// attachments), the whole as POST /send holds a message when it is sent. A
// draft takes storage like sent mail; sending it gives that back in the
// transaction that takes the send, so it is sent once however often it is
// asked.

export type DraftRecord = Draft;
export type { DraftQuery, DraftReader };

/** A draft's fields as a client writes them; left out keeps (or is empty), null clears. */
export interface DraftInput {
  to?: string[] | null;
  cc?: string[] | null;
  bcc?: string[] | null;
  subject?: string | null;
  text?: string | null;
  html?: string | null;
  replyTo?: string | null;
  attachments?: AttachmentInput[] | null;
  /** The id of a received email it answers. */
  inReplyTo?: string | null;
  /** When to send it; null: not scheduled. */
  sendAt?: Date | null;
}

/** The fields a draft stores, checked: what a write may change, and how it is threaded and marked. */
const DRAFT_FIELDS = [
  "toList",
  "ccList",
  "bccList",
  "subject",
  "bodyText",
  "bodyHtml",
  "replyTo",
  "attachments",
  "inReplyTo",
  "inReplyToMessageId",
  "references",
  "threadId",
  "autoSubmitted",
] as const satisfies readonly (keyof Draft)[];

type DraftFields = Pick<Draft, (typeof DRAFT_FIELDS)[number]>;

/**
 * A send that waits, as its answer tells it: the draft it waits as, for its
 * time (scheduled) or for a person (pending_approval). Never the review link:
 * that goes to the person who decides.
 */
export interface PendingSend {
  id: string;
  agentId: string;
  status: string;
  sendAt: Date | null;
  to: string[];
  subject: string;
}

/** What asking to send answers: the sent email, or the draft it waits as. */
export type SendResult = SentRecord | PendingSend;

export const isPending = (result: SendResult): result is PendingSend => "status" in result;

/** A draft about to be written or sent, and its review link when it is being held. */
interface Staged {
  draft: Draft;
  link: Link | null;
}

function pendingOf(draft: Draft): PendingSend {
  const { id, agentId, sendStatus: status, sendAt, subject } = draft;
  return { id, agentId, status, sendAt, to: addressesOf(draft.toList), subject: subject ?? "" };
}

const notFound = () => new ServiceError("NOT_FOUND", "Draft not found");

/** How far ahead a send may be scheduled. */
export const MAX_SCHEDULE_DAYS = 30;
const MAX_SCHEDULE_MS = MAX_SCHEDULE_DAYS * 24 * 3_600_000;

type Schedule = Pick<Draft, "sendStatus" | "sendAt" | "claimedUntil" | "failureCode" | "failureMessage">;

/** What a sendAt makes of a draft: scheduled (a time past is now), or a plain draft again with null; left out keeps it. */
function scheduleOf(sendAt: Date | null | undefined, now: Date): Schedule | null {
  if (sendAt === undefined) return null;
  const cleared = { claimedUntil: null, failureCode: null, failureMessage: null };
  if (sendAt === null) return { sendStatus: "draft", sendAt: null, ...cleared };
  if (sendAt.getTime() > now.getTime() + MAX_SCHEDULE_MS) {
    throw new ServiceError("BAD_REQUEST", `sendAt may be at most ${MAX_SCHEDULE_DAYS} days ahead`);
  }
  return { sendStatus: "scheduled", sendAt: sendAt < now ? now : sendAt, ...cleared };
}

/** The stored fields a client's input changes, each held to its form. */
function checkedFields(input: DraftInput, served: readonly string[]): Partial<DraftFields> {
  const lists = checkedAddressLists(input, served);
  const given = <K extends keyof DraftInput>(key: K) => input[key] !== undefined;
  const fields: Partial<DraftFields> = {};
  if (given("to")) fields.toList = lists.to;
  if (given("cc")) fields.ccList = lists.cc;
  if (given("bcc")) fields.bccList = lists.bcc;
  if (given("subject")) fields.subject = input.subject ? checkedSubject(input.subject) : null;
  if (given("text")) fields.bodyText = input.text || null;
  if (given("html")) fields.bodyHtml = input.html || null;
  if (given("replyTo")) fields.replyTo = checkedReplyTo(input.replyTo, served);
  if (given("attachments")) {
    checkedAttachments(input.attachments);
    fields.attachments = storedAttachments(input.attachments ?? []);
  }
  return fields;
}

/** A checked message as a draft keeps it: its attachments in base64, its threading as worked out. */
function fieldsOfOutgoing(out: Outgoing, inReplyTo: string | null): DraftFields {
  const attachments = out.attachments.map((file) => ({ ...file, content: file.content.toString("base64") }));
  return {
    ...storedMessage(out),
    attachments: storedAttachments(attachments),
    inReplyTo,
    inReplyToMessageId: out.inReplyTo,
    threadId: out.threadId,
    autoSubmitted: out.autoSubmitted,
  };
}

/** Bytes a draft counts against storage: its fields as stored, its attachments as the bytes they hold. */
function sizeOf(draft: DraftFields): number {
  // Only the stored fields: a whole draft row also holds its own size, times and status.
  const { attachments, ...fields } = Object.fromEntries(DRAFT_FIELDS.map((name) => [name, draft[name]])) as DraftFields;
  const files = keptAttachmentsOf(attachments).reduce(
    (sum, file) => sum + Buffer.byteLength(file.content, "base64"),
    0,
  );
  return storedBytes(fields) + files;
}

/** Takes or gives back the storage a draft's new size differs by; refused past the agent's limit. */
async function resize(tx: Tx, services: Services, agent: AgentRecord, before: number, after: number): Promise<void> {
  const limit = limitsOf(agent, services.config).storageBytes;
  if (after < before) await giveStorageBack(tx, agent.id, before - after);
  else if (after > before && !(await takeStorage(tx, agent.id, after - before, limit))) {
    throw await storageFull(tx, agent.id, limit);
  }
}

/** A new draft with its fields, as it is before anything is asked of it. */
function newDraft(agent: AgentRecord, fields: DraftFields, now: Date): Draft {
  return {
    id: randomUUID(),
    agentId: agent.id,
    ...fields,
    forwards: false,
    sendStatus: "draft",
    sendAt: null,
    claimedUntil: null,
    failureCode: null,
    failureMessage: null,
    reviewExpiresAt: null,
    approvedAt: null,
    rejectReason: null,
    size: sizeOf(fields),
    createdAt: now,
    updatedAt: now,
  };
}

/**
 * Whether a draft about to go (now, or scheduled) is held instead, because
 * the agent's policy says a person decides first and no person approved it
 * as it is: what holding writes, and the review link; null when it goes.
 */
async function holdOf(services: Services, agent: AgentRecord, draft: Draft, going: boolean) {
  if (!going || draft.approvedAt !== null || !(await mustHold(services, agent, listsOf(draft)))) return null;
  return holding(services.config, services.clock.now());
}

/** A draft about to go, held instead when holdOf says so; one not about to go stays as it is. */
async function applyHoldPolicy(services: Services, agent: AgentRecord, draft: Draft, going: boolean): Promise<Staged> {
  const hold = await holdOf(services, agent, draft, going);
  return hold ? { draft: { ...draft, ...hold.fields }, link: hold.link } : { draft, link: null };
}

/** The draft held for a person, with its review link. */
function markHeld({ config }: Services, draft: Draft, now: Date): Staged {
  const { fields, link } = holding(config, now);
  return { draft: { ...draft, ...fields }, link };
}

/** Writes a new draft, taking its storage, with its hold when it is held. */
async function insertStaged(services: Services, agent: AgentRecord, { draft, link }: Staged) {
  await withEvents(services, async (tx, emit) => {
    await resize(tx, services, agent, 0, draft.size);
    await insertDraft(tx, draft);
    if (link !== null) await recordHold(tx, emit, services, agent, draft, link);
  });
}

/** A new draft; with inReplyTo, addressed and titled as a reply to that email unless it says otherwise. */
export async function createDraft(
  services: Services,
  agent: AgentRecord & Reader,
  input: DraftInput,
): Promise<DraftRecord> {
  const now = services.clock.now();
  const answered = input.inReplyTo == null ? null : await getEmail(services, agent, input.inReplyTo);
  const reply = answered && replyRecipients(answered, addressOf(agent, services.config), false);
  const threading = answered ? answering(answered) : { inReplyTo: null, references: [], threadId: null };
  const fields: DraftFields = {
    toList: reply?.to ?? [],
    ccList: reply?.cc ?? [],
    bccList: [],
    subject: answered ? replySubject(answered.subject) : null,
    bodyText: null,
    bodyHtml: null,
    replyTo: null,
    attachments: [],
    inReplyTo: answered?.id ?? null,
    inReplyToMessageId: threading.inReplyTo,
    references: threading.references.join(" ") || null,
    threadId: threading.threadId,
    autoSubmitted: answered ? "auto-replied" : "auto-generated",
    ...checkedFields(input, services.config.mailDomains),
  };
  const draft = { ...newDraft(agent, fields, now), ...scheduleOf(input.sendAt, now) };
  const scheduled = draft.sendStatus === "scheduled";
  if (scheduled) checkSendable(draft, services.config.mailDomains);
  const made = await applyHoldPolicy(services, agent, draft, scheduled);
  await insertStaged(services, agent, made);
  return made.draft;
}

/**
 * A send asked for later, or held for a person: kept as a draft of the
 * checked message, scheduled at sendAt (null: it goes once approved). `hold`
 * when the caller already knows the policy holds it.
 */
export async function keepForLater(
  services: Services,
  agent: AgentRecord,
  out: Outgoing,
  send: { sendAt: Date | null; inReplyTo: string | null; forwards: boolean; hold: boolean },
): Promise<PendingSend> {
  const now = services.clock.now();
  const draft = {
    ...newDraft(agent, fieldsOfOutgoing(out, send.inReplyTo), now),
    forwards: send.forwards,
    ...scheduleOf(send.sendAt, now),
  };
  const made = send.hold ? markHeld(services, draft, now) : await applyHoldPolicy(services, agent, draft, true);
  await insertStaged(services, agent, made);
  return pendingOf(made.draft);
}

/** One of the drafts the reader is shown. */
export const getDraft = lookupOf<DraftReader, DraftRecord, DraftQuery>(draftById, "Draft");

/** The draft, or null once it is gone (sent or deleted). */
export function findDraft(
  services: Services,
  reader: DraftReader,
  draftId: string,
  query: DraftQuery = {},
): Promise<DraftRecord | null> {
  return draftById(services, reader, draftId, query);
}

/** The drafts the reader is shown, newest first. */
export async function listDrafts(
  services: Services,
  reader: DraftReader,
  request: PageRequest,
  query: DraftQuery = {},
): Promise<Page<DraftRecord>> {
  return readPage(request, (window) => draftPage(services, reader, window, query));
}

/** Drafts after or before a position, for cursor paging. */
export function draftSlice(services: Services, reader: DraftReader, request: SliceRequest, query: DraftQuery) {
  return sliceOfDrafts(services, reader, request, query);
}

/**
 * Changes the fields given; null clears one. inReplyTo is fixed once the
 * draft is made; a held or rejected draft is not the agent's to change. A
 * change takes back a person's approval: scheduled, it is held again if the policy says so.
 */
export async function updateDraft(
  services: Services,
  agent: AgentRecord & DraftReader,
  draftId: string,
  input: DraftInput,
): Promise<DraftRecord> {
  if (input.inReplyTo !== undefined) {
    throw new ServiceError(
      "BAD_REQUEST",
      "inReplyTo is set when a draft is made: make a new draft to answer another email",
    );
  }
  // A change takes back an approval, and lets go of a claim: a send under way finds the draft changed and stops.
  const change = { ...checkedFields(input, services.config.mailDomains), approvedAt: null, claimedUntil: null };
  const now = services.clock.now();
  const schedule = scheduleOf(input.sendAt, now);
  const before = await getDraft(services, agent, draftId);
  assertAgentMayChange(before);
  const draft = { ...before, ...change, ...schedule };
  const scheduled = draft.sendStatus === "scheduled";
  if (scheduled) checkSendable(draft, services.config.mailDomains);
  const hold = await holdOf(services, agent, draft, scheduled);
  return withEvents(services, async (tx, emit) => {
    const locked = await lockDraft(tx, agent.id, draftId);
    if (!locked) throw notFound();
    assertAgentMayChange(locked);
    const changed: Draft = { ...locked, ...change, ...schedule, ...hold?.fields, updatedAt: changedAt(locked, now) };
    changed.size = sizeOf(changed);
    await resize(tx, services, agent, locked.size, changed.size);
    await saveDraft(tx, changed);
    if (hold) await recordHold(tx, emit, services, agent, changed, hold.link);
    return changed;
  });
}

/** Deletes the draft, giving back its storage; a held one is withdrawn, its review link dead. */
export async function deleteDraft(services: Services, reader: DraftReader, draftId: string): Promise<Outcome> {
  const now = services.clock.now();
  // Whether it is shown to the reader never changes: read before, as a draft that changes is read before.
  await getDraft(services, reader, draftId);
  return services.sql.transaction(async (tx) => {
    const draft = await lockDraft(tx, reader.id, draftId);
    if (!draft) throw notFound();
    await deleteDraftRow(tx, reader.id, draftId);
    await giveStorageBack(tx, reader.id, draft.size);
    await closeLink(tx, { draftId }, { decision: "withdrawn", at: now, reason: null });
    return { success: true, message: "Draft deleted" };
  });
}

/** The draft as a message to send, held to what POST /send holds a message to. */
function checkSendable(draft: Draft, served: readonly string[]): Outgoing {
  const attachments = keptAttachmentsOf(draft.attachments);
  return checkedOutgoing({
    ...checkedRecipients(listsOf(draft), served),
    subject: checkedSubject(draft.subject ?? ""),
    ...checkedBody({ text: draft.bodyText, html: draft.bodyHtml, attachments }),
    replyTo: draft.replyTo,
    inReplyTo: draft.inReplyToMessageId,
    references: draft.references?.split(" ") ?? [],
    threadId: draft.threadId,
    autoSubmitted: draft.autoSubmitted as AutoSubmittedHeader,
  });
}

/**
 * Sends the draft as read, in its place (a 404 when it changed since); or
 * holds it, as read, when the agent's policy says a person decides first.
 */
async function sendOrHold(services: Services, agent: AgentRecord, draft: Draft): Promise<SendResult> {
  const out = checkSendable(draft, services.config.mailDomains);
  const { draft: stage, link } = await applyHoldPolicy(services, agent, draft, true);
  if (link === null) return deliver(services, agent, out, draft);
  // Moved on from the version read, which the lock below finds still in place.
  const kept = { ...stage, updatedAt: changedAt(draft, services.clock.now()) };
  await withEvents(services, async (tx, emit) => {
    const locked = await lockDraft(tx, agent.id, draft.id);
    if (!locked || locked.updatedAt.getTime() !== draft.updatedAt.getTime()) {
      throw new ServiceError("NOT_FOUND", "Draft not found: it was sent, changed or deleted meanwhile");
    }
    await saveDraft(tx, kept);
    await recordHold(tx, emit, services, agent, kept, link);
  });
  return pendingOf(kept);
}

/**
 * Sends the draft as POST /send sends a message (the draft is gone, the sent
 * email remains), or holds it for a person. A draft a person approved for a
 * later time goes then: sent earlier, it is not what they approved, and it
 * is held again when the policy says so.
 */
export async function sendDraft(
  services: Services,
  agent: AgentRecord & DraftReader,
  draftId: string,
): Promise<SendResult> {
  const draft = await getDraft(services, agent, draftId);
  assertAgentMayChange(draft);
  const early = draft.approvedAt !== null && draft.sendAt !== null && draft.sendAt > services.clock.now();
  return sendOrHold(services, agent, early ? { ...draft, approvedAt: null } : draft);
}

/** Scheduled drafts that came due: a claim lasts past a send's longest wait for the provider. */
const DUE_DRAFTS: DueWork<DraftRef> = {
  turn: "scheduled-sends",
  claimMs: 60_000,
  batch: 20,
  anyDue: anyDraftDue,
  claim: claimDueDrafts,
};

/**
 * Sends the scheduled drafts that have come due, each once across instances:
 * claimed in the database (instances taking turns), and removed in the
 * transaction that takes its send. One the send refuses is left failed, with
 * why, and an `email.send_failed` event, unless it was changed since it was
 * read; one that goes emits `email.sent` as any send does. The number it
 * claimed.
 */
export function sendDueDrafts(services: Services): Promise<number> {
  return doDueWork(services, DUE_DRAFTS, (draft) => sendClaimed(services, draft));
}

/**
 * Sends a scheduled draft this instance claimed, or holds it when the policy
 * now says a person decides first (one a person approved goes); one the send
 * refuses is left failed, as it was read.
 */
async function sendClaimed(services: Services, { id, agentId }: DraftRef): Promise<void> {
  let read: Draft | undefined;
  try {
    const agent = await findAgent(services, agentId);
    read = await getDraft(services, everyDraftOf(agent), id);
    if (read.sendStatus === "scheduled") await sendOrHold(services, agent, read);
  } catch (error) {
    const refusal = asServiceError(error, (fault) =>
      services.log("error", "scheduled_send_failed", { draftId: id, error: describeFault(fault) }),
    );
    // Deleted, changed or sent meanwhile: nothing of it is left to fail. Not read: its claim runs out, and it is tried again.
    if (read && refusal.kind !== "NOT_FOUND") await failScheduled(services, read, refusal);
  }
}
