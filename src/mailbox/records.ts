import type { Agent, Email, SentEmail } from "../generated/prisma/sqlite/client.ts";
import { type Authentication, resultWord, type Verdict } from "./authentication.ts";

// The domain's values: the rows of the data model, as every door sees them.

export type AgentRecord = Agent;
export type EmailRecord = Email;
export type SentRecord = SentEmail;

/** A list of addresses as a row keeps it: a JSON array. */
export const addressesOf = (stored: string): string[] => JSON.parse(stored);

/** A message's recipient lists. */
export interface RecipientLists {
  to: string[];
  cc: string[];
  bcc: string[];
}

/** The recipient lists a row keeps (a draft's, a sent email's). */
export const listsOf = (row: { toList: string; ccList: string; bccList: string }): RecipientLists => ({
  to: addressesOf(row.toList),
  cc: addressesOf(row.ccList),
  bcc: addressesOf(row.bccList),
});

/** Every recipient of a message once, in lower case: addresses compare without case. */
export function recipientsOf({ to, cc, bcc }: RecipientLists): string[] {
  return [...new Set([...to, ...cc, ...bcc].map((address) => address.toLowerCase()))];
}

/** An address's local part and domain, in lower case: mail is filed by both. */
export function addressParts(address: string): { local: string; domain: string } {
  const lower = address.toLowerCase();
  const at = lower.lastIndexOf("@");
  return { local: lower.slice(0, Math.max(at, 0)), domain: lower.slice(at + 1) };
}

/** Addresses as one string, as the spec's sent email object has its `to` (and sent records once kept them). */
export const joinedAddresses = (addresses: string[]): string => addresses.join(", ");

/** The addresses of a joinedAddresses string. */
export const splitAddresses = (joined: string): string[] => joined.split(", ");

/** The sender authentication kept with an email. */
export function authenticationOf(email: EmailRecord): Authentication {
  return {
    spf: resultWord(email.authSpf ?? undefined),
    dkim: resultWord(email.authDkim ?? undefined),
    dmarc: resultWord(email.authDmarc ?? undefined),
    arc: resultWord(email.authArc ?? undefined),
    verdict: email.authVerdict as Verdict,
  };
}
