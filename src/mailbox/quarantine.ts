import { deleteQuarantined, findQuarantined, listQuarantined, type QuarantinedSummary } from "../db/quarantine.ts";
import { ServiceError } from "../errors.ts";
import { withEvents } from "./events.ts";
import { type Arrival, fileReleased, type HeldArrival, type Outcome } from "./filing.ts";
import { type Page, type PageRequest, pageWindow } from "./pages.ts";
import type { Services } from "./services.ts";

// The quarantine: messages held out of an agent's mailbox (mailbox/
// inspection.ts says which). The agent cannot see them by any door; a person
// (the operator, or the agent's reviewer) releases one into the inbox, where
// it is filed as it would have been and `email.received` is emitted then, or
// deletes it.

export type { QuarantinedSummary };

/** Held messages, oldest first; of one agent when given. */
export async function listQuarantine(
  services: Services,
  filter: { agentId?: string | null },
  request: PageRequest,
): Promise<Page<QuarantinedSummary>> {
  const window = pageWindow(request);
  const page = await listQuarantined(services, { agentId: filter.agentId ?? undefined }, window);
  return { ...page, ...window };
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
    if (!(await deleteQuarantined(tx, id))) throw notHeld();
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
  const deleted = await services.sql.transaction((tx) => deleteQuarantined(tx, id));
  if (!deleted) throw notHeld();
  services.log("info", "quarantine_deleted", { id });
  return { success: true, message: "Deleted from quarantine: its agent never sees it" };
}
