import { agentByIdKey } from "../db/agents.ts";
import { domainOf } from "./agents.ts";
import { servedDomains } from "./domains.ts";
import { limitsOf } from "./limits.ts";
import { addressParts } from "./records.ts";
import { senderAllowed, storedLists } from "./senders.ts";
import type { Services } from "./services.ts";

// Whether mail for an address is taken, asked as the SMTP door hears each
// RCPT TO: the same rules as filing (a verified agent at a served domain,
// its sender lists, its storage), answered before the message is sent.

/** An SMTP refusal: the reply code, the enhanced status, the text. */
export interface Refusal {
  code: number;
  status: string;
  message: string;
}

const refusal = (code: number, status: string, message: string): Refusal => ({ code, status, message });

/** Null when mail for the address from the sender is taken; else why not, in SMTP's words. */
export async function recipientRefusal(services: Services, address: string, sender: string): Promise<Refusal | null> {
  const { local, domain } = addressParts(address);
  if (local === "" || !(await servedDomains(services)).includes(domain)) {
    return refusal(550, "5.7.1", "Relaying denied: this server takes mail only for its own domains");
  }
  const agent = await agentByIdKey(services, local);
  if (!agent || agent.verifiedAt === null || domainOf(agent, services.config) !== domain) {
    return refusal(550, "5.1.1", "No such mailbox here");
  }
  if (sender !== "" && !senderAllowed(storedLists(agent), sender)) {
    return refusal(550, "5.7.1", "The recipient does not take mail from this sender");
  }
  if (agent.storageUsed >= limitsOf(agent, services.config).storageBytes) {
    return refusal(452, "4.2.2", "The recipient's mailbox is full: try again later");
  }
  return null;
}
