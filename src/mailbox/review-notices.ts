import { randomUUID } from "node:crypto";
import type { Reviewer, ReviewerWebhook } from "../config.ts";
import type { ReviewerFields } from "../db/agents.ts";
import { reviewerFieldsIn } from "../db/agents.ts";
import type { Draft } from "../db/drafts.ts";
import type { QuarantinedSummary } from "../db/quarantine.ts";
import {
  anyNoticeDue,
  claimDueNotices,
  deleteNotice,
  failNotice,
  insertLink,
  insertNotice,
  type ReviewNotice,
} from "../db/reviews.ts";
import type { Tx } from "../db/statements.ts";
import { excerpt } from "../errors.ts";
import { describeFault } from "../log.ts";
import { composeMessage } from "../outbound/compose.ts";
import { NotDelivered } from "../outbound/delivery.ts";
import { postWebhook, signedHeaders, statusProblem } from "../outbound/webhooks.ts";
import { seal, unseal } from "../secrets.ts";
import { addressOf, recipientAt } from "./agents.ts";
import { serves } from "./domains.ts";
import { type DueWork, doDueWork } from "./due-work.ts";
import { newReviewLink } from "./keys.ts";
import { type AgentRecord, addressesOf, addressParts } from "./records.ts";
import { signed } from "./sending.ts";
import type { Services } from "./services.ts";
import { pauseAfter } from "./webhook-deliveries.ts";

// A held message's review link on its way to a person (a draft held for
// approval, or a message held in quarantine): mailed to the
// reviewer's address through the provider, and POSTed to the operator's
// webhook, signed as webhooks are. The notice is written with the hold, so
// nothing is lost when the provider or the receiver is down, and tried until
// it is delivered or the message can no longer be decided. The link is kept
// sealed (SECRETS_KEY) until then, and never where the agent reads.

/** What a notice tells its reviewer. */
export interface HeldNotice {
  draftId: string;
  agentId: string;
  agentName: string;
  from: string;
  to: string[];
  cc: string[];
  bcc: string[];
  subject: string;
  /** When it goes once approved; null: at once. */
  sendAt: number | null;
  /** Rejected as expired if nobody decides by then. */
  expiresAt: number;
  reviewUrl: string;
}

/** What a notice tells its reviewer of a message held in quarantine. */
export interface QuarantinedNotice {
  quarantinedId: string;
  agentId: string;
  agentName: string;
  /** The agent's address it was sent to. */
  to: string;
  from: string;
  subject: string;
  /** spam, malware or injection, and what said so. */
  reason: string;
  detail: string;
  receivedAt: number;
  reviewUrl: string;
}

type Told = HeldNotice | QuarantinedNotice;

const isQuarantined = (told: Told): told is QuarantinedNotice => "quarantinedId" in told;

/** A quarantined message's notice is tried for a week; a draft's until nobody can decide it any more. */
const QUARANTINE_NOTICE_MS = 7 * 24 * 3_600_000;
const deadlineOf = (told: Told) => (isQuarantined(told) ? told.receivedAt + QUARANTINE_NOTICE_MS : told.expiresAt);

/** The reviewer of the agent's held mail: its own, part by part, else the instance's. */
export function reviewerOf(agent: Omit<ReviewerFields, "id" | "name">, services: Services): Reviewer {
  const { reviewer } = services.config;
  const own: ReviewerWebhook | null =
    agent.reviewerWebhookUrl && agent.reviewerWebhookSecret
      ? { url: agent.reviewerWebhookUrl, secret: unseal(agent.reviewerWebhookSecret, services.config.secretsKey) }
      : null;
  return { email: agent.reviewerEmail ?? reviewer.email, webhook: own ?? reviewer.webhook };
}

/** Inside the hold's transaction: a notice for each way the agent's reviewer is reached; with none, a log line says so. */
export async function queueNotices(tx: Tx, services: Services, agent: AgentRecord, draft: Draft, reviewUrl: string) {
  const { config, clock } = services;
  const notice: HeldNotice = {
    draftId: draft.id,
    agentId: agent.id,
    agentName: agent.name,
    from: addressOf(agent, config),
    ...{ to: addressesOf(draft.toList), cc: addressesOf(draft.ccList), bcc: addressesOf(draft.bccList) },
    subject: draft.subject ?? "",
    sendAt: draft.sendAt?.getTime() ?? null,
    expiresAt: draft.reviewExpiresAt?.getTime() ?? clock.now().getTime(),
    reviewUrl,
  };
  await queue(tx, services, agent, { draftId: draft.id, quarantinedId: null }, notice);
}

/**
 * Inside the filing transaction that holds a message in quarantine: its
 * review link, and a notice of it for each way the agent's reviewer is
 * reached. The agent is told nothing: it cannot see the message.
 */
