import type { Config } from "../config.ts";
import { serves } from "./domains.ts";
import type { Outcome } from "./filing.ts";
import type { Scans } from "./inspection.ts";
import { limitsOf } from "./limits.ts";
import { addressParts } from "./records.ts";
import { addresseeAt, addresseesAt } from "./return-path.ts";
import { type ListHolder, senderAllowed, senderStandings } from "./senders.ts";
import type { Services } from "./services.ts";

// Whether mail for an address is taken, asked as the SMTP door hears each
// RCPT TO: the same rules as filing (a verified agent at a served domain, or
// the return path of one of its sent emails; its sender lists, its storage),
// answered before the message is sent; on every path, which recipients'
// lists refuse its header From before the message is read; and what each
// recipient, or the message as a whole, is answered once it was filed.

/** An SMTP reply: the code, the enhanced status, the text. */
export interface Reply {
  code: number;
  status: string;
  message: string;
}

const reply = (code: number, status: string, message: string): Reply => ({ code, status, message });

const NO_SUCH_MAILBOX = reply(550, "5.1.1", "No such mailbox here");
const SENDER_REFUSED = reply(550, "5.7.1", "The recipient does not take mail from this sender");

/**
 * Null when mail for the address from the sender is taken; else why not, in
 * SMTP's words. `sender`: MAIL FROM, "" for a bounce, null when not known.
 * `size`: what the client said the message weighs (SIZE, RFC 1870), when it did.
 */
export async function recipientRefusal(
  services: Services,
  address: string,
  sender: string | null,
  size?: number,
): Promise<Reply | null> {
  const { local, domain } = addressParts(address);
  if (local === "" || !(await serves(services, domain))) {
    return reply(550, "5.7.1", "Relaying denied: this server takes mail only for its own domains");
  }
  const addressee = await addresseeAt(services.sql, services, address);
  if (!addressee || addressee.agent.verifiedAt === null) return NO_SUCH_MAILBOX;
  const { agent } = addressee;
  if (sender && !(await senderAllowed(services.sql, services, agent, sender))) return SENDER_REFUSED;
  // Reports about a sent email come back to its return path whatever the storage: a report believed takes none.
  if (addressee.returnPathOf !== null) return null;
  // With SIZE, the message must fit in what is left; without, the mailbox must not be full.
  if (agent.storageUsed + Math.max(size ?? 0, 1) > limitsOf(agent, services.config).storageBytes) {
    return reply(452, "4.2.2", "The recipient's mailbox is full: try again later");
  }
  return null;
}

/** Whether the address lies under a domain: it, or one of its subdomains. */
const under = (domain: string, parent: string) => domain === parent || domain.endsWith(`.${parent}`);

/** A message as its header section alone names it: its From, and its recipients at the served domains. */
export interface Heading {
  from: string;
  recipients: string[];
}

/**
 * For each message, the recipients whose sender lists refuse mail from its
 * From (read from the header section alone): asked before the message is parsed,
 * screened or scanned, so that a refused sender's text is never read, by the
 * same rule filing applies (senderStanding: all three scopes, the narrowest
 * wins, allow-only mode). Left to filing, which decides once the message is
 * read: unknown and unverified recipients (filing says why), a sent email's
 * return path, and mail from a feedback loop the operator lists, where a
 * report may come that is recorded whatever the lists (reports.ts). One
 * read of the recipients and one of the lists for a whole batch.
 */
