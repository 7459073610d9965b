import { graphql } from "../rest/graphql.ts";
import { declare, podRoute } from "./declare.ts";
import { EmailFenceable } from "./emails.rest.ts";

// A pod's mail as REST sees it (see declare.ts): the agent's list and its
// search (GET /agents/{id}/emails) over the pod's agents, each item naming
// its agentId. No MCP tools: MCP serves an agent's key.

export const podMailOperations = [
  declare({
    method: "GET",
    path: "/pods/:podId/emails",
    ...podRoute,
    operation: graphql(
      `query ListPodEmails(
        $podId: ID!, $folder: String, $limit: Int, $offset: Int, $q: String, $from: String, $to: String,
        $after: Timestamp, $before: Timestamp, $isRead: Boolean, $hasAttachments: Boolean,
        $authenticated: Boolean, $autoSubmitted: Boolean, $spam: Boolean, $label: [String!],
        $fenced: Boolean = false
      ) {
        podEmails(
          podId: $podId, folder: $folder, limit: $limit, offset: $offset, search: $q, from: $from, to: $to,
          receivedAfter: $after, receivedBefore: $before, isRead: $isRead,
          hasAttachments: $hasAttachments, authenticated: $authenticated, autoSubmitted: $autoSubmitted,
          spam: $spam, label: $label
        ) { data { ...EmailFenceable } total limit offset }
      }`,
      [EmailFenceable],
    ),
  }),
  declare({
    method: "GET",
    path: "/pods/:podId/search",
    ...podRoute,
    operation: graphql(
      `query SearchPodEmails(
        $podId: ID!, $q: String!, $folder: String, $limit: Int, $offset: Int, $from: String, $to: String,
        $after: Timestamp, $before: Timestamp, $isRead: Boolean, $hasAttachments: Boolean,
        $authenticated: Boolean, $autoSubmitted: Boolean, $spam: Boolean, $label: [String!],
        $fenced: Boolean = false
      ) {
        podSearch(
          podId: $podId, search: $q, folder: $folder, limit: $limit, offset: $offset, from: $from, to: $to,
          receivedAfter: $after, receivedBefore: $before, isRead: $isRead,
          hasAttachments: $hasAttachments, authenticated: $authenticated, autoSubmitted: $autoSubmitted,
          spam: $spam, label: $label
        ) { data { ...EmailFenceable } total limit offset }
      }`,
      [EmailFenceable],
    ),
  }),
];
