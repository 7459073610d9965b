import { graphql } from "../rest/graphql.ts";
import { declare, ownAgent } from "./declare.ts";

// The senders area's operations as REST and MCP see them (see declare.ts).

export const senderOperations = [
  declare({
    method: "GET",
    path: "/agents/:agentId/senders",
    ...ownAgent("agents"),
    operation: graphql(`query Senders($agentId: ID!) { agent(id: $agentId) { senders { allow block } } }`),
    respond: ({ agent }) => agent?.senders,
  }),
  declare({
    method: "PUT",
    path: "/agents/:agentId/senders",
    ...ownAgent("agents"),
    body: true,
    operation: graphql(`
      mutation SetSenders($agentId: ID!, $allow: [String!], $block: [String!]) {
        setSenders(agentId: $agentId, allow: $allow, block: $block) { allow block }
      }
    `),
  }),
];
