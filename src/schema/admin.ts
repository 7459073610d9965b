import type { SendPolicy } from "../config.ts";
import type { InboundState } from "../inbound/state.ts";
import * as admin from "../mailbox/admin.ts";
import { createAgent } from "../mailbox/agents.ts";
import {
  addDomain,
  deleteDomain,
  getDomain,
  listDomains,
  rotateDkim,
  setDomainOpen,
  verifyDomain,
  zoneOf,
} from "../mailbox/domains.ts";
import type { QuarantineReason } from "../mailbox/inspection.ts";
import { createPodKeyAsOperator, listPodKeysAsOperator, revokePodKeyAsOperator } from "../mailbox/pod-keys.ts";
import { createPod, deletePod, findPod, listPods, setPodSendPolicy, updatePod } from "../mailbox/pods.ts";
import {
  deleteQuarantinedMessage,
  listQuarantine,
  type QuarantinedSummary,
  releaseQuarantined,
} from "../mailbox/quarantine.ts";
import { approveHeld, listHeld, rejectHeld } from "../mailbox/review.ts";
import { getLists, setLists } from "../mailbox/senders.ts";
import { CreateAgentInput, CreateAgentPayload } from "./agents.ts";
import { builder, OutcomeType } from "./builder.ts";
import { DomainType } from "./domains.ts";
import { DraftType } from "./drafts.ts";
import { QuarantineReasonEnum, ScreeningPolicyEnum, SendPolicyEnum } from "./enums.ts";
import { CreateKeyInput, KeyType, NewKeyType } from "./keys.ts";
import { pageArgs, pageCost, pageType } from "./pages.ts";
import { PodType } from "./pods.ts";
import { DecisionType, ReleasedType } from "./review.ts";
import { ListsChange, listOwnerArgs, ownerOf, ScopeListsType } from "./senders.ts";
import { SuppressionPage } from "./sending.ts";

// The operator's fields: `admin` on Query and on Mutation, each behind the
// operator scope (ADMIN_TOKEN), which no agent key passes. Below them no
// further checks: the namespace is the door.

const AdminAgentType = builder.objectRef<admin.AgentOverview>("AdminAgent").implement({
  description: "An agent as the operator sees it",
  fields: (t) => ({
    id: t.exposeString("id"),
    email: t.exposeString("email"),
    name: t.exposeString("name"),
    metadata: t.expose("metadata", { type: "JSONObject", nullable: true }),
    createdAt: t.expose("createdAt", { type: "Timestamp" }),
    verified: t.exposeBoolean("verified"),
    verifiedAt: t.expose("verifiedAt", { type: "Timestamp", nullable: true }),
    verifiedBy: t.exposeString("verifiedBy", {
      nullable: true,
      description:
        "social (a post on X), admin (an operator), pod (made by a key of its pod) or none (VERIFICATION_MODE=none)",
    }),
    createdBy: t.exposeString("createdBy", {
      description:
        "self (it registered), operator (admin API or CLI), who alone may use a reserved id, or pod (a key of its pod)",
    }),
    socialUsername: t.exposeString("socialUsername", { nullable: true }),
    storageUsed: t.exposeInt("storageUsed"),
    storageLimit: t.exposeInt("storageLimit", { description: "In force: its own, else the instance's" }),
    storageLimitOverride: t.exposeInt("storageLimitOverride", {
      nullable: true,
      description: "Its own limit, when the operator set one",
    }),
    sendsToday: t.exposeInt("sendsToday", { description: "Sends so far this UTC day" }),
    dailySendLimit: t.exposeInt("dailySendLimit", { description: "In force: its own, else the instance's" }),
    dailySendLimitOverride: t.exposeInt("dailySendLimitOverride", {
      nullable: true,
      description: "Its own limit, when the operator set one",
    }),
    sendPolicy: t.expose("sendPolicy", {
      type: SendPolicyEnum,
      description: "In force: its own, else SEND_POLICY",
    }),
    sendPolicyOverride: t.field({
      type: SendPolicyEnum,
      nullable: true,
      description: "Its own policy, when the operator set one",
      resolve: (agent) => agent.sendPolicyOverride as SendPolicy | null,
    }),
    reviewerEmail: t.exposeString("reviewerEmail", {
      nullable: true,
      description: "In force: where its held mail's review links are mailed (its own, else REVIEWER_EMAIL)",
    }),
    reviewerEmailOverride: t.exposeString("reviewerEmailOverride", {
      nullable: true,
      description: "Its own reviewer's address, when the operator set one",
    }),
    reviewerWebhookUrl: t.exposeString("reviewerWebhookUrl", {
      nullable: true,
      description:
        "In force: the operator's webhook its held mail's review links are POSTed to (its own, else REVIEWER_WEBHOOK_URL)",
    }),
    reviewerWebhookUrlOverride: t.exposeString("reviewerWebhookUrlOverride", {
      nullable: true,
      description: "Its own reviewer webhook, when the operator set one",
    }),
    screeningPolicy: t.expose("screeningPolicy", {
      type: ScreeningPolicyEnum,
      description: "What becomes of its mail the prompt-injection screening finds suspicious",
    }),
    lastReceivedAt: t.expose("lastReceivedAt", { type: "Timestamp", nullable: true }),
    podId: t.exposeID("podId", { nullable: true, description: "The pod it belongs to, if any" }),
  }),
});

