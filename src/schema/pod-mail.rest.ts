import { graphql } from "../rest/graphql.ts";
import { declare, podRoute } from "./declare.ts";
import { EmailFenceable, FENCED, FOLDER_PAGE, MAIL_FILTER, MAIL_LIST_ARGUMENTS } from "./emails.rest.ts";

// A pod's mail as REST and MCP see it (see declare.ts): the agent's list and
// its search (GET /agents/{id}/emails) over the pod's agents, each item
// naming its agentId. Its tools are shown to a pod's key only.

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
    mcp: {
      name: "list_pod_emails",
      title: "List the pod's emails",
      fills: FENCED,
      description:
        "Lists the emails received by all the agents of your pod this key reaches, newest first, each as list_emails gives it and naming its agentId (use it with read_email and the other tools). Narrow by folder, sender, time, label or words. Returns {data, total, limit, offset}.",
    },
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
    mcp: {
      name: "search_pod_emails",
      title: "Search the pod's emails",
      fills: FENCED,
      description:
        'Finds emails received by any agent of your pod this key reaches, by words in the subject, sender or text, best match first, each naming its agentId. Words match by prefix without regard to case or accents; "an exact phrase" in quotes; -word excludes. Returns {data, total, limit, offset}.',
    },
  }),
];
