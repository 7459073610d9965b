import { graphql } from "../rest/graphql.ts";
import { RegistrationFields } from "./agents.rest.ts";
import { declare, withoutNulls } from "./declare.ts";
import { DraftFields } from "./drafts.rest.ts";
import { KeyFields } from "./keys.rest.ts";
import { NewPodKeyFields, PodKeyFields } from "./pods.rest.ts";
import { DecisionFields } from "./review.rest.ts";

// The operator's operations as REST sees them (see declare.ts), by
// ADMIN_TOKEN: left out of what agents are told (OpenAPI, skill files).

const DomainFields = graphql(`
  fragment DomainFields on Domain {
    name source open createdAt selector records { type name value purpose } removable { type name value purpose }
    lastCheck { checkedAt records { type name value purpose status found } }
  }
`);

const AdminAgentFields = graphql(`
  fragment AdminAgentFields on AdminAgent {
    id email name metadata createdAt verified verifiedAt verifiedBy createdBy socialUsername storageUsed storageLimit
    storageLimitOverride sendsToday dailySendLimit dailySendLimitOverride sendPolicy sendPolicyOverride
    reviewerEmail reviewerEmailOverride reviewerWebhookUrl reviewerWebhookUrlOverride screeningPolicy lastReceivedAt
    podId
  }
`);

const PodFields = graphql(
  `fragment PodFields on Pod { id name domains agents createdAt verified verifiedAt verifiedBy sendPolicy sendPolicyOverride }`,
);

/** What every operator route shares. */
const OPERATOR = { access: "operator", tag: "admin" } as const;

const ScopeListsFields = graphql(`
  fragment ScopeListsFields on ScopeLists { receive { allow block } send { allow block } allowOnly }
`);

/** The instance's lists answer without allowOnly, which only an agent's have. */
const withoutMode = ({ allowOnly: _, ...lists }: { allowOnly: boolean | null }) => lists;

