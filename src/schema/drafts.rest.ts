import { graphql } from "../rest/graphql.ts";
import { declare, ownAgent, SEND_BODY_LIMIT } from "./declare.ts";
import { FENCED, READING_OWN_MAIL } from "./emails.rest.ts";
import { SendResultFields, sendAnswer, WAITS, WRITES, waits } from "./sending.rest.ts";

// The drafts area's operations as REST and MCP see them (see declare.ts).

/** A draft, whole, or with its text only inside the fence when $fenced (a held forward quotes a stranger's). */
export const DraftFields = graphql(`
  fragment DraftFields on Draft {
    id to cc bcc subject text @skip(if: $fenced) html @skip(if: $fenced) fenced @include(if: $fenced)
    replyTo attachments { filename contentType size inline contentId }
    inReplyTo sendStatus sendAt failure { code message } approvalExpiresAt rejectReason size createdAt updatedAt
  }
`);

export const draftOperations = [
  declare({
    method: "POST",
    path: "/agents/:agentId/drafts",
    ...WRITES,
    operation: graphql(
      `mutation CreateDraft($agentId: ID!, $input: DraftInput!, $fenced: Boolean = false) {
        createDraft(agentId: $agentId, input: $input) { ...DraftFields }
      }`,
      [DraftFields],
    ),
    mcp: {
      name: "create_draft",
      title: "Write a draft",
      fills: FENCED,
      description: `Writes an email to send later, for you or your human to look over first; nothing is sent. Every field is optional. With inReplyTo (a received email's id) it is a reply to that email: its recipients and Re: subject are filled in. Send it with send_draft. Returns the draft. ${READING_OWN_MAIL}`,
    },
  }),
  declare({
    method: "GET",
    path: "/agents/:agentId/drafts",
    ...ownAgent("sending"),
    operation: graphql(
      `query ListDrafts($agentId: ID!, $limit: Int, $offset: Int, $fenced: Boolean = false) {
        agent(id: $agentId) { drafts(limit: $limit, offset: $offset) { data { ...DraftFields } total limit offset } }
      }`,
      [DraftFields],
    ),
    respond: ({ agent }) => agent?.drafts,
    mcp: {
      name: "list_drafts",
      title: "List drafts",
      fills: FENCED,
      description: `Lists your drafts, newest first. ${READING_OWN_MAIL} Returns {data, total, limit, offset}.`,
    },
  }),
  declare({
    method: "GET",
    path: "/agents/:agentId/drafts/:draftId",
    ...ownAgent("sending"),
    operation: graphql(
      `query GetDraft($agentId: ID!, $draftId: ID!, $fenced: Boolean = false) { agent(id: $agentId) { draft(id: $draftId) { ...DraftFields } } }`,
      [DraftFields],
    ),
    respond: ({ agent }) => agent?.draft,
  }),
  declare({
    method: "PATCH",
    path: "/agents/:agentId/drafts/:draftId",
    ...ownAgent("sending"),
    body: true,
    maxBodyBytes: SEND_BODY_LIMIT,
    operation: graphql(
      `mutation UpdateDraft($agentId: ID!, $draftId: ID!, $input: DraftInput!, $fenced: Boolean = false) {
        updateDraft(agentId: $agentId, draftId: $draftId, input: $input) { ...DraftFields }
      }`,
      [DraftFields],
    ),
    mcp: {
      name: "update_draft",
      title: "Change a draft",
      fills: FENCED,
      description: `Changes the fields you give of a draft; null clears one. Returns the draft. ${READING_OWN_MAIL}`,
    },
  }),
  declare({
    method: "DELETE",
    path: "/agents/:agentId/drafts/:draftId",
    ...ownAgent("sending"),
    operation: graphql(`
      mutation DeleteDraft($agentId: ID!, $draftId: ID!) {
        deleteDraft(agentId: $agentId, draftId: $draftId) { success message }
      }
    `),
    mcp: {
      name: "delete_draft",
      title: "Delete a draft",
      description:
        "Deletes a draft, giving back its storage. A message waiting scheduled or for a person's approval is a draft: deleting it withdraws it.",
    },
  }),
  declare({
    method: "POST",
    path: "/agents/:agentId/drafts/:draftId/send",
    access: "agent",
    tag: "sending",
    refuses: [403, 404, 409, 422],
    status: 201,
    acceptedWhen: ({ sendDraft }) => waits(sendDraft),
    operation: graphql(
      `mutation SendDraft($agentId: ID!, $draftId: ID!) {
        sendDraft(agentId: $agentId, draftId: $draftId) { ...SendResultFields }
      }`,
      [SendResultFields],
    ),
    respond: ({ sendDraft }) => sendAnswer(sendDraft),
    mcp: {
      name: "send_draft",
      title: "Send a draft",
      description: `Sends a draft as send_email sends a message (it needs to, a subject and text or html; the same limits apply). The draft is gone after; returns the sent email's id and thread.${WAITS}`,
    },
  }),
];
