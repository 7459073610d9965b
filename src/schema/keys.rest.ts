import { graphql } from "../rest/graphql.ts";
import { declare, ownAgent } from "./declare.ts";

// The keys area's operations as REST and MCP see them (see declare.ts).

export const KeyFields = graphql(`fragment KeyFields on Key { id name permissions expiresAt hideJunk createdAt }`);

export const keyOperations = [
  declare({
    method: "POST",
    path: "/agents/:agentId/keys",
    ...ownAgent("keys"),
    body: true,
    status: 201,
    operation: graphql(
      `mutation CreateKey($agentId: ID!, $input: CreateKeyInput!) {
        createKey(agentId: $agentId, input: $input) { id key name permissions expiresAt hideJunk createdAt }
      }`,
    ),
  }),
  declare({
    method: "GET",
    path: "/agents/:agentId/keys",
    ...ownAgent("keys"),
    operation: graphql(`query ListKeys($agentId: ID!) { keys(agentId: $agentId) { ...KeyFields } }`, [KeyFields]),
    respond: ({ keys }) => ({ data: keys }),
  }),
  declare({
    method: "DELETE",
    path: "/agents/:agentId/keys/:keyId",
    ...ownAgent("keys"),
    operation: graphql(
      `mutation RevokeKey($agentId: ID!, $keyId: ID!) { revokeKey(agentId: $agentId, keyId: $keyId) { success message } }`,
    ),
  }),
];
