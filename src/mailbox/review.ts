import { createHash } from "node:crypto";
import {
  changedAt,
  type Draft,
  type DraftRef,
  draftById,
  everyDraftOf,
  heldPage,
  heldPast,
  lockDraft,
  saveDraft,
} from "../db/drafts.ts";
import {
  decideLink,
  deleteNoticesOf,
  type HeldRef,
  type LinkDecision,
  linkByHash,
  linkIn,
  type ReviewLink,
} from "../db/reviews.ts";
import type { Tx } from "../db/statements.ts";
import { ServiceError } from "../errors.ts";
import { findAgent } from "./admin.ts";
import { addressOf } from "./agents.ts";
import { type Emit, withEvents } from "./events.ts";
import { hashApiKey, REVIEW_TOKEN } from "./keys.ts";
import { type Page, type PageRequest, readPage } from "./pages.ts";
import { type AgentRecord, keptAttachmentsOf } from "./records.ts";
import type { Services } from "./services.ts";

// Deciding a held message: a person with its review link, or the operator.
// (A link may be for a quarantined message instead: quarantine.ts decides
// those, with openLink and closeLink from here.)
// Approved, it is scheduled for now (or its sendAt): the scheduled-send job
// of whichever instance claims it sends it within a second or two, counted
// then, as any scheduled send. Rejected, it stays as a draft the agent can
// read, with why.
// A message is decided once: the second decision is refused, never a second
// send. Its link remembers what was decided and when, so that it says so
// when opened again, after the draft is gone too.

/** What a person reviewing a held message reads: the message, and who sends it. */
export interface Review {
  draft: Draft;
  agent: AgentRecord;
  from: string;
}

/** What a decision came to. */
export interface Decision {
  draftId: string;
  /** scheduled (approved: it goes at sendAt, now or later) or rejected. */
  status: string;
  sendAt: Date | null;
  reason: string | null;
}

export const unknownLink = () =>
  new ServiceError("NOT_FOUND", "This review link is not valid: it was never one of this service's");

const DECIDED: Record<LinkDecision, string> = {
  approved: "already approved",
  rejected: "already rejected",
  expired: "already rejected as expired: nobody decided in time",
  withdrawn: "withdrawn by the agent",
  released: "already released from quarantine into the agent's inbox",
  deleted: "already deleted from quarantine",
};

/** A link that decides nothing (any more): 410 saying what was decided and when, or 404 for no link of ours. */
function closed(link: ReviewLink | null): ServiceError {
  if (!link?.decision || !link.decidedAt) return unknownLink();
  const what = DECIDED[link.decision as LinkDecision];
  const why = link.decision === "rejected" && link.reason ? ` (${link.reason})` : "";
  return new ServiceError("GONE", `This message was ${what}, on ${link.decidedAt.toUTCString()}${why}`, {
    code: "ALREADY_DECIDED",
  });
}

/** A draft the operator asks to decide that is not (or no longer) held: 410 when it was decided, else 404. */
function notHeld(draft: Draft): ServiceError {
  if (draft.sendStatus === "rejected") {
    const how = draft.rejectReason === "expired" ? "rejected as expired: nobody decided in time" : "rejected";
    return new ServiceError("GONE", `This message was already ${how}`, { code: "ALREADY_DECIDED" });
  }
  if (draft.approvedAt !== null) {
    return new ServiceError("GONE", "This message was already approved", { code: "ALREADY_DECIDED" });
  }
  return new ServiceError("NOT_FOUND", "This message is not held for a decision");
}

const hashOf = (token: string) => (REVIEW_TOKEN.test(token) ? hashApiKey(token) : null);

/** Overdue: held past its deadline and not decided. */
const overdue = (draft: Draft, now: Date) =>
  draft.sendStatus === "pending_approval" && draft.reviewExpiresAt !== null && draft.reviewExpiresAt < now;

/** A review link that still decides its message: 404 for no link of ours, 410 once decided. */
export async function openLink(services: Services, token: string): Promise<ReviewLink> {
  const hash = hashOf(token);
  const link = hash === null ? null : await linkByHash(services, hash);
  if (!link || link.decision !== null) throw closed(link);
  return link;
}