const QuarantinedType = builder.objectRef<QuarantinedSummary>("QuarantinedMessage").implement({
  description: "A message held out of its agent's mailbox: the agent cannot see it until a person releases it",
  fields: (t) => ({
    id: t.exposeID("id", { description: "The quarantine's id; the message has no email id until it is released" }),
    agentId: t.exposeID("agentId"),
    recipient: t.exposeString("recipient", { description: "The address it was for" }),
    reason: t.field({ type: QuarantineReasonEnum, resolve: (held) => held.reason as QuarantineReason }),
    detail: t.exposeString("detail", {
      description: "What said so: Rspamd's action and score, the malware signature, or the screening's signals",
    }),
    from: t.exposeString("fromAddress", { description: "The From header's address" }),
    subject: t.exposeString("subject", { nullable: true }),
    size: t.exposeInt("size", { description: "Bytes, as it arrived" }),
    receivedAt: t.expose("receivedAt", { type: "Timestamp" }),
  }),
});

const QuarantinePage = pageType("QuarantinePage", QuarantinedType);

const HeldPage = pageType("HeldPage", DraftType);

const AdminAgentPage = pageType("AdminAgentPage", AdminAgentType);

const InboundStateType = builder.objectRef<InboundState>("InboundState").implement({
  description: "This instance's IMAP poller",
  fields: (t) => ({
    polling: t.exposeBoolean("polling", {
      description: "It holds the catch-all's lease: one instance polls at a time",
    }),
    connected: t.exposeBoolean("connected"),
    lastPollAt: t.expose("lastPollAt", { type: "Timestamp", nullable: true, description: "Last read to the end" }),
    lag: t.exposeInt("lag", { nullable: true, description: "Messages on the server not yet filed, at the last look" }),
    lastError: t.exposeString("lastError", { nullable: true }),
  }),
});

const StatsType = builder
  .objectRef<Awaited<ReturnType<typeof admin.instanceStats>> & { poller: InboundState | null }>("InstanceStats")
  .implement({
    fields: (t) => ({
      agents: t.exposeInt("agents"),
      verified: t.exposeInt("verified"),
      emails: t.exposeInt("emails", { description: "Received emails stored" }),
      bytes: t.exposeInt("bytes", { description: "Bytes of stored mail, received and sent" }),
      sendsToday: t.exposeInt("sendsToday", { description: "Sends this UTC day, all agents" }),
      poller: t.expose("poller", { type: InboundStateType, nullable: true, description: "null: IMAP_URL is not set" }),
    }),
  });

