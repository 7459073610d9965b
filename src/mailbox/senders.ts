import { replaceSenderLists, senderListsOf } from "../db/agents.ts";
import { excerpt, ServiceError } from "../errors.ts";
import { isEmailAddress } from "../outbound/address.ts";
import { type AgentRecord, addressesOf } from "./records.ts";
import type { Services } from "./services.ts";

// Who may mail an agent: with entries in its allow list only those senders
// are filed; a sender on its block list never is. An entry is an address or
// @domain, compared without case. Mail turned away is dropped like other
// undeliverable mail: logged, counted, and remembered so it never returns.

export interface SenderLists {
  allow: string[];
  block: string[];
}

const MAX_ENTRIES = 1000;

function checkedList(entries: string[], name: keyof SenderLists): string[] {
  if (entries.length > MAX_ENTRIES) {
    throw new ServiceError("BAD_REQUEST", `${name} may hold at most ${MAX_ENTRIES} entries`);
  }
  const invalid = entries.find((entry) => !isEmailAddress(entry.startsWith("@") ? `sender${entry}` : entry));
  if (invalid !== undefined) {
    throw new ServiceError("BAD_REQUEST", `${name}: ${JSON.stringify(excerpt(invalid))} is not an address or @domain`);
  }
  return [...new Set(entries.map((entry) => entry.toLowerCase()))];
}

const matches = (entry: string, address: string) =>
  entry.startsWith("@") ? address.endsWith(entry) : address === entry;

/** Whether mail from the address may be filed for an agent with these lists. */
export function senderAllowed(lists: SenderLists, address: string): boolean {
  const sender = address.toLowerCase();
  if (lists.block.some((entry) => matches(entry, sender))) return false;
  return lists.allow.length === 0 || lists.allow.some((entry) => matches(entry, sender));
}

/** Whether an allow entry names the sender (it passes the spam verdict's junk). */
export function senderListed(lists: SenderLists, address: string): boolean {
  const sender = address.toLowerCase();
  return lists.allow.some((entry) => matches(entry, sender));
}

/** The lists as stored on the agent's row. */
export function storedLists(agent: Pick<AgentRecord, "senderAllow" | "senderBlock">): SenderLists {
  return { allow: addressesOf(agent.senderAllow), block: addressesOf(agent.senderBlock) };
}

export async function getSenders(services: Services, agent: { id: string }): Promise<SenderLists> {
  const stored = await senderListsOf(services, agent.id);
  if (!stored) throw new ServiceError("NOT_FOUND", "Agent not found");
  return storedLists(stored);
}

/** Replaces both lists. */
export async function setSenders(
  services: Services,
  agent: { id: string },
  lists: { allow?: string[] | null; block?: string[] | null },
): Promise<SenderLists> {
  const checked = { allow: checkedList(lists.allow ?? [], "allow"), block: checkedList(lists.block ?? [], "block") };
  const stored = { senderAllow: checked.allow, senderBlock: checked.block };
  if (!(await replaceSenderLists(services, agent.id, stored))) throw new ServiceError("NOT_FOUND", "Agent not found");
  return checked;
}
