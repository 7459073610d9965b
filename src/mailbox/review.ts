import {
  type Draft,
  type DraftRef,
  draftByReviewHash,
  heldPage,
  heldPast,
  lockDraft,
  lockDraftByReviewHash,
  saveDraft,
} from "../db/drafts.ts";
import type { Tx } from "../db/statements.ts";
import { ServiceError } from "../errors.ts";
import { findAgent } from "./admin.ts";
import { addressOf } from "./agents.ts";
import { type Emit, withEvents } from "./events.ts";
import { hashApiKey, REVIEW_TOKEN } from "./keys.ts";
import { type Page, type PageRequest, pageWindow } from "./pages.ts";
import type { AgentRecord } from "./records.ts";
import type { Services } from "./services.ts";

// Deciding a held message: a person with its review link, or the operator.
// Approved, it is scheduled for now (or its sendAt): the scheduled-send job
// of whichever instance claims it sends it within a second or two, counted
// then, as any scheduled send. Rejected, it stays as a draft the agent can
// read, with why.
// A message is decided once: the second decision, and a link of a message
// not held (or gone), are refused, never a second send.

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

const unknownLink = () =>
  new ServiceError("NOT_FOUND", "This review link is not valid: the message was withdrawn, sent, or never held");

/** A draft that is not (or no longer) held: 410 when a person or the operator decided it, else no link of ours. */
function notHeld(draft: Draft): ServiceError {
  if (draft.sendStatus === "rejected") {
    const how = draft.rejectReason === "expired" ? "rejected as expired: nobody decided in time" : "rejected";
    return new ServiceError("GONE", `This message was already ${how}`, { code: "ALREADY_DECIDED" });
  }
  if (draft.approvedAt !== null) {
    return new ServiceError("GONE", "This message was already approved", { code: "ALREADY_DECIDED" });
  }
  return unknownLink();
}

const hashOf = (token: string) => (REVIEW_TOKEN.test(token) ? hashApiKey(token) : null);

/** Past its deadline and not decided: rejected as expired. */
const overdue = (draft: Draft, now: Date) =>
  draft.sendStatus === "pending_approval" && draft.reviewExpiresAt !== null && draft.reviewExpiresAt < now;

/** The held message a review link is for: 404 for no such link, 410 once decided (or expired, which it decides). */
export async function reviewOf(services: Services, token: string): Promise<Review> {
  const hash = hashOf(token);
  const draft = hash === null ? null : await draftByReviewHash(services, hash);
  if (!draft) throw unknownLink();
  if (draft.sendStatus !== "pending_approval") throw notHeld(draft);
  if (overdue(draft, services.clock.now())) throw notHeld(await expire(services, draft));
  const agent = await findAgent(services, draft.agentId);
  return { draft, agent, from: addressOf(agent, services.config) };
}

type Verdict = { approve: true } | { approve: false; reason: string | null };

async function reject(tx: Tx, emit: Emit, draft: Draft, reason: string | null, now: Date): Promise<Draft> {
  const rejected = { ...draft, sendStatus: "rejected", rejectReason: reason, reviewExpiresAt: null, updatedAt: now };
  await saveDraft(tx, rejected);
  await emit({ type: "email.rejected", agentId: draft.agentId, data: { draftId: draft.id, reason } });
  return rejected;
}

/** Approved: scheduled for its sendAt, or now. Once it is sent, its recipients count as approved (sending.ts). */
async function approve(tx: Tx, emit: Emit, draft: Draft, now: Date): Promise<Draft> {
  const sendAt = draft.sendAt !== null && draft.sendAt > now ? draft.sendAt : now;
  const approved = {
    ...draft,
    sendStatus: "scheduled",
    sendAt,
    approvedAt: now,
    reviewExpiresAt: null,
    updatedAt: now,
  };
  await saveDraft(tx, approved);
  const data = { draftId: draft.id, sendAt: sendAt.getTime() };
  await emit({ type: "email.approved", agentId: draft.agentId, data });
  return approved;
}

/** Decides the held draft `lock` finds, once. */
async function decide(services: Services, lock: (tx: Tx) => Promise<Draft | null>, verdict: Verdict) {
  const now = services.clock.now();
  const { draft, expired } = await withEvents(services, async (tx, emit) => {
    const held = await lock(tx);
    if (!held) throw unknownLink();
    if (held.sendStatus !== "pending_approval") throw notHeld(held);
    if (overdue(held, now)) return { draft: await reject(tx, emit, held, "expired", now), expired: true };
    const decision = verdict.approve
      ? await approve(tx, emit, held, now)
      : await reject(tx, emit, held, verdict.reason, now);
    return { draft: decision, expired: false };
  });
  if (expired) throw notHeld(draft);
  const { id: draftId, sendStatus: status, sendAt, rejectReason: reason } = draft;
  return { draftId, status, sendAt, reason };
}

const byLink = (token: string) => (tx: Tx) => {
  const hash = hashOf(token);
  return hash === null ? Promise.resolve(null) : lockDraftByReviewHash(tx, hash);
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
  return decide(services, (tx) => lockDraft(tx, agent.id, draftId), { approve: true });
}

/** The operator rejects one of an agent's held messages. */
export async function rejectHeld(
  services: Services,
  agentId: string,
  draftId: string,
  reason: string | null,
): Promise<Decision> {
  const agent = await findAgent(services, agentId);
  return decide(services, (tx) => lockDraft(tx, agent.id, draftId), { approve: false, reason: checkedReason(reason) });
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
  const window = pageWindow(request);
  return { ...(await heldPage(services, window)), ...window };
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
    if (!held) throw unknownLink();
    return overdue(held, now) ? reject(tx, emit, held, "expired", now) : held;
  });
}
