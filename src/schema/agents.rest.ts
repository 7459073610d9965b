import { graphql } from "../rest/graphql.ts";
import { declare, ownAgent, withoutNulls } from "./declare.ts";

// The agents area's operations as REST and MCP see them (see declare.ts).

export const AgentFields = graphql(`
  fragment AgentFields on Agent { id email name metadata createdAt verified verifiedAt storageUsed storageLimit }
`);

/** What a registration answers, by the agent or by the operator. */
export const RegistrationFields = graphql(`
  fragment RegistrationFields on CreateAgentPayload {
    agent { id email name metadata createdAt verified } apiKey verifyUrl instruction
  }
`);

export const agentOperations = [
  declare({
    method: "POST",
    path: "/agents",
    access: "open",
    tag: "agents",
    refuses: [409, 429],
    body: true,
    status: 201,
    operation: graphql(
      `mutation CreateAgent($input: CreateAgentInput!) { createAgent(input: $input) { ...RegistrationFields } }`,
      [RegistrationFields],
    ),
    respond: ({ createAgent }) => ({ ...createAgent, agent: withoutNulls(createAgent.agent) }),
  }),
  declare({
    method: "GET",
    path: "/agents/:agentId",
    ...ownAgent("agents"),
    operation: graphql(`query Agent($agentId: ID!) { agent(id: $agentId) { ...AgentFields } }`, [AgentFields]),
    respond: ({ agent }) => agent && withoutNulls(agent),
    mcp: {
      name: "get_agent",
      title: "Your mailbox",
      description:
        "Shows your own mailbox: your email address, name, when a human verified you, and storage used and allowed. Call it first to learn your address. Until a human has verified you it answers NOT_VERIFIED: see get_verification_status.",
    },
  }),
  declare({
    method: "DELETE",
    path: "/agents/:agentId",
    ...ownAgent("agents"),
    operation: graphql(`mutation DeleteAgent($agentId: ID!) { deleteAgent(agentId: $agentId) { success message } }`),
  }),
  declare({
    method: "POST",
    path: "/agents/:agentId/rotate-key",
    ...ownAgent("agents"),
    operation: graphql(`mutation RotateApiKey($agentId: ID!) { rotateApiKey(agentId: $agentId) { apiKey message } }`),
  }),
];
