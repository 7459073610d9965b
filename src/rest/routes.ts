import type { ResultOf, TadaDocumentNode, VariablesOf } from "gql.tada";
import { joinedAddresses } from "../mailbox/records.ts";
import { graphql } from "./graphql.ts";

// The REST layer of the spec as a table over the GraphQL schema: each row
// names a path, the typed operation it runs, how the request becomes its
// variables and how its result becomes the spec's body. The compiler checks
// both against the schema. No rule lives here.

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, string>;
  body: Record<string, unknown>;
  /** Request headers, by lower-case name. */
  headers: Record<string, string>;
}

/** An attachment whose bytes a route answers with. */
export interface FileRef {
  agentId: string;
  emailId: string;
  attachmentId: string;
}

// biome-ignore lint/suspicious/noExplicitAny: any operation of the schema
type Operation = TadaDocumentNode<any, any>;

export interface Route<D extends Operation = Operation> {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  operation: D;
  /** Reads a JSON object body. */
  body?: true;
  /** Largest body accepted; 1 MiB unless given. */
  maxBodyBytes?: number;
  /** The operation's variables, each as the client sent it: checked against its type before the operation runs. */
  variables?: (request: RestRequest) => { [K in keyof VariablesOf<D>]-?: unknown };
  status?: 201;
  /** Answers 202 Accepted instead when this holds of the operation's data: the request waits (a scheduled or held send). */
  acceptedWhen?: (data: ResultOf<D>) => boolean;
  /** The body is text (a zone file), answered as text/plain. */
  text?: true;
  /** 204 No Content when the body would be null. */
  noContentWhenNull?: true;
  /** The spec's body from the operation's data; the one root field's value unless given. */
  respond?: (data: ResultOf<D>, request: RestRequest) => unknown;
  /** Answers with an attachment's bytes rather than JSON: the one the operation found. */
  file?: (data: ResultOf<D>, request: RestRequest) => FileRef | null;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const SEND_BODY_LIMIT = 10 * 1024 * 1024;

/** A row of the table, typed by its operation. */
const route = <D extends Operation>(row: Route<D>) => row as unknown as Route;

/** The spec's "present only if set" fields are left out rather than null. */
function withoutNulls<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null)) as Partial<T>;
}

/** A query-string number, as given when it is not one, so that the check names the problem. */
function intParam(value: string | undefined): number | string | undefined {
  return value !== undefined && /^-?\d{1,15}$/.test(value) ? Number(value) : value;
}

/** true and false; anything else is passed on for the check to refuse. */
function booleanParam(value: string | undefined): boolean | string | undefined {
  return value === "true" ? true : value === "false" ? false : value;
}

/** The Idempotency-Key header, when the client sent one. */
const idempotencyKey = (request: RestRequest) => request.headers["idempotency-key"];

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
const sendAnswer = (result: SentShape | Parameters<typeof pendingAnswer>[0]) =>
  result.__typename === "PendingSend"
    ? pendingAnswer(result)
    : { id: result.id, to: result.to, subject: result.subject, sentAt: result.sentAt, threadId: result.threadId };

/** A send waits (202) when it answers with the draft it waits as. */
const waits = (result: { __typename: string }) => result.__typename === "PendingSend";

const PendingFields = graphql(`
  fragment PendingFields on PendingSend { __typename id status sendAt to subject }
`);

/** The spec's sent email object: its `to` one string. */
const sentObject = <T extends { to: string[] }>(sent: T) => ({ ...sent, to: joinedAddresses(sent.to) });

/** A page of the agent's mail, in one folder when the query names it. */
const folderPage = ({ params, query }: RestRequest) => ({
  agentId: params.agentId,
  folder: query.folder,
  limit: intParam(query.limit),
  offset: intParam(query.offset),
});

/** One address or a list of them, as the spec's send body has it; GraphQL takes a list. */
function addressList(value: unknown): unknown {
  return value === undefined || value === null || Array.isArray(value) ? value : [value];
}

const AgentFields = graphql(`
  fragment AgentFields on Agent { id email name metadata createdAt verified verifiedAt storageUsed storageLimit }
`);

const EmailFields = graphql(`
  fragment EmailFields on Email {
    id agentId messageId from { address name } to subject bodyText bodyHtml receivedAt isRead folder threadId
    attachments { id filename contentType size inline contentId }
    text preview replyText links { url text } codes
    authentication { spf dkim dmarc arc verdict } autoSubmitted reportIgnored
  }
`);

const SentFields = graphql(`
  fragment SentFields on SentEmail {
    id agentId to subject bodyText bodyHtml sentAt providerId threadId
    deliveryStatus deliveries { recipient status action statusCode diagnosticCode remoteMta at }
  }
`);

const DraftFields = graphql(`
  fragment DraftFields on Draft {
    id to cc bcc subject text html replyTo attachments { filename contentType size inline contentId }
    inReplyTo sendStatus sendAt failure { code message } approvalExpiresAt rejectReason size createdAt updatedAt
  }
`);

/** A draft's fields as a body gives them: left out stays left out, so that PATCH keeps it. */
const draftInput = ({ body }: RestRequest) => ({
  to: addressList(body.to),
  cc: addressList(body.cc),
  bcc: addressList(body.bcc),
  subject: body.subject,
  text: body.text,
  html: body.html,
  replyTo: body.replyTo,
  attachments: body.attachments,
  inReplyTo: body.inReplyTo,
  sendAt: body.sendAt,
});

