import { graphql } from "../rest/graphql.ts";
import { RegistrationFields } from "./agents.rest.ts";
import { declare, podRoute, withoutNulls } from "./declare.ts";

// The pods area's operations as REST and MCP see them (see declare.ts): what
// a key of a pod does to its pod. Its tools are shown to a pod's key only.

export const NewPodKeyFields = graphql(
  `fragment NewPodKeyFields on NewKey { id key name permissions agents expiresAt hideJunk createdAt }`,
);

export const PodKeyFields = graphql(
  `fragment PodKeyFields on Key { id name permissions agents expiresAt hideJunk createdAt }`,
);

export const podOperations = [
  declare({
    method: "POST",
    path: "/pods/:podId/keys",
    ...podRoute,
    body: true,
    status: 201,
    operation: graphql(
      `mutation CreatePodKey($podId: ID!, $input: CreateKeyInput!) {
        createPodKey(podId: $podId, input: $input) { ...NewPodKeyFields }
      }`,
      [NewPodKeyFields],
    ),
  }),
  declare({
    method: "GET",
    path: "/pods/:podId/keys",
    ...podRoute,
    operation: graphql(`query ListPodKeys($podId: ID!) { podKeys(podId: $podId) { ...PodKeyFields } }`, [PodKeyFields]),
    respond: ({ podKeys }) => ({ data: podKeys }),
  }),
  declare({
    method: "DELETE",
    path: "/pods/:podId/keys/:keyId",
    ...podRoute,
    operation: graphql(
      `mutation RevokePodKey($podId: ID!, $keyId: ID!) { revokePodKey(podId: $podId, keyId: $keyId) { success message } }`,
    ),
  }),
  declare({
    method: "GET",
    path: "/pods/:podId/policy",
    ...podRoute,
    operation: graphql(`query PodPolicy($podId: ID!) { podPolicy(podId: $podId) { sendPolicy sendPolicyOverride } }`),
  }),
  declare({
    method: "PUT",
    path: "/pods/:podId/policy",
    ...podRoute,
    body: true,
    operation: graphql(
      `mutation SetPodPolicy($podId: ID!, $sendPolicy: SendPolicy) {
        setPodPolicy(podId: $podId, sendPolicy: $sendPolicy) { sendPolicy sendPolicyOverride }
      }`,
    ),
  }),
  declare({
    method: "POST",
    path: "/pods/:podId/agents",
    ...podRoute,
    refuses: [403, 404, 409],
    body: true,
    status: 201,
    operation: graphql(
      `mutation CreatePodAgent($podId: ID!, $input: CreatePodAgentInput!) {
        createPodAgent(podId: $podId, input: $input) { ...RegistrationFields }
      }`,
      [RegistrationFields],
    ),
    respond: ({ createPodAgent }) => ({ ...createPodAgent, agent: withoutNulls(createPodAgent.agent) }),
    mcp: {
      name: "create_pod_agent",
      title: "Make an agent in the pod",
      description:
        "Makes a new agent (a mailbox) in your pod, its id the local part of its address. Returns the agent, its own API key (shown once), and, while the pod is not verified, the link a human opens to verify it. Its other tools then take its id as agentId.",
    },
  }),
  declare({
    method: "GET",
    path: "/pods/:podId/agents",
    ...podRoute,
    operation: graphql(
      `query ListPodAgents($podId: ID!) { podAgents(podId: $podId) { id email name createdAt verified } }`,
    ),
    respond: ({ podAgents }) => ({ data: podAgents }),
    mcp: {
      name: "list_pod_agents",
      title: "List the pod's agents",
      description:
        "Lists the agents of your pod this key reaches, oldest first: each one's id (the agentId the other tools take), address, name and whether it is verified. Returns {data}.",
    },
  }),
];
