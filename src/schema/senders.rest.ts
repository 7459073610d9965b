import { graphql } from "../rest/graphql.ts";
import { declare, ownAgent, podRoute } from "./declare.ts";

// The agent's own sender lists as REST and MCP see them, and a pod's lists
// as its keys' REST does (see declare.ts); the operator's lists of every
// scope are in admin.rest.ts.

const PodListsFields = graphql(
  `fragment PodListsFields on ScopeLists { receive { allow block } send { allow block } }`,
);

export const senderOperations = [
  declare({
    method: "GET",
    path: "/agents/:agentId/senders",
    ...ownAgent("agents"),
    summary: "Whose mail is filed for the agent: its own allow and block lists, and its allow-only mode.",
    operation: graphql(`query Senders($agentId: ID!) { agent(id: $agentId) { senders { allow block allowOnly } } }`),
    respond: ({ agent }) => agent?.senders,
    mcp: {
      name: "get_sender_lists",
      title: "Show your sender lists",
      description:
        "Shows whose mail reaches you: allow (senders explicitly allowed: their mail is never filed as junk), block (senders whose mail is never filed, refused before its text is read) and allowOnly (only senders in allow reach you). Entries are addresses, @domain or @*.domain (the domain and its subdomains). The operator may keep lists for the whole instance and your domain too, and your pod's owner for your pod: yours win for the senders they name. Returns {allow, block, allowOnly}.",
    },
  }),
  declare({
    method: "PUT",
    path: "/agents/:agentId/senders",
    ...ownAgent("agents"),
    summary:
      "Replaces the agent's own allow and block lists (at most 1,000 entries each); allowOnly left out is on when allow has entries.",
    body: true,
    operation: graphql(`
      mutation SetSenders($agentId: ID!, $allow: [String!], $block: [String!], $allowOnly: Boolean) {
        setSenders(agentId: $agentId, allow: $allow, block: $block, allowOnly: $allowOnly) { allow block allowOnly }
      }
    `),
    mcp: {
      name: "set_sender_lists",
      title: "Replace your sender lists",
      description:
        "Replaces both your lists whole (a list left out becomes empty): allow and block, each of addresses, @domain or @*.domain (the domain and its subdomains), at most 1,000. allowOnly true: only senders in allow reach you; false: anyone not blocked, allow entries only skip the junk folder; left out: true when allow has entries. Get the lists first to add or remove one entry. Returns {allow, block, allowOnly}.",
    },
  }),
  declare({
    method: "GET",
    path: "/pods/:podId/lists",
    ...podRoute,
    summary: "The pod's allow and block lists, for its agents' receiving and sending.",
    operation: graphql(`query PodLists($podId: ID!) { podLists(podId: $podId) { ...PodListsFields } }`, [
      PodListsFields,
    ]),
  }),
  declare({
    method: "PUT",
    path: "/pods/:podId/lists",
    ...podRoute,
    summary: "Replaces the pod's lists: each direction given (receive, send), whole.",
    body: true,
    operation: graphql(
      `mutation SetPodLists($podId: ID!, $change: PodListsChange!) {
        setPodLists(podId: $podId, change: $change) { ...PodListsFields }
      }`,
      [PodListsFields],
    ),
  }),
];
