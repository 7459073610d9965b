import { graphql } from "../rest/graphql.ts";
import { declare } from "./declare.ts";

// The review area's operations as REST sees them (see declare.ts): a
// person's, by a held message's review link; no key, the token decides that
// message only.

export const DecisionFields = graphql(`
  fragment DecisionFields on Decision { draftId status sendAt reason }
`);

export const reviewOperations = [
  declare({
    method: "GET",
    path: "/review/:reviewToken/message",
    access: "reviewer",
    tag: "review",
    refuses: [404, 410],
    operation: graphql(`
      query Review($reviewToken: String!) {
        review(token: $reviewToken) {
          id agent { id name email } from to cc bcc subject text html
          attachments { filename contentType size } sendAt expiresAt
        }
      }
    `),
  }),
  declare({
    method: "POST",
    path: "/review/:reviewToken/approve",
    access: "reviewer",
    tag: "review",
    refuses: [404, 410],
    operation: graphql(
      `mutation ApproveSend($reviewToken: String!) { approveSend(token: $reviewToken) { ...DecisionFields } }`,
      [DecisionFields],
    ),
  }),
  declare({
    method: "POST",
    path: "/review/:reviewToken/reject",
    access: "reviewer",
    tag: "review",
    refuses: [404, 410],
    body: true,
    operation: graphql(
      `mutation RejectSend($reviewToken: String!, $reason: String) {
        rejectSend(token: $reviewToken, reason: $reason) { ...DecisionFields }
      }`,
      [DecisionFields],
    ),
  }),
];