/** Why a link no longer decides, as it now is (a decision raced this one): 410, or `fallback` when it is still open. */
export async function nowClosed(services: Services, link: ReviewLink, fallback: ServiceError): Promise<ServiceError> {
  const now = await linkByHash(services, link.tokenHash);
  return now?.decision ? closed(now) : fallback;
}

/** The held draft a review link is for: 404 for no link of ours (or one for quarantine), 410 once decided (or expired, which it decides). */
export async function openReview(services: Services, token: string): Promise<Review> {
  const link = await openLink(services, token);
  if (link.draftId === null) throw unknownLink();
  const draft = await draftById(services, everyDraftOf({ id: link.agentId }), link.draftId);
  if (!draft) throw unknownLink();
  if (overdue(draft, services.clock.now())) {
    await expire(services, draft);
    throw closed(await linkByHash(services, link.tokenHash));
  }
  const agent = await findAgent(services, draft.agentId);
  return { draft, agent, from: addressOf(agent, services.config) };
}

/** One attachment of the message a review link is for, to open before deciding: 404 when it has none at that place. */
export async function openReviewAttachment(services: Services, token: string, index: number) {
  const { draft } = await openReview(services, token);
  const file = keptAttachmentsOf(draft.attachments)[index];
  if (!file?.content) throw new ServiceError("NOT_FOUND", "Attachment not found");
  const content = Buffer.from(file.content, "base64");
  const sha256 = createHash("sha256").update(content).digest("hex");
  const record = {
    filename: file.filename ?? "attachment",
    contentType: file.contentType ?? "application/octet-stream",
  };
  return { record: { ...record, sha256 }, content };
}

/** Inside a decision's transaction: the message's open link says what was decided, and its notices still on their way go. */
export async function closeLink(
  tx: Tx,
  held: HeldRef,
  decision: { decision: LinkDecision; at: Date; reason: string | null },
): Promise<void> {
  await decideLink(tx, held, decision);
  await deleteNoticesOf(tx, held);
}

type Verdict = { approve: true } | { approve: false; reason: string | null };

/** Rejected by a person (with why, if they said), or as expired: its reason is then "expired". */
async function reject(tx: Tx, emit: Emit, draft: Draft, now: Date, verdict: Rejection): Promise<Draft> {
  const reason = verdict.decision === "expired" ? "expired" : verdict.reason;
  const rejected = {
    ...draft,
    sendStatus: "rejected",
    rejectReason: reason,
    reviewExpiresAt: null,
    updatedAt: changedAt(draft, now),
  };
  await saveDraft(tx, rejected);
  await closeLink(tx, { draftId: draft.id }, { decision: verdict.decision, at: now, reason: verdict.reason });
  await emit({ type: "email.rejected", agentId: draft.agentId, data: { draftId: draft.id, reason } });
  return rejected;
}

type Rejection = { decision: "rejected"; reason: string | null } | { decision: "expired"; reason: null };
const EXPIRED: Rejection = { decision: "expired", reason: null };

/** When a held draft is to go if approved: its sendAt while that is still ahead; null for at once. */
export function laterSendAt(draft: { sendAt: Date | null }, now: Date): Date | null {
  return draft.sendAt !== null && draft.sendAt > now ? draft.sendAt : null;
}

/** Approved: scheduled for its sendAt, or now. Once it is sent, its recipients count as approved (sending.ts). */
async function approve(tx: Tx, emit: Emit, draft: Draft, now: Date): Promise<Draft> {
  const sendAt = laterSendAt(draft, now) ?? now;
  const approved = {
    ...draft,
    sendStatus: "scheduled",
    sendAt,
    approvedAt: now,
    reviewExpiresAt: null,
    updatedAt: changedAt(draft, now),
  };
  await saveDraft(tx, approved);
  await closeLink(tx, { draftId: draft.id }, { decision: "approved", at: now, reason: null });
  const data = { draftId: draft.id, sendAt: sendAt.getTime() };
  await emit({ type: "email.approved", agentId: draft.agentId, data });
  return approved;
}

