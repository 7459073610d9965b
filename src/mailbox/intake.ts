import { recipientAt } from "./agents.ts";
import { serves } from "./domains.ts";
import type { Outcome } from "./filing.ts";
import { limitsOf } from "./limits.ts";
import { addressParts } from "./records.ts";
import { senderAllowed, storedLists } from "./senders.ts";
import type { Services } from "./services.ts";

// Whether mail for an address is taken, asked as the SMTP door hears each
// RCPT TO: the same rules as filing (a verified agent at a served domain,
// its sender lists, its storage), answered before the message is sent; and
// what each recipient is answered once the message was filed for it.

/** An SMTP reply: the code, the enhanced status, the text. */
export interface Reply {
  code: number;
  status: string;
  message: string;
}

const reply = (code: number, status: string, message: string): Reply => ({ code, status, message });

const NO_SUCH_MAILBOX = reply(550, "5.1.1", "No such mailbox here");
const SENDER_REFUSED = reply(550, "5.7.1", "The recipient does not take mail from this sender");

/** Null when mail for the address from the sender is taken; else why not, in SMTP's words. */
export async function recipientRefusal(services: Services, address: string, sender: string): Promise<Reply | null> {
  const { local, domain } = addressParts(address);
  if (local === "" || !(await serves(services, domain))) {
    return reply(550, "5.7.1", "Relaying denied: this server takes mail only for its own domains");
  }
  const agent = await recipientAt(services.sql, services.config, address);
  if (!agent || agent.verifiedAt === null) return NO_SUCH_MAILBOX;
  if (sender !== "" && !senderAllowed(storedLists(agent), sender)) return SENDER_REFUSED;
  if (agent.storageUsed >= limitsOf(agent, services.config).storageBytes) {
    return reply(452, "4.2.2", "The recipient's mailbox is full: try again later");
  }
  return null;
}

/** What a recipient is answered once filing decided (it passed RCPT TO; things may have changed since). */
export function filedReply(outcome: Outcome): Reply {
  switch (outcome) {
    case "stored":
    case "report":
    case "duplicate":
      return reply(250, "2.0.0", "Filed");
    case "over_quota":
      return reply(552, "5.2.2", "The recipient's mailbox is full");
    case "sender_refused":
      return SENDER_REFUSED;
    case "unknown_recipient":
    case "unverified":
      return NO_SUCH_MAILBOX;
  }
}