export async function announceQuarantined(tx: Tx, services: Services, held: QuarantinedSummary): Promise<void> {
  const agent = await reviewerFieldsIn(tx, held.agentId);
  if (!agent) return;
  const link = newReviewLink(services.config);
  const refs = { draftId: null, quarantinedId: held.id };
  const undecided = { decision: null, decidedAt: null, reason: null };
  await insertLink(tx, {
    tokenHash: link.tokenHash,
    agentId: agent.id,
    ...refs,
    createdAt: held.receivedAt,
    ...undecided,
  });
  const notice: QuarantinedNotice = {
    quarantinedId: held.id,
    agentId: agent.id,
    agentName: agent.name,
    to: held.recipient,
    from: held.fromAddress,
    subject: held.subject ?? "",
    reason: held.reason,
    detail: held.detail,
    receivedAt: held.receivedAt.getTime(),
    reviewUrl: link.url,
  };
  await queue(tx, services, agent, refs, notice);
}

/** The notices of one held message, written in its transaction; the agent's reviewer unset, a log line. */
async function queue(
  tx: Tx,
  services: Services,
  agent: Omit<ReviewerFields, "name">,
  refs: Pick<ReviewNotice, "draftId" | "quarantinedId">,
  told: Told,
): Promise<void> {
  const { config, clock, log } = services;
  const reviewer = reviewerOf(agent, services);
  const payload = seal(JSON.stringify(told), config.secretsKey);
  const now = clock.now();
  const row = { ...refs, payload, status: "pending", attempts: 0, nextAttemptAt: now, createdAt: now };
  const unclaimed = { claimedUntil: null, lastError: null };
  if (reviewer.email !== null) {
    await insertNotice(tx, {
      id: randomUUID(),
      channel: "email",
      target: reviewer.email,
      secret: null,
      ...row,
      ...unclaimed,
    });
  }
  if (reviewer.webhook !== null) {
    const secret = seal(reviewer.webhook.secret, config.secretsKey);
    await insertNotice(tx, {
      id: randomUUID(),
      channel: "webhook",
      target: reviewer.webhook.url,
      secret,
      ...row,
      ...unclaimed,
    });
  }
  if (reviewer.email === null && reviewer.webhook === null) {
    log("warn", "review_unannounced", { agentId: agent.id, ...heldOf(refs), reason: "no reviewer is set" });
  }
}

/** What a notice is about, for a log line. */
function heldOf(refs: Pick<ReviewNotice, "draftId" | "quarantinedId">) {
  return refs.draftId !== null ? { draftId: refs.draftId } : { quarantinedId: refs.quarantinedId };
}

/** Review notices that came due: a claim lasts past a send's longest wait. */
const DUE_NOTICES: DueWork<ReviewNotice> = {
  turn: "review-notices",
  claimMs: 60_000,
  batch: 20,
  anyDue: anyNoticeDue,
  claim: claimDueNotices,
};
const WEBHOOK_TIMEOUT_MS = 10_000;

/** Delivers the notices that are due, each by one instance; the number tried. */
export function sendDueNotices(services: Services, stopping: AbortSignal): Promise<number> {
  return doDueWork(services, DUE_NOTICES, (notice) => deliverNotice(services, notice, stopping));
}

/** One attempt: delivered, it is deleted; failed, it is tried again later, or given up once its link has expired. */
async function deliverNotice(services: Services, notice: ReviewNotice, stopping: AbortSignal): Promise<void> {
  const { log, clock } = services;
  const where = { ...heldOf(notice), channel: notice.channel };
  const held = heldIn(services, notice);
  try {
    const problem =
      held === null
        ? "sealed with another SECRETS_KEY than the one set: it cannot be read"
        : notice.channel === "email"
          ? await mail(services, notice, held)
          : await post(services, notice, held, stopping);
    if (problem === null) {
      await deleteNotice(services, notice.id);
      log("info", "review_notice_delivered", where);
      return;
    }
    // Paused as a webhook delivery is: about 5 s, 30 s, 2 min, 10 min, 1 h, then every 6 h.
    const next = pauseAfter(notice.attempts + 1, clock.now());
    const retry = held !== null && next.getTime() < deadlineOf(held) ? next : null;
    await failNotice(services, notice.id, problem, retry);
    log(retry ? "warn" : "error", retry ? "review_notice_failed" : "review_notice_given_up", {
      ...where,
      error: problem,
    });
  } catch (error) {
    // The claim runs out and the notice is tried again.
    log("error", "review_notice_failed", { ...where, error: describeFault(error) });
  }
}

/** What the notice tells, or null when it was sealed with another SECRETS_KEY. */
function heldIn({ config }: Services, notice: ReviewNotice): Told | null {
  try {
    return JSON.parse(unseal(notice.payload, config.secretsKey)) as Told;
  } catch {
    return null;
  }
}

