import type { Agent, Email, SentEmail } from "../generated/prisma/sqlite/client.ts";
import { type Authentication, resultWord, type Verdict } from "./authentication.ts";

// The domain's values: the rows of the data model, as every door sees them.

export type AgentRecord = Agent;
export type EmailRecord = Email;
export type SentRecord = SentEmail;

/** A list of addresses as a row keeps it: a JSON array. */
export const addressesOf = (stored: string): string[] => JSON.parse(stored);

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
