import { graphql } from "../rest/graphql.ts";
import { declare } from "./declare.ts";

// The events area's operations as REST and MCP see them (see declare.ts).

export const eventOperations = [
  declare({
    method: "GET",
    path: "/agents/:agentId/events",
    access: "agent",
    tag: "events",
    summary: "Events after an id; with wait (0-25 s), holds on until at least one exists or the time runs out.",
    refuses: [403, 404],
    operation: graphql(`
      query AgentEvents($agentId: ID!, $after: ID, $limit: Int, $wait: Int, $types: [String!]) {
        agentEvents(agentId: $agentId, after: $after, limit: $limit, wait: $wait, types: $types) {
          data { id type agentId createdAt data } nextAfter
        }
      }
    `),
  }),
];
