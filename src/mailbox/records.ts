import type { Row, Sql } from "../db/sql.ts";
import type { Agent, Email, SentEmail } from "../generated/prisma/sqlite/client.ts";
import { type Authentication, resultWord, type Verdict } from "./authentication.ts";

// The domain's values: the rows of the data model, as every door sees them.
// Mail is read without its raw source, which no answer carries.

export type AgentRecord = Agent;
export type EmailRecord = Email;
export type SentRecord = SentEmail;

export const AGENT_COLUMNS = `"id","idKey","name","metadata","apiKeyHash","claimTokenHash","createdAt","verifiedAt","socialUsername","verificationCode","verificationExpires","storageUsed","storageLimit","dailySendLimit","verifiedBy","senderAllow","senderBlock"`;
export const EMAIL_COLUMNS = `"id","agentId","messageId","fromAddress","fromName","to","subject","bodyText","bodyHtml","size","receivedAt","isRead","folder","toList","ccList","replyToList","inReplyTo","references","threadId","text","preview","replyText","links","codes","authSpf","authDkim","authDmarc","authArc","authVerdict","trashedAt"`;
export const SENT_COLUMNS = `"id","agentId","to","subject","bodyText","bodyHtml","replyTo","messageId","providerId","size","sentAt","cc","bcc","inReplyTo","references","threadId"`;

const nullableDate = (sql: Sql, value: unknown) => (value === null ? null : sql.date(value));

export function agentFromRow(sql: Sql, row: Row): AgentRecord {
  const metadata = typeof row.metadata === "string" ? JSON.parse(row.metadata) : row.metadata;
  return {
    ...(row as AgentRecord),
    metadata,
    createdAt: sql.date(row.createdAt),
    verifiedAt: nullableDate(sql, row.verifiedAt),
    verificationExpires: nullableDate(sql, row.verificationExpires),
  };
}

export function emailFromRow(sql: Sql, row: Row): EmailRecord {
  return {
    ...(row as EmailRecord),
    receivedAt: sql.date(row.receivedAt),
    isRead: sql.flag(row.isRead),
    trashedAt: nullableDate(sql, row.trashedAt),
  };
}

export function sentFromRow(sql: Sql, row: Row): SentRecord {
  return { ...(row as SentRecord), sentAt: sql.date(row.sentAt) };
}

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

/** Prisma's select for an email without its raw source. */
export const EMAIL_SELECT = {
  id: true,
  agentId: true,
  messageId: true,
  fromAddress: true,
  fromName: true,
  to: true,
  subject: true,
  bodyText: true,
  bodyHtml: true,
  size: true,
  receivedAt: true,
  isRead: true,
  folder: true,
  toList: true,
  ccList: true,
  replyToList: true,
  inReplyTo: true,
  references: true,
  threadId: true,
  text: true,
  preview: true,
  replyText: true,
  links: true,
  codes: true,
  authSpf: true,
  authDkim: true,
  authDmarc: true,
  authArc: true,
  authVerdict: true,
  trashedAt: true,
} as const;