/**
 * Why the link may not be mailed, or null. Never to a served domain, where an agent could hold the address
 * (one may have been added since the reviewer was set), nor from an address an agent holds, which a reply or
 * an auto-reply would reach.
 */
async function mailRefusal(services: Services, target: string, from: string): Promise<string | null> {
  const { config, mailer, sql } = services;
  if (!mailer) return "SMTP_URL is not set: the reviewer cannot be mailed";
  if (await serves(services, addressParts(target).domain)) {
    return "the reviewer's address is at a domain this instance serves, where an agent could hold it";
  }
  if (await recipientAt(sql, config, from))
    return `${from} belongs to an agent, which a reply to the notice would reach`;
  return null;
}

/** Mails the link to the reviewer's address; what went wrong, or null. */
async function mail(services: Services, notice: ReviewNotice, held: Told): Promise<string | null> {
  const { config, clock, mailer } = services;
  const from = `noreply@${config.mailDomain}`;
  const refusal = await mailRefusal(services, notice.target, from);
  if (refusal !== null || !mailer) return refusal;
  const now = clock.now();
  const raw = await composeMessage({
    from: { name: "Pigeonhole", address: from },
    to: [notice.target],
    cc: [],
    replyTo: null,
    subject: isQuarantined(held)
      ? `Quarantined: ${held.subject || "(no subject)"} (for ${held.agentName})`
      : `Review: ${held.subject || "(no subject)"} (from ${held.agentName})`,
    text: isQuarantined(held) ? quarantinedText(held, config.publicUrl) : mailText(held, config.publicUrl),
    html: null,
    messageId: `<${randomUUID()}@${config.mailDomain}>`,
    inReplyTo: null,
    references: [],
    attachments: [],
    date: now,
    autoSubmitted: "auto-generated",
  });
  try {
    // The null reverse path: a bounce of the notice (which would carry the link) goes nowhere.
    await mailer.send({ from: "", to: [notice.target] }, await signed(services, config.mailDomain, raw));
    return null;
  } catch (error) {
    if (error instanceof NotDelivered) return excerpt(error.message);
    throw error;
  }
}

function mailText(held: HeldNotice, publicUrl: string): string {
  const list = (addresses: string[]) => addresses.join(", ") || "-";
  const when = held.sendAt === null ? "as soon as it is approved" : new Date(held.sendAt).toUTCString();
  return [
    `${held.agentName} (${held.from}) asks to send a message, and it waits for your decision.`,
    "",
    `To: ${list(held.to)}`,
    `Cc: ${list(held.cc)}`,
    `Bcc: ${list(held.bcc)}`,
    `Subject: ${held.subject}`,
    `Goes: ${when}`,
    "",
    "Read it whole, then approve or reject it, here:",
    held.reviewUrl,
    "",
    `The link decides this one message; keep it to yourself. If nobody decides by ${new Date(held.expiresAt).toUTCString()}, it is rejected.`,
    `You receive this because the operator of ${publicUrl} named you the reviewer of agent ${held.agentId}.`,
  ].join("\n");
}

const REASONS: Record<string, string> = {
  spam: "the spam filter rejected it",
  malware: "the virus scanner found malware in it",
  injection: "it reads as an attempt to instruct the agent, and the agent's policy holds such mail",
};

function quarantinedText(held: QuarantinedNotice, publicUrl: string): string {
  return [
    `A message to ${held.agentName} (${held.to}) was held in quarantine: ${REASONS[held.reason] ?? held.reason}.`,
    "The agent cannot see it until you release it.",
    "",
    `From: ${held.from}`,
    `Subject: ${held.subject}`,
    `Received: ${new Date(held.receivedAt).toUTCString()}`,
    `Why: ${held.reason} (${held.detail})`,
    "",
    "Read it, then release it into the agent's inbox or delete it, here:",
    held.reviewUrl,
    "",
    "The link decides this one message; keep it to yourself.",
    `You receive this because the operator of ${publicUrl} named you the reviewer of agent ${held.agentId}.`,
  ].join("\n");
}

/** POSTs email.held or email.quarantined, with the link, to the operator's webhook, signed with its own secret; what went wrong, or null. */
async function post(services: Services, notice: ReviewNotice, held: Told, stopping: AbortSignal) {
  const now = services.clock.now();
  const type = isQuarantined(held) ? "email.quarantined" : "email.held";
  const body = JSON.stringify({ type, timestamp: now.toISOString(), data: held });
  const secret = unseal(notice.secret ?? "", services.config.secretsKey);
  try {
    const status = await postWebhook({
      url: notice.target,
      headers: signedHeaders(notice.id, secret, now, body),
      body,
      // The operator's own receiver: it may well be on a private network.
      allowPrivate: true,
      timeoutMs: WEBHOOK_TIMEOUT_MS,
      signal: stopping,
    });
    return statusProblem(status);
  } catch (error) {
    return excerpt(error instanceof Error ? error.message : String(error));
  }
}