export const adminOperations = [
  declare({
    method: "POST",
    path: "/admin/domains",
    ...OPERATOR,
    refuses: [409],
    body: true,
    status: 201,
    operation: graphql(
      `mutation AdminAddDomain($name: String!, $open: Boolean) {
        admin { addDomain(name: $name, open: $open) { ...DomainFields } }
      }`,
      [DomainFields],
    ),
  }),
  declare({
    method: "PATCH",
    path: "/admin/domains/:name",
    ...OPERATOR,
    refuses: [404],
    body: true,
    operation: graphql(
      `mutation AdminUpdateDomain($name: String!, $open: Boolean!) {
        admin { updateDomain(name: $name, open: $open) { ...DomainFields } }
      }`,
      [DomainFields],
    ),
  }),
  declare({
    method: "GET",
    path: "/admin/domains",
    ...OPERATOR,
    operation: graphql(`query AdminDomains { admin { domains { ...DomainFields } } }`, [DomainFields]),
    respond: ({ admin }) => ({ data: admin.domains }),
  }),
  declare({
    method: "GET",
    path: "/admin/domains/:name",
    ...OPERATOR,
    refuses: [404],
    operation: graphql(`query AdminDomain($name: String!) { admin { domain(name: $name) { ...DomainFields } } }`, [
      DomainFields,
    ]),
  }),
  declare({
    method: "GET",
    path: "/admin/domains/:name/zone",
    ...OPERATOR,
    summary: "A domain's DNS records as a zone file.",
    refuses: [404],
    text: true,
    operation: graphql(`query AdminDomainZone($name: String!) { admin { domainZone(name: $name) } }`),
  }),
  declare({
    method: "POST",
    path: "/admin/domains/:name/verify",
    ...OPERATOR,
    refuses: [404],
    operation: graphql(
      `mutation AdminVerifyDomain($name: String!) { admin { verifyDomain(name: $name) { ...DomainFields } } }`,
      [DomainFields],
    ),
  }),
  declare({
    method: "POST",
    path: "/admin/domains/:name/rotate-dkim",
    ...OPERATOR,
    refuses: [404],
    operation: graphql(
      `mutation AdminRotateDkim($name: String!, $now: Boolean) { admin { rotateDkim(name: $name, now: $now) { ...DomainFields } } }`,
      [DomainFields],
    ),
  }),
  declare({
    method: "DELETE",
    path: "/admin/domains/:name",
    ...OPERATOR,
    refuses: [404, 409],
    operation: graphql(
      `mutation AdminDeleteDomain($name: String!) { admin { deleteDomain(name: $name) { success message } } }`,
    ),
  }),
  declare({
    method: "GET",
    path: "/admin/lists",
    ...OPERATOR,
    summary: "The instance's allow and block lists, for receiving and for sending.",
    operation: graphql(`query AdminInstanceLists { admin { lists { ...ScopeListsFields } } }`, [ScopeListsFields]),
    respond: ({ admin }) => withoutMode(admin.lists),
  }),
  declare({
    method: "PUT",
    path: "/admin/lists",
    ...OPERATOR,
    summary: "Replaces the instance's lists: each direction given (receive, send), whole.",
    body: true,
    operation: graphql(
      `mutation AdminSetInstanceLists($change: ListsChange!) {
        admin { setLists(change: $change) { ...ScopeListsFields } }
      }`,
      [ScopeListsFields],
    ),
    respond: ({ admin }) => withoutMode(admin.setLists),
  }),
  declare({
    method: "GET",
    path: "/admin/domains/:name/lists",
    ...OPERATOR,
    summary: "A served domain's allow and block lists, for its agents' receiving and sending.",
    refuses: [404],
    operation: graphql(
      `query AdminDomainLists($domain: String!) { admin { lists(domain: $domain) { ...ScopeListsFields } } }`,
      [ScopeListsFields],
    ),
    renames: { domain: "name" },
    respond: ({ admin }) => withoutMode(admin.lists),
  }),
  declare({
    method: "PUT",
    path: "/admin/domains/:name/lists",
    ...OPERATOR,
    summary: "Replaces a served domain's lists: each direction given (receive, send), whole.",
    refuses: [404],
    body: true,
    operation: graphql(
      `mutation AdminSetDomainLists($domain: String!, $change: ListsChange!) {
        admin { setLists(domain: $domain, change: $change) { ...ScopeListsFields } }
      }`,
      [ScopeListsFields],
    ),
    renames: { domain: "name" },
    respond: ({ admin }) => withoutMode(admin.setLists),
  }),
  declare({
    method: "GET",
    path: "/admin/agents/:agentId/lists",
    ...OPERATOR,
    summary: "An agent's allow and block lists, for receiving and for sending, and its allow-only mode.",
    refuses: [404],
    operation: graphql(
      `query AdminAgentLists($agentId: ID!) { admin { lists(agentId: $agentId) { ...ScopeListsFields } } }`,
      [ScopeListsFields],
    ),
  }),
  declare({
    method: "PUT",
    path: "/admin/agents/:agentId/lists",
    ...OPERATOR,
    summary: "Replaces an agent's lists (each direction given, whole) and sets its allow-only mode when given.",
    refuses: [404],
    body: true,
    operation: graphql(
      `mutation AdminSetAgentLists($agentId: ID!, $change: ListsChange!) {
        admin { setLists(agentId: $agentId, change: $change) { ...ScopeListsFields } }
      }`,
      [ScopeListsFields],
    ),
  }),
  declare({
    method: "GET",
    path: "/admin/held",
    ...OPERATOR,
    operation: graphql(
      `query AdminHeld($limit: Int, $offset: Int, $fenced: Boolean = false) {
        admin { held(limit: $limit, offset: $offset) { data { agentId ...DraftFields } total limit offset } }
      }`,
      [DraftFields],
    ),
  }),
  declare({
    method: "POST",
    path: "/admin/agents/:agentId/drafts/:draftId/approve",
    ...OPERATOR,
    refuses: [404, 410],
    operation: graphql(
      `mutation AdminApproveHeld($agentId: ID!, $draftId: ID!) {
        admin { approveHeld(id: $agentId, draftId: $draftId) { ...DecisionFields } }
      }`,
      [DecisionFields],
    ),
  }),
  declare({
    method: "POST",
    path: "/admin/agents/:agentId/drafts/:draftId/reject",
    ...OPERATOR,
    refuses: [404, 410],
    body: true,
    operation: graphql(
      `mutation AdminRejectHeld($agentId: ID!, $draftId: ID!, $reason: String) {
        admin { rejectHeld(id: $agentId, draftId: $draftId, reason: $reason) { ...DecisionFields } }
      }`,
      [DecisionFields],
    ),
  }),
  declare({
    method: "PUT",
    path: "/admin/agents/:agentId/policy",
    ...OPERATOR,
    refuses: [404],
    body: true,
    operation: graphql(
      `mutation AdminSetSendPolicy($agentId: ID!, $sendPolicy: SendPolicy) {
        admin { setSendPolicy(id: $agentId, sendPolicy: $sendPolicy) { ...AdminAgentFields } }
      }`,
      [AdminAgentFields],
    ),
  }),
  declare({
    method: "PUT",
    path: "/admin/agents/:agentId/screening",
    ...OPERATOR,
    refuses: [404],
    body: true,
    operation: graphql(
      `mutation AdminSetScreeningPolicy($agentId: ID!, $policy: ScreeningPolicy!) {
        admin { setScreeningPolicy(id: $agentId, policy: $policy) { ...AdminAgentFields } }
      }`,
      [AdminAgentFields],
    ),
  }),
  declare({
    method: "PUT",
    path: "/admin/agents/:agentId/reviewer",
    ...OPERATOR,
    refuses: [404],
    body: true,
    operation: graphql(
      `mutation AdminSetReviewer($agentId: ID!, $email: String, $webhookUrl: String, $webhookSecret: String) {
        admin { setReviewer(id: $agentId, email: $email, webhookUrl: $webhookUrl, webhookSecret: $webhookSecret) {
          ...AdminAgentFields
        } }
      }`,
      [AdminAgentFields],
    ),
  }),
  declare({
    method: "GET",
    path: "/admin/quarantine",
    ...OPERATOR,
    operation: graphql(
      `query AdminQuarantine($agentId: ID, $limit: Int, $offset: Int) {
        admin { quarantine(agentId: $agentId, limit: $limit, offset: $offset) {
          data { id agentId recipient reason detail from subject size receivedAt } total limit offset
        } }
      }`,
    ),
  }),
  declare({
    method: "POST",
    path: "/admin/quarantine/:id/release",
    ...OPERATOR,
    refuses: [404, 409, 429],
    operation: graphql(
      `mutation AdminReleaseQuarantined($id: ID!) { admin { releaseQuarantined(id: $id) { emailId } } }`,
    ),
  }),
  declare({
    method: "DELETE",
    path: "/admin/quarantine/:id",
    ...OPERATOR,
    refuses: [404],
    operation: graphql(
      `mutation AdminDeleteQuarantined($id: ID!) { admin { deleteQuarantined(id: $id) { success message } } }`,
    ),
  }),
  declare({
    method: "POST",
    path: "/admin/agents",
    ...OPERATOR,
    refuses: [409],
    body: true,
    status: 201,
    operation: graphql(
      `mutation AdminCreateAgent($input: CreateAgentInput!, $podId: ID) {
        admin { createAgent(input: $input, podId: $podId) { ...RegistrationFields } }
      }`,
      [RegistrationFields],
    ),
    respond: ({ admin }) => ({ ...admin.createAgent, agent: withoutNulls(admin.createAgent.agent) }),
  }),
  declare({
    method: "GET",
    path: "/admin/agents",
    ...OPERATOR,
    operation: graphql(
      `query AdminAgents($limit: Int, $offset: Int, $verified: Boolean, $prefix: String) {
        admin { agents(limit: $limit, offset: $offset, verified: $verified, prefix: $prefix) {
          data { ...AdminAgentFields } total limit offset
        } }
      }`,
      [AdminAgentFields],
    ),
  }),
  declare({
    method: "GET",
    path: "/admin/agents/:agentId",
    ...OPERATOR,
    refuses: [404],
    operation: graphql(`query AdminAgent($agentId: ID!) { admin { agent(id: $agentId) { ...AdminAgentFields } } }`, [
      AdminAgentFields,
    ]),
  }),
  declare({
    method: "POST",
    path: "/admin/agents/:agentId/verify",
    ...OPERATOR,
    refuses: [404],
    operation: graphql(
      `mutation AdminVerifyAgent($agentId: ID!) { admin { verifyAgent(id: $agentId) { ...AdminAgentFields } } }`,
      [AdminAgentFields],
    ),
  }),
  declare({
    method: "DELETE",
    path: "/admin/agents/:agentId",
    ...OPERATOR,
    refuses: [404],
    operation: graphql(
      `mutation AdminDeleteAgent($agentId: ID!) { admin { deleteAgent(id: $agentId) { success message } } }`,
    ),
  }),
  declare({
    method: "GET",
    path: "/admin/agents/:agentId/keys",
    ...OPERATOR,
    refuses: [404],
    operation: graphql(`query AdminAgentKeys($agentId: ID!) { admin { agentKeys(id: $agentId) { ...KeyFields } } }`, [
      KeyFields,
    ]),
    respond: ({ admin }) => ({ data: admin.agentKeys }),
  }),
  declare({
    method: "DELETE",
    path: "/admin/agents/:agentId/keys/:keyId",
    ...OPERATOR,
    refuses: [404],
    operation: graphql(
      `mutation AdminRevokeAgentKey($agentId: ID!, $keyId: ID!) {
        admin { revokeAgentKey(id: $agentId, keyId: $keyId) { success message } }
      }`,
    ),
  }),
  declare({
    method: "POST",
    path: "/admin/agents/:agentId/rotate-key",
    ...OPERATOR,
    refuses: [404],
    operation: graphql(
      `mutation AdminRotateAgentKey($agentId: ID!) { admin { rotateAgentKey(id: $agentId) { apiKey } } }`,
    ),
  }),
  declare({
    method: "GET",
    path: "/admin/agents/:agentId/suppressions",
    ...OPERATOR,
    refuses: [404],
    operation: graphql(`
      query AdminSuppressions($agentId: ID!, $limit: Int, $offset: Int) {
        admin {
          suppressions(id: $agentId, limit: $limit, offset: $offset) {
            data { address reason statusCode sentId createdAt } total limit offset
          }
        }
      }
    `),
  }),
  declare({
    method: "DELETE",
    path: "/admin/agents/:agentId/suppressions/:address",
    ...OPERATOR,
    refuses: [404],
    operation: graphql(`
      mutation AdminRemoveSuppression($agentId: ID!, $address: String!) {
        admin { removeSuppression(id: $agentId, address: $address) { success message } }
      }
    `),
  }),
  declare({
    method: "PUT",
    path: "/admin/agents/:agentId/limits",
    ...OPERATOR,
    refuses: [404],
    body: true,
    operation: graphql(
      `mutation AdminSetAgentLimits($agentId: ID!, $storageLimit: Int, $dailySendLimit: Int) {
        admin { setAgentLimits(id: $agentId, storageLimit: $storageLimit, dailySendLimit: $dailySendLimit) {
          ...AdminAgentFields
        } }
      }`,
      [AdminAgentFields],
    ),
  }),
  declare({
    method: "POST",
    path: "/admin/pods",
    ...OPERATOR,
    refuses: [409],
    body: true,
    status: 201,
    operation: graphql(
      `mutation AdminCreatePod($id: ID!, $name: String!, $domains: [String!]) {
        admin { createPod(id: $id, name: $name, domains: $domains) { ...PodFields } }
      }`,
      [PodFields],
    ),
  }),
  declare({
    method: "GET",
    path: "/admin/pods",
    ...OPERATOR,
    operation: graphql(`query AdminPods { admin { pods { ...PodFields } } }`, [PodFields]),
    respond: ({ admin }) => ({ data: admin.pods }),
  }),
  declare({
    method: "GET",
    path: "/admin/pods/:podId",
    ...OPERATOR,
    refuses: [404],
    operation: graphql(`query AdminPod($podId: ID!) { admin { pod(id: $podId) { ...PodFields } } }`, [PodFields]),
  }),
  declare({
    method: "PATCH",
    path: "/admin/pods/:podId",
    ...OPERATOR,
    refuses: [404, 409],
    body: true,
    operation: graphql(
      `mutation AdminUpdatePod($podId: ID!, $name: String, $domains: [String!]) {
        admin { updatePod(id: $podId, name: $name, domains: $domains) { ...PodFields } }
      }`,
      [PodFields],
    ),
  }),
  declare({
    method: "POST",
    path: "/admin/pods/:podId/verify",
    ...OPERATOR,
    refuses: [404],
    operation: graphql(`mutation AdminVerifyPod($podId: ID!) { admin { verifyPod(id: $podId) { ...PodFields } } }`, [
      PodFields,
    ]),
  }),
  declare({
    method: "POST",
    path: "/admin/pods/:podId/keys",
    ...OPERATOR,
    refuses: [404],
    body: true,
    status: 201,
    operation: graphql(
      `mutation AdminCreatePodKey($podId: ID!, $input: CreateKeyInput!) {
        admin { createPodKey(podId: $podId, input: $input) { ...NewPodKeyFields } }
      }`,
      [NewPodKeyFields],
    ),
  }),
  declare({
    method: "GET",
    path: "/admin/pods/:podId/keys",
    ...OPERATOR,
    refuses: [404],
    operation: graphql(`query AdminPodKeys($podId: ID!) { admin { podKeys(podId: $podId) { ...PodKeyFields } } }`, [
      PodKeyFields,
    ]),
    respond: ({ admin }) => ({ data: admin.podKeys }),
  }),
  declare({
    method: "DELETE",
    path: "/admin/pods/:podId/keys/:keyId",
    ...OPERATOR,
    refuses: [404],
    operation: graphql(
      `mutation AdminRevokePodKey($podId: ID!, $keyId: ID!) {
        admin { revokePodKey(podId: $podId, keyId: $keyId) { success message } }
      }`,
    ),
  }),
  declare({
    method: "PUT",
    path: "/admin/pods/:podId/policy",
    ...OPERATOR,
    summary: "Sets which sends of the pod's agents without a policy of their own wait for a person.",
    refuses: [404],
    body: true,
    operation: graphql(
      `mutation AdminSetPodSendPolicy($podId: ID!, $sendPolicy: SendPolicy) {
        admin { setPodSendPolicy(id: $podId, sendPolicy: $sendPolicy) { ...PodFields } }
      }`,
      [PodFields],
    ),
  }),
  declare({
    method: "GET",
    path: "/admin/pods/:podId/lists",
    ...OPERATOR,
    summary: "A pod's allow and block lists, for its agents' receiving and sending.",
    refuses: [404],
    operation: graphql(`query AdminPodLists($podId: ID!) { admin { lists(podId: $podId) { ...ScopeListsFields } } }`, [
      ScopeListsFields,
    ]),
    respond: ({ admin }) => withoutMode(admin.lists),
  }),
  declare({
    method: "PUT",
    path: "/admin/pods/:podId/lists",
    ...OPERATOR,
    summary: "Replaces a pod's lists: each direction given (receive, send), whole.",
    refuses: [404],
    body: true,
    operation: graphql(
      `mutation AdminSetPodLists($podId: ID!, $change: ListsChange!) {
        admin { setLists(podId: $podId, change: $change) { ...ScopeListsFields } }
      }`,
      [ScopeListsFields],
    ),
    respond: ({ admin }) => withoutMode(admin.setLists),
  }),
  declare({
    method: "DELETE",
    path: "/admin/pods/:podId",
    ...OPERATOR,
    refuses: [404, 409],
    operation: graphql(`mutation AdminDeletePod($podId: ID!) { admin { deletePod(id: $podId) { success message } } }`),
  }),
  declare({
    method: "GET",
    path: "/admin/stats",
    ...OPERATOR,
    operation: graphql(`
      query AdminStats {
        admin { stats {
          agents verified emails bytes sendsToday poller { polling connected lastPollAt lag lastError }
        } }
      }
    `),
  }),
];
