import { graphql } from "../rest/graphql.ts";
import { declare, ownAgent } from "./declare.ts";

// The events area's operations as REST and MCP see them (see declare.ts).

export const eventOperations = [
  declare({
    method: "GET",
    path: "/agents/:agentId/events",
    ...ownAgent("events"),
    operation: graphql(`
      query AgentEvents($agentId: ID!, $after: ID, $limit: Int, $wait: Int, $types: [String!], $label: [String!]) {
        agentEvents(agentId: $agentId, after: $after, limit: $limit, wait: $wait, types: $types, label: $label) {
          data { id type agentId createdAt data } nextAfter
        }
      }
    `),
  }),
];
