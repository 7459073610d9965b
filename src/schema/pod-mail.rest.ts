import { graphql } from "../rest/graphql.ts";
import { declare, podRoute } from "./declare.ts";
import { EmailFenceable, FOLDER_PAGE, MAIL_FILTER, MAIL_LIST_ARGUMENTS } from "./emails.rest.ts";

// A pod's mail as REST sees it (see declare.ts): the agent's list and its
// search (GET /agents/{id}/emails) over the pod's agents, each item naming
// its agentId. No MCP tools: MCP serves an agent's key.

export const podMailOperations = [
  declare({
    method: "GET",
    path: "/pods/:podId/emails",
    ...podRoute,
    operation: graphql(
      `query ListPodEmails($podId: ID!, ${FOLDER_PAGE}, $q: String, ${MAIL_FILTER}) {
        podEmails(podId: $podId, ${MAIL_LIST_ARGUMENTS}) { data { ...EmailFenceable } total limit offset }
      }`,
      [EmailFenceable],
    ),
  }),
  declare({
    method: "GET",
    path: "/pods/:podId/search",
    ...podRoute,
    operation: graphql(
      `query SearchPodEmails($podId: ID!, $q: String!, ${FOLDER_PAGE}, ${MAIL_FILTER}) {
        podSearch(podId: $podId, ${MAIL_LIST_ARGUMENTS}) { data { ...EmailFenceable } total limit offset }
      }`,
      [EmailFenceable],
    ),
  }),
];
