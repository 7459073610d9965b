import { joinedAddresses } from "../mailbox/records.ts";
import { graphql } from "../rest/graphql.ts";
import { declare, ownAgent, type Route, SEND_BODY_LIMIT, withoutNulls } from "./declare.ts";
import { FENCED, READING_OWN_MAIL } from "./emails.rest.ts";

// The sending area's operations as REST and MCP see them (see declare.ts):
// sends, replies and forwards, sent mail and the suppression list.

/**
 * Mail sent, whole, or when $fenced (for a model) with its text only inside the fence (a forward quotes a
 * stranger's) and its delivery reports without the words their servers wrote (action, diagnostic, MTA).
 */
export const SentFields = graphql(`
  fragment SentFields on SentEmail {
    id agentId to subject bodyText @skip(if: $fenced) bodyHtml @skip(if: $fenced) fenced @include(if: $fenced)
    sentAt providerId threadId
    deliveryStatus deliveries { recipient status statusCode ... @skip(if: $fenced) { action diagnosticCode remoteMta } at }
  }
`);

/** What a model reads of a delivery report. */
export const REPORTS_READ =
  "Each of its deliveries gives a recipient's status and statusCode, not the words the reporting server wrote.";

const PendingFields = graphql(`
  fragment PendingFields on PendingSend { __typename id status sendAt to subject }
`);

/** What asking to send answers: the sent email, or the draft it waits as. */
export const SendResultFields = graphql(
  `fragment SendResultFields on SendResult { __typename ... on SentEmail { id to subject sentAt threadId } ...PendingFields }`,
  [PendingFields],
);

/** What a send that waits answers (202): the draft it waits as, its status, and sendAt when it has one. */
const pendingAnswer = ({ __typename, ...pending }: { __typename: "PendingSend"; sendAt: unknown }) =>
  withoutNulls(pending);

type SentShape = {
  __typename: "SentEmail";
  id: string;
  to: string[];
  subject: string;
  sentAt: unknown;
  threadId: string;
};

/** What a reply, a forward or a draft's send answers: the spec's send body (`to` a list) and the thread, or the draft it waits as. */
export const sendAnswer = (result: SentShape | Parameters<typeof pendingAnswer>[0]) =>
  result.__typename === "PendingSend"
    ? pendingAnswer(result)
    : { id: result.id, to: result.to, subject: result.subject, sentAt: result.sentAt, threadId: result.threadId };

/** A send waits (202) when it answers with the draft it waits as. */
export const waits = (result: { __typename: string }) => result.__typename === "PendingSend";

/** The spec's sent email object: its `to` one string. */
export const sentObject = <T extends { to: string[] }>(sent: T) => ({ ...sent, to: joinedAddresses(sent.to) });

/**
 * What every request that writes a message shares: the agent's own, a body
 * up to the send limit, 201 (202 when a send waits).
 */
export const WRITES = {
  access: "agent",
  tag: "sending",
  refuses: [403, 404, 409, 422],
  body: true,
  maxBodyBytes: SEND_BODY_LIMIT,
  status: 201,
} satisfies Partial<Route>;

/** What every request that sends a message adds: its idempotencyKey from the Idempotency-Key header. */
const SENDS = { ...WRITES, renames: { idempotencyKey: { header: "idempotency-key" } } } satisfies Partial<Route>;

/** What a tool that sends says of a send that waits. */
export const WAITS =
  ' With sendAt, or when your operator has a person approve your mail first, nothing is sent yet: it answers {id, status: "scheduled" or "pending_approval", to, subject, sendAt}. A pending_approval message waits for a person, who is sent its review link: you are told the outcome (email.approved or email.rejected), and you can delete the draft to withdraw it.';

