import { graphql } from "../rest/graphql.ts";
import { declare, ownAgent } from "./declare.ts";
import { EmailFenceable, FENCED } from "./emails.rest.ts";
import { REPORTS_READ, SentFields, sentObject } from "./sending.rest.ts";

// The threads area's operations as REST and MCP see them (see declare.ts).

const ThreadFields = graphql(`
  fragment ThreadFields on Thread { id subject participants messageCount unreadCount lastMessageAt labels }
`);

export const threadOperations = [
  declare({
    method: "GET",
    path: "/agents/:agentId/threads",
    ...ownAgent("threads"),
    operation: graphql(
      `query ListThreads($agentId: ID!, $folder: String, $label: [String!], $limit: Int, $offset: Int) {
        agent(id: $agentId) {
          threads(folder: $folder, label: $label, limit: $limit, offset: $offset) {
            data { ...ThreadFields } total limit offset
          }
        }
      }`,
      [ThreadFields],
    ),
    respond: ({ agent }) => agent?.threads,
    mcp: {
      name: "list_threads",
      title: "List conversations",
      description:
        'Lists your conversations, newest activity first, each with its subject, participants, labels and how many messages are unread; with label (e.g. ["project-x", "-closed"]), those you labelled so. Returns {data, total, limit, offset}.',
    },
  }),
  declare({
    method: "GET",
    path: "/agents/:agentId/threads/:threadId",
    ...ownAgent("threads"),
    operation: graphql(
      `query GetThread($agentId: ID!, $threadId: ID!, $fenced: Boolean = false) {
        thread(agentId: $agentId, threadId: $threadId) {
          ...ThreadFields
          messages { direction email { ...EmailFenceable } sent { ...SentFields } }
        }
      }`,
      [ThreadFields, EmailFenceable, SentFields],
    ),
    respond: ({ thread }) =>
      thread && {
        ...thread,
        messages: thread.messages.map(({ direction, email, sent }) => ({
          ...(email ?? (sent && sentObject(sent))),
          direction,
        })),
      },
    mcp: {
      name: "read_thread",
      title: "Read a conversation",
      fills: FENCED,
      description: `Reads one conversation whole: the messages received and sent in it, oldest first, each marked by direction (received or sent); a received one's text is only in fenced, as read_email gives it, and a sent one's too, between markers labelled author=you (a forward quotes its original, which is that sender's data). ${REPORTS_READ}`,
    },
  }),
  declare({
    method: "PATCH",
    path: "/agents/:agentId/threads/:threadId",
    ...ownAgent("threads"),
    body: true,
    operation: graphql(
      `mutation UpdateThread($agentId: ID!, $threadId: ID!, $addLabels: [String!], $removeLabels: [String!]) {
        updateThread(agentId: $agentId, threadId: $threadId, addLabels: $addLabels, removeLabels: $removeLabels) {
          ...ThreadFields
        }
      }`,
      [ThreadFields],
    ),
    mcp: {
      name: "label_thread",
      title: "Label a conversation",
      description:
        'Puts labels on a conversation and/or takes them off (e.g. addLabels: ["project-x"]): the conversation\'s own, up to 20, whatever its messages carry. Find them again with list_threads and label. Returns the conversation without its messages.',
    },
  }),
];
