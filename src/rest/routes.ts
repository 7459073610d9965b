// The REST layer of the spec as a table over the GraphQL schema: each row
// names a path, the operation it runs, how the request becomes variables and
// how the operation's result becomes the spec's body. No rule lives here.

export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, string>;
  body: Record<string, unknown>;
}

export interface Route {
  method: "GET" | "POST" | "PATCH" | "DELETE";
  path: string;
  /** One operation with one root field, whose value is the answer. */
  operation: string;
  /** Reads a JSON object body. */
  body?: true;
  /** Largest body accepted; 1 MiB unless given. */
  maxBodyBytes?: number;
  variables?: (request: RestRequest) => Record<string, unknown>;
  status?: 201;
  // biome-ignore lint/suspicious/noExplicitAny: the shape is the operation's selection
  respond?: (result: any, request: RestRequest) => unknown;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const SEND_BODY_LIMIT = 10 * 1024 * 1024;

/** The spec's "present only if set" fields are left out rather than null. */
function withoutNulls(value: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null));
}

/** A query-string number, as given when it is not one, so that GraphQL names the problem. */
function intParam(value: string | undefined): number | string | undefined {
  return value !== undefined && /^-?\d{1,15}$/.test(value) ? Number(value) : value;
}

/** true and false; anything else is passed on for GraphQL to refuse. */
function booleanParam(value: string | undefined): boolean | string | undefined {
  return value === "true" ? true : value === "false" ? false : value;
}

/** One address or a list of them, as the spec's send body has it; GraphQL takes a list. */
function addressList(value: unknown): unknown {
  return value === undefined || value === null || Array.isArray(value) ? value : [value];
}

const SENT_FIELDS = "id agentId to subject bodyText bodyHtml sentAt providerId";

const EMAIL_FIELDS = "id agentId messageId from { address name } to subject bodyText bodyHtml receivedAt isRead folder";

const AGENT_FIELDS = "id email name metadata createdAt verified verifiedAt storageUsed storageLimit";

export const routes: Route[] = [
  {
    method: "POST",
    path: "/agents",
    body: true,
    status: 201,
    operation: `mutation CreateAgent($input: CreateAgentInput!) {
      createAgent(input: $input) { agent { id email name metadata createdAt verified } apiKey instruction }
    }`,
    variables: ({ body }) => ({ input: { id: body.id, name: body.name, metadata: body.metadata } }),
    respond: (result) => ({ ...result, agent: withoutNulls(result.agent) }),
  },
  {
    method: "GET",
    path: "/agents/:agentId",
    operation: `query Agent($agentId: ID!) { agent(id: $agentId) { ${AGENT_FIELDS} } }`,
    variables: ({ params }) => ({ agentId: params.agentId }),
    respond: withoutNulls,
  },
  {
    method: "DELETE",
    path: "/agents/:agentId",
    operation: `mutation DeleteAgent($agentId: ID!) { deleteAgent(agentId: $agentId) { success message } }`,
    variables: ({ params }) => ({ agentId: params.agentId }),
  },
  {
    method: "POST",
    path: "/agents/:agentId/rotate-key",
    operation: `mutation RotateApiKey($agentId: ID!) { rotateApiKey(agentId: $agentId) { apiKey message } }`,
    variables: ({ params }) => ({ agentId: params.agentId }),
  },
  {
    method: "POST",
    path: "/verify/start",
    operation: `mutation StartVerification {
      startVerification { verificationCode expiresAt tweetText socialIntentUrl }
    }`,
  },
  {
    method: "POST",
    path: "/verify/complete",
    body: true,
    operation: `mutation CompleteVerification($tweetUrl: String!) {
      completeVerification(tweetUrl: $tweetUrl) { success verifiedAt socialUsername }
    }`,
    variables: ({ body }) => ({ tweetUrl: body.tweetUrl }),
  },
  {
    method: "GET",
    path: "/verify/status",
    operation: `query VerificationStatus { verificationStatus { verified verifiedAt hasActiveCode codeExpiresAt } }`,
    respond: withoutNulls,
  },

  {
    method: "GET",
    path: "/agents/:agentId/emails",
    operation: `query ListEmails($agentId: ID!, $folder: String, $limit: Int, $offset: Int) {
      agent(id: $agentId) {
        emails(folder: $folder, limit: $limit, offset: $offset) { data { ${EMAIL_FIELDS} } total limit offset }
      }
    }`,
    variables: ({ params, query }) => ({
      agentId: params.agentId,
      folder: query.folder,
      limit: intParam(query.limit),
      offset: intParam(query.offset),
    }),
    respond: (agent) => agent.emails,
  },
  {
    method: "GET",
    path: "/agents/:agentId/emails/:emailId",
    operation: `query GetEmail($agentId: ID!, $emailId: ID!) {
      email(agentId: $agentId, emailId: $emailId) { ${EMAIL_FIELDS} }
    }`,
    variables: ({ params }) => ({ agentId: params.agentId, emailId: params.emailId }),
  },
  {
    method: "PATCH",
    path: "/agents/:agentId/emails/:emailId",
    body: true,
    operation: `mutation UpdateEmail($agentId: ID!, $emailId: ID!, $folder: String, $isRead: Boolean) {
      updateEmail(agentId: $agentId, emailId: $emailId, folder: $folder, isRead: $isRead) { ${EMAIL_FIELDS} }
    }`,
    variables: ({ params, body }) => ({
      agentId: params.agentId,
      emailId: params.emailId,
      folder: body.folder,
      isRead: body.isRead,
    }),
  },
  {
    method: "DELETE",
    path: "/agents/:agentId/emails/:emailId",
    operation: `mutation DeleteEmail($agentId: ID!, $emailId: ID!, $permanent: Boolean) {
      deleteEmail(agentId: $agentId, emailId: $emailId, permanent: $permanent) { success message }
    }`,
    variables: ({ params, query }) => ({
      agentId: params.agentId,
      emailId: params.emailId,
      permanent: booleanParam(query.permanent),
    }),
  },

  {
    method: "POST",
    path: "/agents/:agentId/send",
    body: true,
    maxBodyBytes: SEND_BODY_LIMIT,
    status: 201,
    operation: `mutation SendEmail($agentId: ID!, $input: SendEmailInput!) {
      sendEmail(agentId: $agentId, input: $input) { id subject sentAt }
    }`,
    variables: ({ params, body }) => ({
      agentId: params.agentId,
      input: {
        to: addressList(body.to),
        subject: body.subject,
        text: body.text,
        html: body.html,
        replyTo: body.replyTo,
      },
    }),
    // The spec answers `to` as the client gave it: one address or a list.
    respond: (sent, { body }) => ({ id: sent.id, to: body.to, subject: sent.subject, sentAt: sent.sentAt }),
  },
  {
    method: "GET",
    path: "/agents/:agentId/sent",
    operation: `query ListSent($agentId: ID!, $limit: Int, $offset: Int) {
      agent(id: $agentId) { sent(limit: $limit, offset: $offset) { data { ${SENT_FIELDS} } total limit offset } }
    }`,
    variables: ({ params, query }) => ({
      agentId: params.agentId,
      limit: intParam(query.limit),
      offset: intParam(query.offset),
    }),
    respond: (agent) => agent.sent,
  },
  {
    method: "DELETE",
    path: "/agents/:agentId/sent/:sentId",
    operation: `mutation DeleteSentEmail($agentId: ID!, $sentId: ID!) {
      deleteSentEmail(agentId: $agentId, sentId: $sentId) { success message }
    }`,
    variables: ({ params }) => ({ agentId: params.agentId, sentId: params.sentId }),
  },
];
