import { graphql } from "../rest/graphql.ts";
import { declare } from "./declare.ts";

// The senders area's operations as REST and MCP see them (see declare.ts).

export const senderOperations = [
  declare({
    method: "GET",
    path: "/agents/:agentId/senders",
    access: "agent",
    tag: "agents",
    summary: "Whose mail is filed for the agent: its allow and block lists.",
    refuses: [403, 404],
    operation: graphql(`query Senders($agentId: ID!) { agent(id: $agentId) { senders { allow block } } }`),
    respond: ({ agent }) => agent?.senders,
  }),
  declare({
    method: "PUT",
    path: "/agents/:agentId/senders",
    access: "agent",
    tag: "agents",
    summary: "Replaces the agent's allow and block lists (at most 1,000 entries each).",
    refuses: [403, 404],
    body: true,
    operation: graphql(`
      mutation SetSenders($agentId: ID!, $allow: [String!], $block: [String!]) {
        setSenders(agentId: $agentId, allow: $allow, block: $block) { allow block }
      }
    `),
  }),
];
