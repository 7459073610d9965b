import { graphql } from "../rest/graphql.ts";
import { declare, podRoute, withoutNulls } from "./declare.ts";

// The verification area's operations as REST and MCP see them (see
// declare.ts). Starting and completing each have two routes: with the
// agent's key, or by the token of its verification link (the page's calls);
// a pod's with a key of the pod.

const CodeFields = graphql(`
  fragment CodeFields on VerificationChallenge { verificationCode expiresAt tweetText socialIntentUrl }
`);

const VerifiedFields = graphql(`
  fragment VerifiedFields on VerificationResult { success verifiedAt socialUsername }
`);

export const verificationOperations = [
  declare({
    method: "POST",
    path: "/verify/start",
    access: "agent",
    tag: "verification",
    operation: graphql(`mutation StartVerification { startVerification { ...CodeFields } }`, [CodeFields]),
  }),
  declare({
    method: "POST",
    path: "/verify/:claimToken/start",
    access: "open",
    tag: "verification",
    summary: "Issues a code by the verification link's token, without the key; it replaces any earlier one.",
    refuses: [404, 410],
    operation: graphql(
      `mutation StartVerificationByLink($claimToken: String!) {
        startVerification(claimToken: $claimToken) { ...CodeFields }
      }`,
      [CodeFields],
    ),
  }),
  declare({
    method: "POST",
    path: "/verify/complete",
    access: "agent",
    tag: "verification",
    body: true,
    operation: graphql(
      `mutation CompleteVerification($tweetUrl: String!) {
        completeVerification(tweetUrl: $tweetUrl) { ...VerifiedFields }
      }`,
      [VerifiedFields],
    ),
  }),
  declare({
    method: "POST",
    path: "/verify/:claimToken/complete",
    access: "open",
    tag: "verification",
    summary: "Checks the public post on X and verifies the agent, by the verification link's token, without the key.",
    refuses: [404, 410],
    body: true,
    operation: graphql(
      `mutation CompleteVerificationByLink($tweetUrl: String!, $claimToken: String!) {
        completeVerification(tweetUrl: $tweetUrl, claimToken: $claimToken) { ...VerifiedFields }
      }`,
      [VerifiedFields],
    ),
  }),
  declare({
    method: "GET",
    path: "/verify/status",
    access: "agent",
    tag: "verification",
    operation: graphql(
      `query VerificationStatus { verificationStatus { mode verified verifiedAt hasActiveCode codeExpiresAt } }`,
    ),
    respond: ({ verificationStatus }) => withoutNulls(verificationStatus),
    mcp: {
      name: "get_verification_status",
      title: "Verification status",
      description:
        "Tells whether a human has verified you yet (mail can be read and sent only then) and whether a verification code is waiting to be posted. Use it while you wait for your human to open your verification link.",
    },
  }),
  declare({
    method: "POST",
    path: "/pods/:podId/verify/start",
    ...podRoute,
    operation: graphql(
      `mutation StartPodVerification($podId: ID!) {
        startPodVerification(podId: $podId) { verificationCode expiresAt tweetText socialIntentUrl verifyUrl }
      }`,
    ),
  }),
  declare({
    method: "POST",
    path: "/pods/:podId/verify/complete",
    ...podRoute,
    body: true,
    operation: graphql(
      `mutation CompletePodVerification($podId: ID!, $tweetUrl: String!) {
        completePodVerification(podId: $podId, tweetUrl: $tweetUrl) { ...VerifiedFields }
      }`,
      [VerifiedFields],
    ),
  }),
];
