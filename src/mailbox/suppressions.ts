import { suppressionPage, unsuppress } from "../db/reports.ts";
import { ServiceError } from "../errors.ts";
import type { Suppression } from "../generated/prisma/sqlite/client.ts";
import type { Outcome } from "./agents.ts";
import { type Page, type PageRequest, readPage } from "./pages.ts";
import type { Services } from "./services.ts";

// The addresses an agent's mail no longer goes to: put there by a hard bounce
// or a complaint (reports.ts), taken off by the agent or the operator.

export type SuppressionRecord = Suppression;

/** The agent's suppressions, newest first. */
export async function listSuppressions(
  services: Services,
  agent: { id: string },
  request: PageRequest,
): Promise<Page<SuppressionRecord>> {
  return readPage(request, (window) => suppressionPage(services, agent.id, window));
}

/** Takes an address off the list, without case: mail to it goes out again. */
export async function removeSuppression(services: Services, agent: { id: string }, address: string): Promise<Outcome> {
  if (!(await unsuppress(services, agent.id, address.trim().toLowerCase()))) {
    throw new ServiceError("NOT_FOUND", "That address is not suppressed");
  }
  return { success: true, message: "Suppression removed: mail to this address goes out again" };
}