const draftParams = ({ params }: RestRequest) => ({ agentId: params.agentId, draftId: params.draftId });

const DomainFields = graphql(`
  fragment DomainFields on Domain {
    name source open createdAt selector records { type name value purpose } removable { type name value purpose }
    lastCheck { checkedAt records { type name value purpose status found } }
  }
`);

const domainParams = ({ params }: RestRequest) => ({ name: params.name });

const DecisionFields = graphql(`
  fragment DecisionFields on Decision { draftId status sendAt reason }
`);

const ThreadFields = graphql(`
  fragment ThreadFields on Thread { id subject participants messageCount unreadCount lastMessageAt }
`);

const WebhookFields = graphql(`
  fragment WebhookFields on Webhook { id url events description enabled disabledReason pausedUntil createdAt }
`);

const AdminAgentFields = graphql(`
  fragment AdminAgentFields on AdminAgent {
    id email name metadata createdAt verified verifiedAt verifiedBy createdBy socialUsername storageUsed storageLimit
    storageLimitOverride sendsToday dailySendLimit dailySendLimitOverride sendPolicy sendPolicyOverride
    reviewerEmail reviewerEmailOverride reviewerWebhookUrl reviewerWebhookUrlOverride lastReceivedAt
  }
`);

const webhookParams = ({ params }: RestRequest) => ({ agentId: params.agentId, webhookId: params.webhookId });