export const sendingOperations = [
  declare({
    method: "POST",
    path: "/agents/:agentId/send",
    ...SENDS,
    acceptedWhen: ({ sendEmail }) => waits(sendEmail),
    operation: graphql(
      `mutation SendEmail($agentId: ID!, $input: SendEmailInput!, $idempotencyKey: String) {
        sendEmail(agentId: $agentId, input: $input, idempotencyKey: $idempotencyKey) {
          ...SendResultFields
        }
      }`,
      [SendResultFields],
    ),
    // The spec answers `to` as the client gave it: one address or a list.
    respond: ({ sendEmail }, { body }) =>
      sendEmail.__typename === "PendingSend"
        ? pendingAnswer(sendEmail)
        : {
            id: sendEmail.id,
            to: body.to,
            subject: sendEmail.subject,
            sentAt: sendEmail.sentAt,
            threadId: sendEmail.threadId,
          },
    mcp: {
      name: "send_email",
      title: "Send an email",
      description: `Sends a new email from your address. Give text, html or both. Counts against your daily send limit. Returns the sent email's id and thread. To answer a received email, use reply_to_email instead.${WAITS}`,
    },
  }),
  declare({
    method: "POST",
    path: "/agents/:agentId/emails/:emailId/reply",
    ...SENDS,
    acceptedWhen: ({ replyToEmail }) => waits(replyToEmail),
    operation: graphql(
      `mutation ReplyToEmail($agentId: ID!, $emailId: ID!, $input: ReplyInput!, $idempotencyKey: String) {
        replyToEmail(agentId: $agentId, emailId: $emailId, input: $input, idempotencyKey: $idempotencyKey) {
          ...SendResultFields
        }
      }`,
      [SendResultFields],
    ),
    respond: ({ replyToEmail }) => sendAnswer(replyToEmail),
    mcp: {
      name: "reply_to_email",
      title: "Reply to an email",
      description: `Answers a received email: to its sender (and with replyAll to everyone on it), with Re: subject, quoting and threading done for you. Returns the sent email's id and thread.${WAITS}`,
    },
  }),
  declare({
    method: "POST",
    path: "/agents/:agentId/emails/:emailId/forward",
    ...SENDS,
    acceptedWhen: ({ forwardEmail }) => waits(forwardEmail),
    operation: graphql(
      `mutation ForwardEmail($agentId: ID!, $emailId: ID!, $input: ForwardInput!, $idempotencyKey: String) {
        forwardEmail(agentId: $agentId, emailId: $emailId, input: $input, idempotencyKey: $idempotencyKey) {
          ...SendResultFields
        }
      }`,
      [SendResultFields],
    ),
    respond: ({ forwardEmail }) => sendAnswer(forwardEmail),
    mcp: {
      name: "forward_email",
      title: "Forward an email",
      description: `Forwards a received email, with its attachments, to other addresses, with your note above it. Returns the sent email's id.${WAITS}`,
    },
  }),
  declare({
    method: "GET",
    path: "/agents/:agentId/sent",
    ...ownAgent("sending"),
    operation: graphql(
      `query ListSent($agentId: ID!, $limit: Int, $offset: Int, $fenced: Boolean = false) {
        agent(id: $agentId) { sent(limit: $limit, offset: $offset) { data { ...SentFields } total limit offset } }
      }`,
      [SentFields],
    ),
    respond: ({ agent }) => agent?.sent && { ...agent.sent, data: agent.sent.data.map(sentObject) },
    mcp: {
      name: "list_sent",
      title: "List sent emails",
      fills: FENCED,
      description: `Lists the emails you have sent, newest first. ${READING_OWN_MAIL} ${REPORTS_READ} Returns {data, total, limit, offset}.`,
    },
  }),
  declare({
    method: "GET",
    path: "/agents/:agentId/sent/:sentId",
    ...ownAgent("sending"),
    operation: graphql(
      `query GetSentEmail($agentId: ID!, $sentId: ID!, $fenced: Boolean = false) { agent(id: $agentId) { sentEmail(id: $sentId) { ...SentFields } } }`,
      [SentFields],
    ),
    respond: ({ agent }) => agent?.sentEmail && sentObject(agent.sentEmail),
  }),
  declare({
    method: "DELETE",
    path: "/agents/:agentId/sent/:sentId",
    ...ownAgent("sending"),
    operation: graphql(`
      mutation DeleteSentEmail($agentId: ID!, $sentId: ID!) {
        deleteSentEmail(agentId: $agentId, sentId: $sentId) { success message }
      }
    `),
  }),
  declare({
    method: "GET",
    path: "/agents/:agentId/suppressions",
    ...ownAgent("sending"),
    operation: graphql(`
      query ListSuppressions($agentId: ID!, $limit: Int, $offset: Int) {
        agent(id: $agentId) {
          suppressions(limit: $limit, offset: $offset) {
            data { address reason statusCode sentId createdAt } total limit offset
          }
        }
      }
    `),
    respond: ({ agent }) => agent?.suppressions,
    mcp: {
      name: "list_suppressions",
      title: "List suppressed addresses",
      description:
        "Lists the addresses your mail no longer goes to, newest first: each bounced hard (the address does not exist) or reported your mail as spam. Sending to one is refused with RECIPIENT_SUPPRESSED. Returns {data, total, limit, offset}.",
    },
  }),
  declare({
    method: "DELETE",
    path: "/agents/:agentId/suppressions/:address",
    ...ownAgent("sending"),
    operation: graphql(`
      mutation RemoveSuppression($agentId: ID!, $address: String!) {
        removeSuppression(agentId: $agentId, address: $address) { success message }
      }
    `),
  }),
];
