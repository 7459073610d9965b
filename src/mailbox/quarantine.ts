import { deleteQuarantined, findQuarantined, listQuarantined, type QuarantinedSummary } from "../db/quarantine.ts";
import type { ReviewLink } from "../db/reviews.ts";
import type { Tx } from "../db/statements.ts";
import { ServiceError } from "../errors.ts";
import { findAgent } from "./admin.ts";
import { withEvents } from "./events.ts";
import { type Arrival, fileReleased, type HeldArrival, type Outcome } from "./filing.ts";
import { type Page, type PageRequest, readPage } from "./pages.ts";
import type { AgentRecord } from "./records.ts";
import { closeLink, nowClosed, openLink, unknownLink } from "./review.ts";
import type { Services } from "./services.ts";

// The quarantine: messages held out of an agent's mailbox (mailbox/
// inspection.ts says which). The agent cannot see them by any door; a person
// (the operator, or the agent's reviewer) releases one into the inbox, where
// it is filed as it would have been and `email.received` is emitted then, or
// deletes it. The reviewer decides by the link review-notices.ts sent them,
// which remembers the decision, whoever made it.

export type { QuarantinedSummary };

/** Held messages, oldest first; of one agent when given. */
export async function listQuarantine(
  services: Services,
  filter: { agentId?: string | null },
  request: PageRequest,
): Promise<Page<QuarantinedSummary>> {
  return readPage(request, (window) => listQuarantined(services, { agentId: filter.agentId ?? undefined }, window));
}

const notHeld = () => new ServiceError("NOT_FOUND", "No such message in quarantine: released or deleted already?");

/** Why a release could not file the message; it stays held. */
function releaseRefused(outcome: Outcome): ServiceError {
  if (outcome === "over_quota") {
    return new ServiceError("RATE_LIMITED", "The agent's mailbox is full: make room, then release it again", {
      code: "STORAGE_LIMIT_EXCEEDED",
    });
  }
  const why = outcome === "sender_refused" ? "the agent's sender lists now refuse its sender" : `it was ${outcome}`;
  return new ServiceError("CONFLICT", `The message cannot be filed: ${why}; it stays in quarantine`);
}

/**
 * Files a held message into its agent's inbox, as it came (its envelope,
 * authentication and verdicts kept from then), and takes it out of the
 * quarantine in the same transaction. Refused when the agent has no room.
 */
export async function releaseQuarantined(services: Services, id: string): Promise<{ emailId: string }> {
  const held = await findQuarantined(services, id);
  if (!held) throw notHeld();
  const kept = held.arrival as unknown as HeldArrival;
  const raw = Buffer.from(held.raw);
  const message = await services.reader.read(raw);
  const arrival: Arrival = { uid: 0n, raw, message, recipients: [held.recipient], ...kept };
  const emailId = await withEvents(services, async (tx, emit) => {
    if (!(await takeOut(tx, services, id, "released"))) throw notHeld();
    let filedId = "";
    const outcome = await fileReleased(tx, emit, services, arrival, (id) => {
      filedId = id;
    });
    if (outcome !== "stored") throw releaseRefused(outcome);
    return filedId;
  });
  services.log("info", "quarantine_released", { agentId: held.agentId, emailId });
  return { emailId };
}

/** Deletes a held message for good. */
export async function deleteQuarantinedMessage(
  services: Services,
  id: string,
): Promise<{ success: true; message: string }> {
  const deleted = await services.sql.transaction((tx) => takeOut(tx, services, id, "deleted"));
  if (!deleted) throw notHeld();
  services.log("info", "quarantine_deleted", { id });
  return { success: true, message: "Deleted from quarantine: its agent never sees it" };
}

/** Inside a transaction: the message out of quarantine, and its review link decided so; false when it was not there. */
async function takeOut(tx: Tx, services: Services, id: string, decision: "released" | "deleted"): Promise<boolean> {
  if (!(await deleteQuarantined(tx, id))) return false;
  await closeLink(tx, { quarantinedId: id }, { decision, at: services.clock.now(), reason: null });
  return true;
}

/** What the person with a quarantined message's review link reads: why it was held, and its text. */
export interface QuarantineReview {
  held: QuarantinedSummary;
  agent: AgentRecord;
  /** The message's text as an agent would read it (from its HTML when it has no plain text); never its HTML. */
  text: string | null;
}

/** A review link for a quarantined message that still decides it: 404 for no link of ours (or one for a draft), 410 once decided. */
export async function openQuarantineLink(
  services: Services,
  token: string,
): Promise<ReviewLink & { quarantinedId: string }> {
  const link = await openLink(services, token);
  if (link.quarantinedId === null) throw unknownLink();
  return { ...link, quarantinedId: link.quarantinedId };
}

/** The quarantined message a review link is for, to read before deciding. */
export async function openQuarantineReview(services: Services, token: string): Promise<QuarantineReview> {
  const link = await openQuarantineLink(services, token);
  const held = await findQuarantined(services, link.quarantinedId);
  if (!held) throw await nowClosed(services, link, unknownLink());
  const { raw, arrival: _, dedupeKey: __, ...summary } = held;
  const message = await services.reader.read(Buffer.from(raw));
  const agent = await findAgent(services, held.agentId);
  return { held: summary, agent, text: message.reading.text ?? message.bodyText };
}

/** Runs a person's decision on the message their link is for; one that lost a race to another says what was decided. */
async function byLink<T>(services: Services, token: string, decide: (id: string) => Promise<T>): Promise<T> {
  const link = await openQuarantineLink(services, token);
  try {
    return await decide(link.quarantinedId);
  } catch (error) {
    if (error instanceof ServiceError && error.kind === "NOT_FOUND") throw await nowClosed(services, link, error);
    throw error;
  }
}

/** A person releases the quarantined message their link is for into the agent's inbox. Once only. */
export function releaseByLink(services: Services, token: string): Promise<{ emailId: string }> {
  return byLink(services, token, (id) => releaseQuarantined(services, id));
}

/** A person deletes the quarantined message their link is for. Once only. */
export function deleteByLink(services: Services, token: string): Promise<{ success: true }> {
  return byLink(services, token, (id) => deleteQuarantinedMessage(services, id));
}