/** Decides the held draft `lock` finds (and locks), once; `lock` refuses one that is not held. */
async function decide(services: Services, lock: (tx: Tx) => Promise<Draft>, verdict: Verdict) {
  const now = services.clock.now();
  const { draft, expired } = await withEvents(services, async (tx, emit) => {
    const held = await lock(tx);
    if (overdue(held, now)) return { draft: await reject(tx, emit, held, now, EXPIRED), expired: true };
    const decision = verdict.approve
      ? await approve(tx, emit, held, now)
      : await reject(tx, emit, held, now, { decision: "rejected", reason: verdict.reason });
    return { draft: decision, expired: false };
  });
  if (expired) throw notHeld(draft);
  const { id: draftId, sendStatus: status, sendAt, rejectReason: reason } = draft;
  return { draftId, status, sendAt, reason };
}

/** The held draft a link is for, locked. */
const byLink = (token: string) => async (tx: Tx) => {
  const hash = hashOf(token);
  const found = hash === null ? null : await linkIn(tx, hash);
  if (!found || found.decision !== null) throw closed(found);
  if (found.draftId === null) throw unknownLink();
  const draft = await lockDraft(tx, found.agentId, found.draftId);
  // Every decision and withdrawal takes the draft first: under its lock, the link is as the last one left it.
  const link = await linkIn(tx, found.tokenHash);
  if (!link || link.decision !== null) throw closed(link);
  if (draft?.sendStatus !== "pending_approval") throw unknownLink();
  return draft;
};

/** The operator's choice of held draft, locked. */
const byId = (agentId: string, draftId: string) => async (tx: Tx) => {
  const draft = await lockDraft(tx, agentId, draftId);
  if (!draft) throw new ServiceError("NOT_FOUND", "Draft not found");
  if (draft.sendStatus !== "pending_approval") throw notHeld(draft);
  return draft;
};

/** A person approves the message their link is for. */
export function approveByLink(services: Services, token: string): Promise<Decision> {
  return decide(services, byLink(token), { approve: true });
}

/** A person rejects the message their link is for, saying why if they like. */
export function rejectByLink(services: Services, token: string, reason: string | null): Promise<Decision> {
  return decide(services, byLink(token), { approve: false, reason: checkedReason(reason) });
}

/** The operator approves one of an agent's held messages. */
export async function approveHeld(services: Services, agentId: string, draftId: string): Promise<Decision> {
  const agent = await findAgent(services, agentId);
  return decide(services, byId(agent.id, draftId), { approve: true });
}

/** The operator rejects one of an agent's held messages. */
export async function rejectHeld(
  services: Services,
  agentId: string,
  draftId: string,
  reason: string | null,
): Promise<Decision> {
  const agent = await findAgent(services, agentId);
  return decide(services, byId(agent.id, draftId), { approve: false, reason: checkedReason(reason) });
}

const REASON_MAX = 1_000;

function checkedReason(reason: string | null): string | null {
  const trimmed = reason?.trim() ?? "";
  if (trimmed.length > REASON_MAX)
    throw new ServiceError("BAD_REQUEST", `reason may be at most ${REASON_MAX} characters`);
  return trimmed || null;
}

/** Every agent's held messages, oldest first: what waits for a decision. */
export async function listHeld(services: Services, request: PageRequest): Promise<Page<Draft>> {
  return readPage(request, (window) => heldPage(services, window));
}

/** Held messages nobody decided within APPROVAL_TIMEOUT_HOURS: rejected as expired. The number rejected. */
export async function expireHeld(services: Services): Promise<number> {
  let expired = 0;
  for (const draft of await heldPast(services, services.clock.now(), 100)) {
    if ((await expire(services, draft).catch(() => null))?.rejectReason === "expired") expired++;
  }
  return expired;
}

/** Rejects a held draft as expired, if it still is held and past its deadline; the draft as it then is. */
function expire(services: Services, { id, agentId }: DraftRef): Promise<Draft> {
  const now = services.clock.now();
  return withEvents(services, async (tx, emit) => {
    const held = await lockDraft(tx, agentId, id);
    if (!held) throw new ServiceError("NOT_FOUND", "Draft not found");
    return overdue(held, now) ? reject(tx, emit, held, now, EXPIRED) : held;
  });
}