const AdminQuery = builder.objectRef<object>("AdminQuery").implement({
  fields: (t) => ({
    agents: t.field({
      type: AdminAgentPage,
      description: "Agents, newest first.",
      args: {
        ...pageArgs,
        verified: t.arg.boolean(),
        prefix: t.arg.string({ description: "Ids starting with this, without regard to case" }),
      },
      complexity: pageCost,
      resolve: (_, args, ctx) => admin.listAgents(ctx, args),
    }),
    agent: t.field({
      type: AdminAgentType,
      nullable: true,
      description: "One agent, by its id.",
      args: { id: t.arg.id({ required: true }) },
      resolve: (_, { id }, ctx) => admin.agentOverview(ctx, id),
    }),
    suppressions: t.field({
      type: SuppressionPage,
      description: "An agent's suppressions: addresses its mail no longer goes to, newest first.",
      args: { id: t.arg.id({ required: true }), ...pageArgs },
      complexity: pageCost,
      resolve: (_, { id, ...page }, ctx) => admin.suppressionsOf(ctx, id, page),
    }),
    domains: t.field({
      type: [DomainType],
      description: "Every domain served, with its records and last check.",
      resolve: (_, __, ctx) => listDomains(ctx),
    }),
    domain: t.field({
      type: DomainType,
      description: "One served domain, with its records and last check.",
      args: { name: t.arg.string({ required: true }) },
      resolve: (_, { name }, ctx) => getDomain(ctx, name),
    }),
    domainZone: t.string({
      description: "A served domain's records as zone-file text.",
      args: { name: t.arg.string({ required: true }) },
      resolve: (_, { name }, ctx) => zoneOf(ctx, name),
    }),
    held: t.field({
      type: HeldPage,
      description: "Messages waiting for a person's approval, on every agent, oldest first.",
      args: pageArgs,
      complexity: pageCost,
      resolve: (_, page, ctx) => listHeld(ctx, page),
    }),
    quarantine: t.field({
      type: QuarantinePage,
      description:
        "Messages held out of agents' mailboxes (malware, spam, suspicious), oldest first; never their bytes.",
      args: { ...pageArgs, agentId: t.arg.id({ description: "Only this agent's" }) },
      complexity: pageCost,
      resolve: (_, { agentId, ...page }, ctx) => listQuarantine(ctx, { agentId }, page),
    }),
    lists: t.field({
      type: ScopeListsType,
      description:
        "The allow and block lists of an agent, of a pod, of a served domain, or (none named) of the instance.",
      args: listOwnerArgs,
      resolve: (_, args, ctx) => getLists(ctx, ownerOf(args)),
    }),
    pods: t.field({
      type: [PodType],
      description: "Every pod, by id.",
      resolve: (_, __, ctx) => listPods(ctx),
    }),
    pod: t.field({
      type: PodType,
      description: "One pod, by its id.",
      args: { id: t.arg.id({ required: true }) },
      resolve: (_, { id }, ctx) => findPod(ctx, id),
    }),
    podKeys: t.field({
      type: [KeyType],
      description: "A pod's keys, oldest first; never their secrets.",
      args: { podId: t.arg.id({ required: true }) },
      resolve: (_, { podId }, ctx) => listPodKeysAsOperator(ctx, podId),
    }),
    agentKeys: t.field({
      type: [KeyType],
      description: "An agent's keys, its primary key first; never their secrets.",
      args: { id: t.arg.id({ required: true }) },
      resolve: (_, { id }, ctx) => admin.keysOfAgentById(ctx, id),
    }),
    stats: t.field({
      type: StatsType,
      description: "The instance at a glance.",
      resolve: async (_, __, ctx) => ({ ...(await admin.instanceStats(ctx)), poller: ctx.inbound }),
    }),
  }),
});

const RotatedKeyType = builder.objectRef<{ apiKey: string }>("RotatedKey").implement({
  fields: (t) => ({
    apiKey: t.exposeString("apiKey", { description: "Shown only now; the previous key stopped working" }),
  }),
});

