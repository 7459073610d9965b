import type { Agent, Email, Prisma, SentEmail } from "../generated/prisma/sqlite/client.ts";
import { type Authentication, resultWord, type Verdict } from "./authentication.ts";
import type { AttachmentInput } from "./outgoing.ts";
import type { Permission } from "./permissions.ts";
import type { Link } from "./reading/links.ts";

// The domain's values: the rows of the data model, as every door sees them.

export type AgentRecord = Agent;
export type EmailRecord = Email;
export type SentRecord = SentEmail;

/** The permissions a key's row keeps. */
export const permissionsOf = (stored: Prisma.JsonValue) => stored as Permission[];

/** The agents a pod's key reaches, by id as the key's row keeps them; null: all the pod's. */
export const agentLimitOf = (stored: Prisma.JsonValue | null) => stored as string[] | null;

/** A list of addresses a row keeps: Prisma types each Json field JsonValue; those of addresses hold strings. */
export const addressesOf = (stored: Prisma.JsonValue): string[] => stored as string[];

/** The links an email keeps, in document order. */
export const keptLinksOf = (stored: Prisma.JsonValue) => stored as unknown as Link[];

/** The likely one-time codes an email keeps, best first. */
export const keptCodesOf = (stored: Prisma.JsonValue) => stored as string[];

/** An attachment as a draft keeps it: as the client gave it, its content in base64. */
export type KeptAttachment = AttachmentInput & { filename: string; content: string };

/** A draft's attachments: its Json field holds KeptAttachments. */
export const keptAttachmentsOf = (stored: Prisma.JsonValue) => stored as unknown as KeptAttachment[];

/** Attachments for a draft's Json field: Prisma's type wants index signatures, which KeptAttachment does not declare. */
export const storedAttachments = (files: readonly AttachmentInput[]) => files as unknown as Prisma.JsonArray;

/** A message's recipient lists. */
export interface RecipientLists {
  to: string[];
  cc: string[];
  bcc: string[];
}

/** The recipient lists a row keeps (a draft's, a sent email's). */
export const listsOf = (row: {
  toList: Prisma.JsonValue;
  ccList: Prisma.JsonValue;
  bccList: Prisma.JsonValue;
}): RecipientLists => ({
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
