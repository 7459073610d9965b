import { graphql } from "./graphql.ts";

// The operations this client runs, each typed by schema.graphql.

export const CreateAgent = graphql(`
  mutation CreateAgent($input: CreateAgentInput!) {
    createAgent(input: $input) { agent { id email } apiKey verifyUrl }
  }
`);

export const VerificationStatus = graphql(`query VerificationStatus { verificationStatus { verified verifiedAt } }`);

export const Mailbox = graphql(`
  query Mailbox {
    me {
      folders { name total unread }
      emails(folder: "inbox", limit: 10) { total data { id subject from { address } receivedAt isRead } }
    }
  }
`);

export const SendEmail = graphql(`
  mutation SendEmail($agentId: ID!, $input: SendEmailInput!) {
    sendEmail(agentId: $agentId, input: $input) {
      __typename
      ... on SentEmail { id subject sentAt }
      ... on PendingSend { id status sendAt }
    }
  }
`);