const AdminMutation = builder.objectRef<object>("AdminMutation").implement({
  fields: (t) => ({
    createAgent: t.field({
      type: CreateAgentPayload,
      description:
        "Creates an agent as the operator, verified: any id, reserved ones too (admin, postmaster, …), on any served domain.",
      args: {
        input: t.arg({ type: CreateAgentInput, required: true }),
        podId: t.arg.id({ description: "The pod it belongs to; on the pod's domains when it has some" }),
      },
      resolve: (_, { input, podId }, ctx) => createAgent(ctx, { ...input, podId }, "operator"),
    }),
    createPod: t.field({
      type: PodType,
      description: "Makes a pod; the domains it is given are closed to every agent outside it.",
      args: {
        id: t.arg.id({ required: true, description: "1-64 lower-case letters, digits, dashes and underscores" }),
        name: t.arg.string({ required: true, description: "1 to 128 characters" }),
        domains: t.arg.stringList({
          description: "Served domains its agents have their address at; none when left out",
        }),
      },
      resolve: (_, args, ctx) => createPod(ctx, args),
    }),
    updatePod: t.field({
      type: PodType,
      description: "Renames a pod and/or replaces its domains (left out keeps them); a domain its agents use stays.",
      args: { id: t.arg.id({ required: true }), name: t.arg.string(), domains: t.arg.stringList() },
      resolve: (_, { id, ...change }, ctx) => updatePod(ctx, id, change),
    }),
    createPodKey: t.field({
      type: NewKeyType,
      description: "Makes a key of a pod, with any permissions; its secret is answered only now.",
      args: { podId: t.arg.id({ required: true }), input: t.arg({ type: CreateKeyInput, required: true }) },
      resolve: (_, { podId, input }, ctx) => createPodKeyAsOperator(ctx, podId, input),
    }),
    revokePodKey: t.field({
      type: OutcomeType,
      description: "Revokes one of a pod's keys: it stops working at once, everywhere.",
      args: { podId: t.arg.id({ required: true }), keyId: t.arg.id({ required: true }) },
      resolve: (_, { podId, keyId }, ctx) => revokePodKeyAsOperator(ctx, podId, keyId),
    }),
    deletePod: t.field({
      type: OutcomeType,
      description: "Deletes a pod, its keys and its lists; refused while it holds agents.",
      args: { id: t.arg.id({ required: true }) },
      resolve: (_, { id }, ctx) => deletePod(ctx, id),
    }),
    setPodSendPolicy: t.field({
      type: PodType,
      description:
        "Sets which sends of a pod's agents without a policy of their own wait for a person; null goes back to SEND_POLICY.",
      args: {
        id: t.arg.id({ required: true }),
        sendPolicy: t.arg({ type: SendPolicyEnum, description: "null: the instance's SEND_POLICY" }),
      },
      resolve: (_, { id, sendPolicy }, ctx) => setPodSendPolicy(ctx, id, sendPolicy ?? null),
    }),
    verifyAgent: t.field({
      type: AdminAgentType,
      description: "Verifies an agent as the operator, in any VERIFICATION_MODE.",
      args: { id: t.arg.id({ required: true }) },
      resolve: (_, { id }, ctx) => admin.verifyAgent(ctx, id),
    }),
    verifyPod: t.field({
      type: PodType,
      description:
        "Verifies a pod as the operator, in any VERIFICATION_MODE: its agents not yet verified are verified with it.",
      args: { id: t.arg.id({ required: true }) },
      resolve: (_, { id }, ctx) => admin.verifyPod(ctx, id),
    }),
    deleteAgent: t.field({
      type: OutcomeType,
      description: "Deletes an agent with all its mail and data, permanently.",
      args: { id: t.arg.id({ required: true }) },
      resolve: (_, { id }, ctx) => admin.deleteAgentById(ctx, id),
    }),
    rotateAgentKey: t.field({
      type: RotatedKeyType,
      description: "Issues an agent a new API key; its current one stops working at once.",
      args: { id: t.arg.id({ required: true }) },
      resolve: (_, { id }, ctx) => admin.rotateKeyById(ctx, id),
    }),
    revokeAgentKey: t.field({
      type: OutcomeType,
      description: "Revokes one of an agent's keys besides its primary one: it stops working at once, everywhere.",
      args: { id: t.arg.id({ required: true }), keyId: t.arg.id({ required: true }) },
      resolve: (_, { id, keyId }, ctx) => admin.revokeKeyById(ctx, id, keyId),
    }),
    removeSuppression: t.field({
      type: OutcomeType,
      description: "Takes an address off an agent's suppression list: its mail to it goes out again.",
      args: { id: t.arg.id({ required: true }), address: t.arg.string({ required: true }) },
      resolve: (_, { id, address }, ctx) => admin.clearSuppression(ctx, id, address),
    }),
    addDomain: t.field({
      type: DomainType,
      description:
        "Serves a domain: a fresh DKIM key, and the DNS records to publish. Closed to registration unless open.",
      args: {
        name: t.arg.string({ required: true }),
        open: t.arg.boolean({ description: "Agents may register on it themselves; false when left out" }),
      },
      resolve: (_, { name, open }, ctx) => addDomain(ctx, name, open === true),
    }),
    updateDomain: t.field({
      type: DomainType,
      description: "Opens an operator's domain to registration, or closes it (agents already there stay).",
      args: { name: t.arg.string({ required: true }), open: t.arg.boolean({ required: true }) },
      resolve: (_, { name, open }, ctx) => setDomainOpen(ctx, name, open),
    }),
    verifyDomain: t.field({
      type: DomainType,
      description: "Asks DNS for each record: ok, missing or wrong, with what was found.",
      args: { name: t.arg.string({ required: true }) },
      resolve: (_, { name }, ctx) => verifyDomain(ctx, name),
    }),
    rotateDkim: t.field({
      type: DomainType,
      description:
        "A new DKIM key under a new selector; signing moves to it once verify finds it published (now: at once).",
      args: { name: t.arg.string({ required: true }), now: t.arg.boolean() },
      resolve: (_, { name, now }, ctx) => rotateDkim(ctx, name, now === true),
    }),
    deleteDomain: t.field({
      type: OutcomeType,
      description: "Stops serving an operator's domain; refused while agents have addresses there.",
      args: { name: t.arg.string({ required: true }) },
      resolve: (_, { name }, ctx) => deleteDomain(ctx, name),
    }),
    setSendPolicy: t.field({
      type: AdminAgentType,
      description: "Sets which of an agent's sends wait for a person; null goes back to its pod's, else SEND_POLICY.",
      args: {
        id: t.arg.id({ required: true }),
        sendPolicy: t.arg({ type: SendPolicyEnum, description: "null: the instance's SEND_POLICY" }),
      },
      resolve: (_, { id, sendPolicy }, ctx) => admin.setSendPolicy(ctx, id, sendPolicy ?? null),
    }),
    setScreeningPolicy: t.field({
      type: AdminAgentType,
      description:
        "Sets what becomes of an agent's mail the prompt-injection screening finds suspicious: screen (filed, marked) or quarantine.",
      args: { id: t.arg.id({ required: true }), policy: t.arg({ type: ScreeningPolicyEnum, required: true }) },
      resolve: (_, { id, policy }, ctx) => admin.setScreeningPolicy(ctx, id, policy),
    }),
    releaseQuarantined: t.field({
      type: ReleasedType,
      description:
        "Releases a held message into its agent's inbox, filed as it would have been; email.received is emitted then.",
      args: { id: t.arg.id({ required: true }) },
      resolve: (_, { id }, ctx) => releaseQuarantined(ctx, id),
    }),
    deleteQuarantined: t.field({
      type: OutcomeType,
      description: "Deletes a held message for good; its agent never sees it.",
      args: { id: t.arg.id({ required: true }) },
      resolve: (_, { id }, ctx) => deleteQuarantinedMessage(ctx, id),
    }),
    setReviewer: t.field({
      type: AdminAgentType,
      description:
        "Sets who decides an agent's held mail: an address its review links are mailed to, and/or a webhook they are POSTed to (signed with webhookSecret). Each null goes back to the instance's REVIEWER_* settings.",
      args: {
        id: t.arg.id({ required: true }),
        email: t.arg.string({ description: "A person's address, never one of this instance's agents'" }),
        webhookUrl: t.arg.string({ description: "http(s) URL; with webhookSecret" }),
        webhookSecret: t.arg.string({ description: "whsec_ and 24-64 bytes in base64, as Standard Webhooks takes it" }),
      },
      resolve: (_, { id, ...reviewer }, ctx) => admin.setReviewer(ctx, id, reviewer),
    }),
    approveHeld: t.field({
      type: DecisionType,
      description: "Approves an agent's held message: it is sent now, or at its sendAt.",
      args: { id: t.arg.id({ required: true }), draftId: t.arg.id({ required: true }) },
      resolve: (_, { id, draftId }, ctx) => approveHeld(ctx, id, draftId),
    }),
    rejectHeld: t.field({
      type: DecisionType,
      description: "Rejects an agent's held message: it is not sent.",
      args: { id: t.arg.id({ required: true }), draftId: t.arg.id({ required: true }), reason: t.arg.string() },
      resolve: (_, { id, draftId, reason }, ctx) => rejectHeld(ctx, id, draftId, reason ?? null),
    }),
    setLists: t.field({
      type: ScopeListsType,
      description:
        "Replaces lists of an agent, of a pod, of a served domain, or (none named) of the instance: each direction given, whole.",
      args: { ...listOwnerArgs, change: t.arg({ type: ListsChange, required: true }) },
      resolve: (_, { change, ...owner }, ctx) => setLists(ctx, ownerOf(owner), change),
    }),
    setAgentLimits: t.field({
      type: AdminAgentType,
      description: "Sets an agent's own limits; null goes back to the instance's, left out keeps it.",
      args: {
        id: t.arg.id({ required: true }),
        storageLimit: t.arg.int({ description: "Bytes" }),
        dailySendLimit: t.arg.int({ description: "Sends per UTC day" }),
      },
      resolve: (_, { id, ...limits }, ctx) => admin.setLimits(ctx, id, limits),
    }),
  }),
});

builder.queryField("admin", (t) =>
  t.field({
    type: AdminQuery,
    description: "The operator's view (Authorization: Bearer <ADMIN_TOKEN>).",
    authScopes: { operator: true },
    resolve: () => ({}),
  }),
);

builder.mutationField("admin", (t) =>
  t.field({
    type: AdminMutation,
    description: "The operator's acts (Authorization: Bearer <ADMIN_TOKEN>).",
    authScopes: { operator: true },
    resolve: () => ({}),
  }),
);