export async function refusedBeforeReading(services: Services, messages: readonly Heading[]): Promise<string[][]> {
  const { feedbackLoopDomains } = services.config;
  const asked = messages.map(({ from, recipients }) =>
    feedbackLoopDomains.some((loop) => under(addressParts(from).domain, loop)) ? [] : recipients,
  );
  const addressees = await addresseesAt(services.sql, services, [...new Set(asked.flat())]);
  const listHolder = (address: string) => {
    const addressee = addressees.get(address);
    return addressee && addressee.returnPathOf === null && addressee.agent.verifiedAt !== null ? addressee.agent : null;
  };
  const sendersTo = new Map<string, { agent: ListHolder; senders: Set<string> }>();
  messages.forEach(({ from }, n) => {
    for (const agent of (asked[n] ?? []).map(listHolder)) {
      if (!agent) continue;
      const entry = sendersTo.get(agent.id) ?? { agent, senders: new Set() };
      entry.senders.add(from);
      sendersTo.set(agent.id, entry);
    }
  });
  const asking = [...sendersTo.values()].map(({ agent, senders }) => ({ agent, senders: [...senders] }));
  const standings = await senderStandings(services.sql, services, asking);
  return messages.map(({ from }, n) =>
    (asked[n] ?? []).filter((address) => {
      const agent = listHolder(address);
      return agent !== null && standings.get(agent.id)?.get(from)?.filed === false;
    }),
  );
}

/** Which scanners the operator will not take mail without (RSPAMD_REQUIRED, CLAMAV_REQUIRED). */
type RequiredScanners = Pick<Config, "rspamdRequired" | "clamavRequired">;

/** Whether a scanner the operator requires did not answer for this message. */
function requiredUnanswered({ spam, malware }: Scans, required: RequiredScanners): boolean {
  const verdicts = [
    [spam, required.rspamdRequired],
    [malware, required.clamavRequired],
  ] as const;
  return verdicts.some(([verdict, isRequired]) => isRequired && verdict?.status === "unscanned");
}

/** Why the SMTP door refuses a message by its scans, before anyone keeps it (inspection.ts), in SMTP's words; null when it may be filed. */
export function scanRefusal(scans: Scans, required: RequiredScanners): Reply | null {
  const { spam, malware } = scans;
  if (malware?.status === "infected") {
    return reply(554, "5.7.1", `Refused: the message carries malware (${malware.signature})`);
  }
  if (spam?.status === "scanned" && spam.action === "reject") {
    return reply(550, "5.7.1", "Refused as spam");
  }
  if (spam?.status === "scanned" && (spam.action === "soft reject" || spam.action === "greylist")) {
    return reply(451, "4.7.1", "Try again later");
  }
  if (requiredUnanswered(scans, required)) {
    return reply(451, "4.7.1", "The message cannot be checked now: try again later");
  }
  return null;
}

/** What a recipient is answered once filing decided (it passed RCPT TO; things may have changed since). */
export function filedReply(outcome: Outcome): Reply {
  switch (outcome) {
    case "stored":
    case "report":
    case "duplicate":
    case "quarantined":
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

/** Outcomes a retry may end otherwise: room made meanwhile, or an agent gone since RCPT TO (a retry's RCPT TO says so). */
const RETRIABLE: Outcome[] = ["over_quota", "unknown_recipient", "unverified"];

/**
 * SMTP's one answer for a message filed for several recipients (LMTP answers
 * each). Kept for all: 250. For none: the first one's refusal. For some:
 * after a 250 the server owes the sender word of every recipient it did not
 * keep (RFC 5321 6.1), so the whole message is answered 4xx when a retry may
 * keep it for the others; the retry is a duplicate for those that kept it.
 * A recipient's sender lists refusing the message is final: 250 all the same.
 */
export function messageReply(outcomes: Outcome[]): Reply {
  const replies = outcomes.map(filedReply);
  const kept = replies.find((answer) => answer.code === 250);
  if (!kept) return replies[0] ?? NO_SUCH_MAILBOX;
  if (!outcomes.some((outcome) => RETRIABLE.includes(outcome))) return kept;
  return outcomes.includes("over_quota")
    ? reply(452, "4.2.2", "A recipient's mailbox is full: try again later (the others will not get it twice)")
    : reply(451, "4.3.0", "Not kept for every recipient: try again later (the others will not get it twice)");
}
