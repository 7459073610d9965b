import { graphql } from "../rest/graphql.ts";
import { declare, type Route } from "./declare.ts";

// The review area's operations as REST sees them (see declare.ts): a
// person's, by a held message's review link (a draft's: approve or reject; a
// quarantined message's: release or delete); no key, the token decides that
// message only.

export const DecisionFields = graphql(`
  fragment DecisionFields on Decision { draftId status sendAt reason }
`);

/** Who calls a review route, and what a link may answer: no such link (404), decided already (410). */
const BY_LINK = { access: "reviewer", tag: "review", refuses: [404, 410] } satisfies Partial<Route>;

export const reviewOperations = [
  declare({
    method: "GET",
    path: "/review/:reviewToken/message",
    ...BY_LINK,
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
    ...BY_LINK,
    operation: graphql(
      `mutation ApproveSend($reviewToken: String!) { approveSend(token: $reviewToken) { ...DecisionFields } }`,
      [DecisionFields],
    ),
  }),
  declare({
    method: "POST",
    path: "/review/:reviewToken/reject",
    ...BY_LINK,
    body: true,
    operation: graphql(
      `mutation RejectSend($reviewToken: String!, $reason: String) {
        rejectSend(token: $reviewToken, reason: $reason) { ...DecisionFields }
      }`,
      [DecisionFields],
    ),
  }),
  declare({
    method: "GET",
    path: "/review/:reviewToken/quarantined",
    ...BY_LINK,
    operation: graphql(`
      query QuarantineReview($reviewToken: String!) {
        quarantineReview(token: $reviewToken) {
          id agent { id name email } from to subject reason detail receivedAt size text
        }
      }
    `),
  }),
  declare({
    method: "POST",
    path: "/review/:reviewToken/release",
    ...BY_LINK,
    refuses: [404, 409, 410, 429],
    operation: graphql(
      `mutation ReleaseByReview($reviewToken: String!) { releaseByReview(token: $reviewToken) { emailId } }`,
    ),
  }),
  declare({
    method: "POST",
    path: "/review/:reviewToken/delete",
    ...BY_LINK,
    operation: graphql(
      `mutation DeleteByReview($reviewToken: String!) { deleteByReview(token: $reviewToken) { success message } }`,
    ),
  }),
];