export const routes: Route[] = [
  route({
    method: "POST",
    path: "/agents",
    body: true,
    status: 201,
    operation: graphql(`
      mutation CreateAgent($input: CreateAgentInput!) {
        createAgent(input: $input) { agent { id email name metadata createdAt verified } apiKey verifyUrl instruction }
      }
    `),
    variables: ({ body }) => ({
      input: { id: body.id, name: body.name, metadata: body.metadata, domain: body.domain },
    }),
    respond: ({ createAgent }) => ({ ...createAgent, agent: withoutNulls(createAgent.agent) }),
  }),
  route({
    method: "GET",
    path: "/domains",
    operation: graphql("query Domains { domains }"),
    respond: ({ domains }) => ({ domains }),
  }),
  route({
    method: "GET",
    path: "/agents/:agentId",
    operation: graphql(`query Agent($agentId: ID!) { agent(id: $agentId) { ...AgentFields } }`, [AgentFields]),
    variables: ({ params }) => ({ agentId: params.agentId }),
    respond: ({ agent }) => agent && withoutNulls(agent),
  }),
  route({
    method: "DELETE",
    path: "/agents/:agentId",
    operation: graphql(`mutation DeleteAgent($agentId: ID!) { deleteAgent(agentId: $agentId) { success message } }`),
    variables: ({ params }) => ({ agentId: params.agentId }),
  }),
  route({
    method: "POST",
    path: "/agents/:agentId/rotate-key",
    operation: graphql(`mutation RotateApiKey($agentId: ID!) { rotateApiKey(agentId: $agentId) { apiKey message } }`),
    variables: ({ params }) => ({ agentId: params.agentId }),
  }),
  // With the API key, or with the claim token of the agent's verification link (the page's calls).
  ...["/verify/start", "/verify/:claimToken/start"].map((path) =>
    route({
      method: "POST",
      path,
      operation: graphql(`
        mutation StartVerification($claimToken: String) {
          startVerification(claimToken: $claimToken) { verificationCode expiresAt tweetText socialIntentUrl }
        }
      `),
      variables: ({ params }) => ({ claimToken: params.claimToken }),
    }),
  ),
  ...["/verify/complete", "/verify/:claimToken/complete"].map((path) =>
    route({
      method: "POST",
      path,
      body: true,
      operation: graphql(`
        mutation CompleteVerification($tweetUrl: String!, $claimToken: String) {
          completeVerification(tweetUrl: $tweetUrl, claimToken: $claimToken) { success verifiedAt socialUsername }
        }
      `),
      variables: ({ body, params }) => ({ tweetUrl: body.tweetUrl, claimToken: params.claimToken }),
    }),
  ),
  route({
    method: "GET",
    path: "/verify/status",
    operation: graphql(
      `query VerificationStatus { verificationStatus { mode verified verifiedAt hasActiveCode codeExpiresAt } }`,
    ),
    respond: ({ verificationStatus }) => withoutNulls(verificationStatus),
  }),
  route({
    method: "GET",
    path: "/agents/:agentId/emails",
    operation: graphql(
      `query ListEmails(
        $agentId: ID!, $folder: String, $limit: Int, $offset: Int, $q: String, $from: String, $to: String,
        $after: Timestamp, $before: Timestamp, $isRead: Boolean, $hasAttachments: Boolean,
        $authenticated: Boolean, $autoSubmitted: Boolean
      ) {
        agent(id: $agentId) {
          emails(
            folder: $folder, limit: $limit, offset: $offset, search: $q, from: $from, to: $to,
            receivedAfter: $after, receivedBefore: $before, isRead: $isRead,
            hasAttachments: $hasAttachments, authenticated: $authenticated, autoSubmitted: $autoSubmitted
          ) { data { ...EmailFields } total limit offset }
        }
      }`,
      [EmailFields],
    ),
    variables: (request) => ({
      ...folderPage(request),
      q: request.query.q,
      from: request.query.from,
      to: request.query.to,
      after: intParam(request.query.after),
      before: intParam(request.query.before),
      isRead: booleanParam(request.query.isRead),
      hasAttachments: booleanParam(request.query.hasAttachments),
      authenticated: booleanParam(request.query.authenticated),
      autoSubmitted: booleanParam(request.query.autoSubmitted),
    }),
    respond: ({ agent }) => agent?.emails,
  }),
  route({
    method: "GET",
    path: "/agents/:agentId/events",
    operation: graphql(`
      query AgentEvents($agentId: ID!, $after: ID, $limit: Int, $wait: Int, $types: [String!]) {
        agentEvents(agentId: $agentId, after: $after, limit: $limit, wait: $wait, types: $types) {
          data { id type agentId createdAt data } nextAfter
        }
      }
    `),
    variables: ({ params, query }) => ({
      agentId: params.agentId,
      after: query.after,
      limit: intParam(query.limit),
      wait: intParam(query.wait),
      types: query.types?.split(","),
    }),
  }),
  // Before /emails/:emailId, which would take "wait" for an id.
  route({
    method: "GET",
    path: "/agents/:agentId/emails/wait",
    noContentWhenNull: true,
    operation: graphql(
      `query WaitForEmail($agentId: ID!, $filter: EmailWaitFilter, $timeout: Int) {
        waitForEmail(agentId: $agentId, filter: $filter, timeoutSeconds: $timeout) { ...EmailFields }
      }`,
      [EmailFields],
    ),
    variables: ({ params, query }) => ({
      agentId: params.agentId,
      filter: { folder: query.folder, from: query.from, subject: query.subject, after: intParam(query.after) },
      timeout: intParam(query.timeout),
    }),
  }),
  route({
    method: "GET",
    path: "/agents/:agentId/senders",
    operation: graphql(`query Senders($agentId: ID!) { agent(id: $agentId) { senders { allow block } } }`),
    variables: ({ params }) => ({ agentId: params.agentId }),
    respond: ({ agent }) => agent?.senders,
  }),
  route({
    method: "PUT",
    path: "/agents/:agentId/senders",
    body: true,
    operation: graphql(`
      mutation SetSenders($agentId: ID!, $allow: [String!], $block: [String!]) {
        setSenders(agentId: $agentId, allow: $allow, block: $block) { allow block }
      }
    `),
    variables: ({ params, body }) => ({ agentId: params.agentId, allow: body.allow, block: body.block }),
  }),
  route({
    method: "POST",
    path: "/agents/:agentId/emails/batch",
    body: true,
    operation: graphql(`
      mutation UpdateEmails($agentId: ID!, $emailIds: [ID!]!, $folder: String, $isRead: Boolean) {
        updateEmails(agentId: $agentId, emailIds: $emailIds, folder: $folder, isRead: $isRead) { updated }
      }
    `),
    variables: ({ params, body }) => ({
      agentId: params.agentId,
      emailIds: body.emailIds,
      folder: body.folder,
      isRead: body.isRead,
    }),
  }),
  route({
    method: "GET",
    path: "/agents/:agentId/emails/:emailId/attachments/:attachmentId",
    operation: graphql(`
      query GetAttachment($agentId: ID!, $emailId: ID!) {
        email(agentId: $agentId, emailId: $emailId) { id agentId attachments { id } }
      }
    `),
    variables: ({ params }) => ({ agentId: params.agentId, emailId: params.emailId }),
    file: ({ email }, { params }) => {
      const attachment = email?.attachments.find((a) => a.id === params.attachmentId);
      return email && attachment ? { agentId: email.agentId, emailId: email.id, attachmentId: attachment.id } : null;
    },
  }),
  route({
    method: "GET",
    path: "/agents/:agentId/threads",
    operation: graphql(
      `query ListThreads($agentId: ID!, $folder: String, $limit: Int, $offset: Int) {
        agent(id: $agentId) {
          threads(folder: $folder, limit: $limit, offset: $offset) { data { ...ThreadFields } total limit offset }
        }
      }`,
      [ThreadFields],
    ),
    variables: folderPage,
    respond: ({ agent }) => agent?.threads,
  }),
  route({
    method: "GET",
    path: "/agents/:agentId/threads/:threadId",
    operation: graphql(
      `query GetThread($agentId: ID!, $threadId: ID!) {
        thread(agentId: $agentId, threadId: $threadId) {
          ...ThreadFields
          messages { direction email { ...EmailFields } sent { ...SentFields } }
        }
      }`,
      [ThreadFields, EmailFields, SentFields],
    ),
    variables: ({ params }) => ({ agentId: params.agentId, threadId: params.threadId }),
    respond: ({ thread }) =>
      thread && {
        ...thread,
        messages: thread.messages.map(({ direction, email, sent }) => ({
          ...(email ?? (sent && sentObject(sent))),
          direction,
        })),
      },
  }),
  route({
    method: "GET",
    path: "/agents/:agentId/emails/:emailId",
    operation: graphql(
      `query GetEmail($agentId: ID!, $emailId: ID!) { email(agentId: $agentId, emailId: $emailId) { ...EmailFields } }`,
      [EmailFields],
    ),
    variables: ({ params }) => ({ agentId: params.agentId, emailId: params.emailId }),
  }),
  route({
    method: "PATCH",
    path: "/agents/:agentId/emails/:emailId",
    body: true,
    operation: graphql(
      `mutation UpdateEmail($agentId: ID!, $emailId: ID!, $folder: String, $isRead: Boolean) {
        updateEmail(agentId: $agentId, emailId: $emailId, folder: $folder, isRead: $isRead) { ...EmailFields }
      }`,
      [EmailFields],
    ),
    variables: ({ params, body }) => ({
      agentId: params.agentId,
      emailId: params.emailId,
      folder: body.folder,
      isRead: body.isRead,
    }),
  }),
  route({
    method: "DELETE",
    path: "/agents/:agentId/emails/:emailId",
    operation: graphql(`
      mutation DeleteEmail($agentId: ID!, $emailId: ID!, $permanent: Boolean) {
        deleteEmail(agentId: $agentId, emailId: $emailId, permanent: $permanent) { success message }
      }
    `),
    variables: ({ params, query }) => ({
      agentId: params.agentId,
      emailId: params.emailId,
      permanent: booleanParam(query.permanent),
    }),
  }),
  route({
    method: "POST",
    path: "/agents/:agentId/send",
    body: true,
    maxBodyBytes: SEND_BODY_LIMIT,
    status: 201,
    acceptedWhen: ({ sendEmail }) => waits(sendEmail),
    operation: graphql(
      `mutation SendEmail($agentId: ID!, $input: SendEmailInput!, $idempotencyKey: String) {
        sendEmail(agentId: $agentId, input: $input, idempotencyKey: $idempotencyKey) {
          __typename ... on SentEmail { id subject sentAt threadId } ...PendingFields
        }
      }`,
      [PendingFields],
    ),
    variables: (request) => ({
      agentId: request.params.agentId,
      input: {
        to: addressList(request.body.to),
        cc: addressList(request.body.cc),
        bcc: addressList(request.body.bcc),
        subject: request.body.subject,
        text: request.body.text,
        html: request.body.html,
        replyTo: request.body.replyTo,
        inReplyTo: request.body.inReplyTo,
        attachments: request.body.attachments,
        autoSubmitted: request.body.autoSubmitted,
        sendAt: request.body.sendAt,
      },
      idempotencyKey: idempotencyKey(request),
    }),
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
  }),
  route({
    method: "POST",
    path: "/agents/:agentId/emails/:emailId/reply",
    body: true,
    maxBodyBytes: SEND_BODY_LIMIT,
    status: 201,
    acceptedWhen: ({ replyToEmail }) => waits(replyToEmail),
    operation: graphql(
      `mutation ReplyToEmail($agentId: ID!, $emailId: ID!, $input: ReplyInput!, $idempotencyKey: String) {
        replyToEmail(agentId: $agentId, emailId: $emailId, input: $input, idempotencyKey: $idempotencyKey) {
          __typename ... on SentEmail { id to subject sentAt threadId } ...PendingFields
        }
      }`,
      [PendingFields],
    ),
    variables: (request) => ({
      agentId: request.params.agentId,
      emailId: request.params.emailId,
      input: {
        text: request.body.text,
        html: request.body.html,
        replyAll: request.body.replyAll,
        attachments: request.body.attachments,
        autoSubmitted: request.body.autoSubmitted,
        sendAt: request.body.sendAt,
      },
      idempotencyKey: idempotencyKey(request),
    }),
    respond: ({ replyToEmail }) => sendAnswer(replyToEmail),
  }),
  route({
    method: "POST",
    path: "/agents/:agentId/emails/:emailId/forward",
    body: true,
    maxBodyBytes: SEND_BODY_LIMIT,
    status: 201,
    acceptedWhen: ({ forwardEmail }) => waits(forwardEmail),
    operation: graphql(
      `mutation ForwardEmail($agentId: ID!, $emailId: ID!, $input: ForwardInput!, $idempotencyKey: String) {
        forwardEmail(agentId: $agentId, emailId: $emailId, input: $input, idempotencyKey: $idempotencyKey) {
          __typename ... on SentEmail { id to subject sentAt threadId } ...PendingFields
        }
      }`,
      [PendingFields],
    ),
    variables: (request) => ({
      agentId: request.params.agentId,
      emailId: request.params.emailId,
      input: {
        to: addressList(request.body.to),
        text: request.body.text,
        html: request.body.html,
        attachments: request.body.attachments,
        autoSubmitted: request.body.autoSubmitted,
        sendAt: request.body.sendAt,
      },
      idempotencyKey: idempotencyKey(request),
    }),
    respond: ({ forwardEmail }) => sendAnswer(forwardEmail),
  }),
  route({
    method: "GET",
    path: "/agents/:agentId/sent",
    operation: graphql(
      `query ListSent($agentId: ID!, $limit: Int, $offset: Int) {
        agent(id: $agentId) { sent(limit: $limit, offset: $offset) { data { ...SentFields } total limit offset } }
      }`,
      [SentFields],
    ),
    variables: ({ params, query }) => ({
      agentId: params.agentId,
      limit: intParam(query.limit),
      offset: intParam(query.offset),
    }),
    respond: ({ agent }) => agent?.sent && { ...agent.sent, data: agent.sent.data.map(sentObject) },
  }),
  route({
    method: "GET",
    path: "/agents/:agentId/sent/:sentId",
    operation: graphql(
      `query GetSentEmail($agentId: ID!, $sentId: ID!) { agent(id: $agentId) { sentEmail(id: $sentId) { ...SentFields } } }`,
      [SentFields],
    ),
    variables: ({ params }) => ({ agentId: params.agentId, sentId: params.sentId }),
    respond: ({ agent }) => agent?.sentEmail && sentObject(agent.sentEmail),
  }),
  route({
    method: "POST",
    path: "/agents/:agentId/drafts",
    body: true,
    maxBodyBytes: SEND_BODY_LIMIT,
    status: 201,
    operation: graphql(
      `mutation CreateDraft($agentId: ID!, $input: DraftInput!) {
        createDraft(agentId: $agentId, input: $input) { ...DraftFields }
      }`,
      [DraftFields],
    ),
    variables: (request) => ({ agentId: request.params.agentId, input: draftInput(request) }),
    respond: ({ createDraft }) => createDraft,
  }),
  route({
    method: "GET",
    path: "/agents/:agentId/drafts",
    operation: graphql(
      `query ListDrafts($agentId: ID!, $limit: Int, $offset: Int) {
        agent(id: $agentId) { drafts(limit: $limit, offset: $offset) { data { ...DraftFields } total limit offset } }
      }`,
      [DraftFields],
    ),
    variables: ({ params, query }) => ({
      agentId: params.agentId,
      limit: intParam(query.limit),
      offset: intParam(query.offset),
    }),
    respond: ({ agent }) => agent?.drafts,
  }),
  route({
    method: "GET",
    path: "/agents/:agentId/drafts/:draftId",
    operation: graphql(
      `query GetDraft($agentId: ID!, $draftId: ID!) { agent(id: $agentId) { draft(id: $draftId) { ...DraftFields } } }`,
      [DraftFields],
    ),
    variables: draftParams,
    respond: ({ agent }) => agent?.draft,
  }),
  route({
    method: "PATCH",
    path: "/agents/:agentId/drafts/:draftId",
    body: true,
    maxBodyBytes: SEND_BODY_LIMIT,
    operation: graphql(
      `mutation UpdateDraft($agentId: ID!, $draftId: ID!, $input: DraftInput!) {
        updateDraft(agentId: $agentId, draftId: $draftId, input: $input) { ...DraftFields }
      }`,
      [DraftFields],
    ),
    variables: (request) => ({ ...draftParams(request), input: draftInput(request) }),
    respond: ({ updateDraft }) => updateDraft,
  }),
  route({
    method: "DELETE",
    path: "/agents/:agentId/drafts/:draftId",
    operation: graphql(`
      mutation DeleteDraft($agentId: ID!, $draftId: ID!) {
        deleteDraft(agentId: $agentId, draftId: $draftId) { success message }
      }
    `),
    variables: draftParams,
  }),
  route({
    method: "POST",
    path: "/agents/:agentId/drafts/:draftId/send",
    status: 201,
    acceptedWhen: ({ sendDraft }) => waits(sendDraft),
    operation: graphql(
      `mutation SendDraft($agentId: ID!, $draftId: ID!) {
        sendDraft(agentId: $agentId, draftId: $draftId) {
          __typename ... on SentEmail { id to subject sentAt threadId } ...PendingFields
        }
      }`,
      [PendingFields],
    ),
    variables: draftParams,
    respond: ({ sendDraft }) => sendAnswer(sendDraft),
  }),
  route({
    method: "GET",
    path: "/agents/:agentId/suppressions",
    operation: graphql(`
      query ListSuppressions($agentId: ID!, $limit: Int, $offset: Int) {
        agent(id: $agentId) {
          suppressions(limit: $limit, offset: $offset) {
            data { address reason statusCode sentId createdAt } total limit offset
          }
        }
      }
    `),
    variables: ({ params, query }) => ({
      agentId: params.agentId,
      limit: intParam(query.limit),
      offset: intParam(query.offset),
    }),
    respond: ({ agent }) => agent?.suppressions,
  }),
  route({
    method: "DELETE",
    path: "/agents/:agentId/suppressions/:address",
    operation: graphql(`
      mutation RemoveSuppression($agentId: ID!, $address: String!) {
        removeSuppression(agentId: $agentId, address: $address) { success message }
      }
    `),
    variables: ({ params }) => ({ agentId: params.agentId, address: params.address }),
  }),
  route({
    method: "DELETE",
    path: "/agents/:agentId/sent/:sentId",
    operation: graphql(`
      mutation DeleteSentEmail($agentId: ID!, $sentId: ID!) {
        deleteSentEmail(agentId: $agentId, sentId: $sentId) { success message }
      }
    `),
    variables: ({ params }) => ({ agentId: params.agentId, sentId: params.sentId }),
  }),
  route({
    method: "POST",
    path: "/agents/:agentId/webhooks",
    body: true,
    status: 201,
    operation: graphql(
      `mutation CreateWebhook($agentId: ID!, $input: CreateWebhookInput!) {
        createWebhook(agentId: $agentId, input: $input) { webhook { ...WebhookFields } secret }
      }`,
      [WebhookFields],
    ),
    variables: ({ params, body }) => ({
      agentId: params.agentId,
      input: { url: body.url, events: body.events, description: body.description },
    }),
    respond: ({ createWebhook }) => ({ ...createWebhook.webhook, secret: createWebhook.secret }),
  }),
  route({
    method: "GET",
    path: "/agents/:agentId/webhooks",
    operation: graphql(`query ListWebhooks($agentId: ID!) { agent(id: $agentId) { webhooks { ...WebhookFields } } }`, [
      WebhookFields,
    ]),
    variables: ({ params }) => ({ agentId: params.agentId }),
    respond: ({ agent }) => agent && { data: agent.webhooks },
  }),
  route({
    method: "GET",
    path: "/agents/:agentId/webhooks/:webhookId",
    operation: graphql(
      `query GetWebhook($agentId: ID!, $webhookId: ID!) {
        webhook(agentId: $agentId, webhookId: $webhookId) { ...WebhookFields }
      }`,
      [WebhookFields],
    ),
    variables: webhookParams,
  }),
  route({
    method: "PATCH",
    path: "/agents/:agentId/webhooks/:webhookId",
    body: true,
    operation: graphql(
      `mutation UpdateWebhook($agentId: ID!, $webhookId: ID!, $input: UpdateWebhookInput!) {
        updateWebhook(agentId: $agentId, webhookId: $webhookId, input: $input) { ...WebhookFields }
      }`,
      [WebhookFields],
    ),
    variables: (request) => ({
      ...webhookParams(request),
      input: {
        url: request.body.url,
        events: request.body.events,
        description: request.body.description,
        enabled: request.body.enabled,
      },
    }),
  }),
  route({
    method: "DELETE",
    path: "/agents/:agentId/webhooks/:webhookId",
    operation: graphql(`
      mutation DeleteWebhook($agentId: ID!, $webhookId: ID!) {
        deleteWebhook(agentId: $agentId, webhookId: $webhookId) { success message }
      }
    `),
    variables: webhookParams,
  }),
  route({
    method: "POST",
    path: "/agents/:agentId/webhooks/:webhookId/rotate-secret",
    operation: graphql(
      `mutation RotateWebhookSecret($agentId: ID!, $webhookId: ID!) {
        rotateWebhookSecret(agentId: $agentId, webhookId: $webhookId) { webhook { ...WebhookFields } secret }
      }`,
      [WebhookFields],
    ),
    variables: webhookParams,
    respond: ({ rotateWebhookSecret }) => ({ ...rotateWebhookSecret.webhook, secret: rotateWebhookSecret.secret }),
  }),
  route({
    method: "GET",
    path: "/agents/:agentId/webhooks/:webhookId/deliveries",
    operation: graphql(`
      query ListWebhookDeliveries($agentId: ID!, $webhookId: ID!, $limit: Int, $offset: Int) {
        webhook(agentId: $agentId, webhookId: $webhookId) {
          deliveries(limit: $limit, offset: $offset) {
            data {
              id eventId type status attempts nextAttemptAt createdAt
              attemptLog { at statusCode error durationMs }
            }
            total limit offset
          }
        }
      }
    `),
    variables: (request) => ({
      ...webhookParams(request),
      limit: intParam(request.query.limit),
      offset: intParam(request.query.offset),
    }),
    respond: ({ webhook }) => webhook?.deliveries,
  }),
  route({
    method: "POST",
    path: "/agents/:agentId/webhooks/:webhookId/deliveries/:deliveryId/retry",
    operation: graphql(`
      mutation RetryWebhookDelivery($agentId: ID!, $webhookId: ID!, $deliveryId: ID!) {
        retryWebhookDelivery(agentId: $agentId, webhookId: $webhookId, deliveryId: $deliveryId) { success message }
      }
    `),
    variables: (request) => ({ ...webhookParams(request), deliveryId: request.params.deliveryId }),
  }),
  // A person's, by a held message's review link: no key, the token decides that message only.
  route({
    method: "GET",
    path: "/review/:reviewToken/message",
    operation: graphql(`
      query Review($token: String!) {
        review(token: $token) {
          id agent { id name email } from to cc bcc subject text html
          attachments { filename contentType size } sendAt expiresAt
        }
      }
    `),
    variables: ({ params }) => ({ token: params.reviewToken }),
  }),
  route({
    method: "POST",
    path: "/review/:reviewToken/approve",
    operation: graphql(`mutation ApproveSend($token: String!) { approveSend(token: $token) { ...DecisionFields } }`, [
      DecisionFields,
    ]),
    variables: ({ params }) => ({ token: params.reviewToken }),
  }),
  route({
    method: "POST",
    path: "/review/:reviewToken/reject",
    body: true,
    operation: graphql(
      `mutation RejectSend($token: String!, $reason: String) { rejectSend(token: $token, reason: $reason) { ...DecisionFields } }`,
      [DecisionFields],
    ),
    variables: ({ params, body }) => ({ token: params.reviewToken, reason: body.reason }),
  }),
  // The operator's, by ADMIN_TOKEN: left out of what agents are told (OpenAPI, skill files).
  route({
    method: "POST",
    path: "/admin/domains",
    body: true,
    status: 201,
    operation: graphql(
      `mutation AdminAddDomain($name: String!, $open: Boolean) {
        admin { addDomain(name: $name, open: $open) { ...DomainFields } }
      }`,
      [DomainFields],
    ),
    variables: ({ body }) => ({ name: body.name, open: body.open }),
    respond: ({ admin }) => admin.addDomain,
  }),
  route({
    method: "PATCH",
    path: "/admin/domains/:name",
    body: true,
    operation: graphql(
      `mutation AdminUpdateDomain($name: String!, $open: Boolean!) {
        admin { updateDomain(name: $name, open: $open) { ...DomainFields } }
      }`,
      [DomainFields],
    ),
    variables: ({ params, body }) => ({ name: params.name, open: body.open }),
    respond: ({ admin }) => admin.updateDomain,
  }),
  route({
    method: "GET",
    path: "/admin/domains",
    operation: graphql(`query AdminDomains { admin { domains { ...DomainFields } } }`, [DomainFields]),
    respond: ({ admin }) => ({ data: admin.domains }),
  }),
  route({
    method: "GET",
    path: "/admin/domains/:name",
    operation: graphql(`query AdminDomain($name: String!) { admin { domain(name: $name) { ...DomainFields } } }`, [
      DomainFields,
    ]),
    variables: domainParams,
    respond: ({ admin }) => admin.domain,
  }),
  route({
    method: "GET",
    path: "/admin/domains/:name/zone",
    text: true,
    operation: graphql(`query AdminDomainZone($name: String!) { admin { domainZone(name: $name) } }`),
    variables: domainParams,
    respond: ({ admin }) => admin.domainZone,
  }),
  route({
    method: "POST",
    path: "/admin/domains/:name/verify",
    operation: graphql(
      `mutation AdminVerifyDomain($name: String!) { admin { verifyDomain(name: $name) { ...DomainFields } } }`,
      [DomainFields],
    ),
    variables: domainParams,
    respond: ({ admin }) => admin.verifyDomain,
  }),
  route({
    method: "POST",
    path: "/admin/domains/:name/rotate-dkim",
    operation: graphql(
      `mutation AdminRotateDkim($name: String!, $now: Boolean) { admin { rotateDkim(name: $name, now: $now) { ...DomainFields } } }`,
      [DomainFields],
    ),
    variables: ({ params, query }) => ({ name: params.name, now: booleanParam(query.now) }),
    respond: ({ admin }) => admin.rotateDkim,
  }),
  route({
    method: "DELETE",
    path: "/admin/domains/:name",
    operation: graphql(
      `mutation AdminDeleteDomain($name: String!) { admin { deleteDomain(name: $name) { success message } } }`,
    ),
    variables: domainParams,
    respond: ({ admin }) => admin.deleteDomain,
  }),
  route({
    method: "GET",
    path: "/admin/held",
    operation: graphql(
      `query AdminHeld($limit: Int, $offset: Int) {
        admin { held(limit: $limit, offset: $offset) { data { agentId ...DraftFields } total limit offset } }
      }`,
      [DraftFields],
    ),
    variables: ({ query }) => ({ limit: intParam(query.limit), offset: intParam(query.offset) }),
    respond: ({ admin }) => admin.held,
  }),
  route({
    method: "POST",
    path: "/admin/agents/:agentId/drafts/:draftId/approve",
    operation: graphql(
      `mutation AdminApproveHeld($id: ID!, $draftId: ID!) {
        admin { approveHeld(id: $id, draftId: $draftId) { ...DecisionFields } }
      }`,
      [DecisionFields],
    ),
    variables: ({ params }) => ({ id: params.agentId, draftId: params.draftId }),
    respond: ({ admin }) => admin.approveHeld,
  }),
  route({
    method: "POST",
    path: "/admin/agents/:agentId/drafts/:draftId/reject",
    body: true,
    operation: graphql(
      `mutation AdminRejectHeld($id: ID!, $draftId: ID!, $reason: String) {
        admin { rejectHeld(id: $id, draftId: $draftId, reason: $reason) { ...DecisionFields } }
      }`,
      [DecisionFields],
    ),
    variables: ({ params, body }) => ({ id: params.agentId, draftId: params.draftId, reason: body.reason }),
    respond: ({ admin }) => admin.rejectHeld,
  }),
  route({
    method: "PUT",
    path: "/admin/agents/:agentId/policy",
    body: true,
    operation: graphql(
      `mutation AdminSetSendPolicy($id: ID!, $sendPolicy: SendPolicy) {
        admin { setSendPolicy(id: $id, sendPolicy: $sendPolicy) { ...AdminAgentFields } }
      }`,
      [AdminAgentFields],
    ),
    variables: ({ params, body }) => ({ id: params.agentId, sendPolicy: body.sendPolicy }),
    respond: ({ admin }) => admin.setSendPolicy,
  }),
  route({
    method: "PUT",
    path: "/admin/agents/:agentId/reviewer",
    body: true,
    operation: graphql(
      `mutation AdminSetReviewer($id: ID!, $email: String, $webhookUrl: String, $webhookSecret: String) {
        admin { setReviewer(id: $id, email: $email, webhookUrl: $webhookUrl, webhookSecret: $webhookSecret) {
          ...AdminAgentFields
        } }
      }`,
      [AdminAgentFields],
    ),
    variables: ({ params, body }) => ({
      id: params.agentId,
      email: body.email,
      webhookUrl: body.webhookUrl,
      webhookSecret: body.webhookSecret,
    }),
    respond: ({ admin }) => admin.setReviewer,
  }),
  route({
    method: "POST",
    path: "/admin/agents",
    body: true,
    status: 201,
    operation: graphql(`
      mutation AdminCreateAgent($input: CreateAgentInput!) {
        admin { createAgent(input: $input) { agent { id email name metadata createdAt verified } apiKey verifyUrl instruction } }
      }
    `),
    variables: ({ body }) => ({
      input: { id: body.id, name: body.name, metadata: body.metadata, domain: body.domain },
    }),
    respond: ({ admin }) => ({ ...admin.createAgent, agent: withoutNulls(admin.createAgent.agent) }),
  }),
  route({
    method: "GET",
    path: "/admin/agents",
    operation: graphql(
      `query AdminAgents($limit: Int, $offset: Int, $verified: Boolean, $prefix: String) {
        admin { agents(limit: $limit, offset: $offset, verified: $verified, prefix: $prefix) {
          data { ...AdminAgentFields } total limit offset
        } }
      }`,
      [AdminAgentFields],
    ),
    variables: ({ query }) => ({
      limit: intParam(query.limit),
      offset: intParam(query.offset),
      verified: booleanParam(query.verified),
      prefix: query.prefix,
    }),
    respond: ({ admin }) => admin.agents,
  }),
  route({
    method: "GET",
    path: "/admin/agents/:agentId",
    operation: graphql(`query AdminAgent($id: ID!) { admin { agent(id: $id) { ...AdminAgentFields } } }`, [
      AdminAgentFields,
    ]),
    variables: ({ params }) => ({ id: params.agentId }),
    respond: ({ admin }) => admin.agent,
  }),
  route({
    method: "POST",
    path: "/admin/agents/:agentId/verify",
    operation: graphql(
      `mutation AdminVerifyAgent($id: ID!) { admin { verifyAgent(id: $id) { ...AdminAgentFields } } }`,
      [AdminAgentFields],
    ),
    variables: ({ params }) => ({ id: params.agentId }),
    respond: ({ admin }) => admin.verifyAgent,
  }),
  route({
    method: "DELETE",
    path: "/admin/agents/:agentId",
    operation: graphql(`mutation AdminDeleteAgent($id: ID!) { admin { deleteAgent(id: $id) { success message } } }`),
    variables: ({ params }) => ({ id: params.agentId }),
    respond: ({ admin }) => admin.deleteAgent,
  }),
  route({
    method: "POST",
    path: "/admin/agents/:agentId/rotate-key",
    operation: graphql(`mutation AdminRotateAgentKey($id: ID!) { admin { rotateAgentKey(id: $id) { apiKey } } }`),
    variables: ({ params }) => ({ id: params.agentId }),
    respond: ({ admin }) => admin.rotateAgentKey,
  }),
  route({
    method: "GET",
    path: "/admin/agents/:agentId/suppressions",
    operation: graphql(`
      query AdminSuppressions($id: ID!, $limit: Int, $offset: Int) {
        admin {
          suppressions(id: $id, limit: $limit, offset: $offset) {
            data { address reason statusCode sentId createdAt } total limit offset
          }
        }
      }
    `),
    variables: ({ params, query }) => ({
      id: params.agentId,
      limit: intParam(query.limit),
      offset: intParam(query.offset),
    }),
    respond: ({ admin }) => admin.suppressions,
  }),
  route({
    method: "DELETE",
    path: "/admin/agents/:agentId/suppressions/:address",
    operation: graphql(`
      mutation AdminRemoveSuppression($id: ID!, $address: String!) {
        admin { removeSuppression(id: $id, address: $address) { success message } }
      }
    `),
    variables: ({ params }) => ({ id: params.agentId, address: params.address }),
    respond: ({ admin }) => admin.removeSuppression,
  }),
  route({
    method: "PUT",
    path: "/admin/agents/:agentId/limits",
    body: true,
    operation: graphql(
      `mutation AdminSetAgentLimits($id: ID!, $storageLimit: Int, $dailySendLimit: Int) {
        admin { setAgentLimits(id: $id, storageLimit: $storageLimit, dailySendLimit: $dailySendLimit) {
          ...AdminAgentFields
        } }
      }`,
      [AdminAgentFields],
    ),
    // Left out keeps a limit, null sets it back: GraphQL tells an absent variable from a null one.
    variables: ({ params, body }) => ({
      id: params.agentId,
      storageLimit: body.storageLimit,
      dailySendLimit: body.dailySendLimit,
    }),
    respond: ({ admin }) => admin.setAgentLimits,
  }),
  route({
    method: "GET",
    path: "/admin/stats",
    operation: graphql(`
      query AdminStats {
        admin { stats {
          agents verified emails bytes sendsToday poller { polling connected lastPollAt lag lastError }
        } }
      }
    `),
    respond: ({ admin }) => admin.stats,
  }),
];

/** What agents and their developers are told of (OpenAPI, skill files): all but the operator's routes. */
export const publicRoutes = routes.filter((route) => !route.path.startsWith("/admin/"));
