import { type Config, SEND_POLICIES, type SendPolicy } from "../config.ts";
import {
  agentActivity,
  agentByIdKey,
  agentPage,
  agentsWithOwnReviewer,
  changeLimits,
  changeReviewer,
  changeScreeningPolicy,
  changeSendPolicy,
  compactAgents,
  heldWithoutOwnReviewer,
  instanceTotals,
  type LimitOverrides,
  reviewerSecretsInTheClear,
  sealReviewerSecret,
} from "../db/agents.ts";
import type { Store } from "../db/client.ts";
import { keyTotals } from "../db/keys.ts";
import { podSendPolicies } from "../db/pods.ts";
import { QUOTA_MAX, utcDay } from "../db/quota.ts";
import { compactNotices, noticesInTheClear, sealNotice } from "../db/reviews.ts";
import { excerpt, ServiceError } from "../errors.ts";
import { isEmailAddress } from "../outbound/address.ts";
import { isWebhookSecret } from "../outbound/webhooks.ts";
import { SEALED, seal } from "../secrets.ts";
import { type KeyView, listKeys, revokeKey } from "./agent-keys.ts";
import { addressOf, deleteAgent, type Outcome, rotateKey } from "./agents.ts";
import { checkedPolicy, policyOf } from "./approval.ts";
import { serves } from "./domains.ts";
import { SCREENING_POLICIES, type ScreeningPolicy } from "./inspection.ts";
import { limitsOf } from "./limits.ts";
import { type Page, type PageRequest, readPage } from "./pages.ts";
import { FULL_GRANT } from "./permissions.ts";
import { findPod, type PodView, podRecord } from "./pods.ts";
import { type AgentRecord, addressParts } from "./records.ts";
import type { Services } from "./services.ts";
import { listSuppressions, removeSuppression, type SuppressionRecord } from "./suppressions.ts";
import { agentOwner, verifyByOperator } from "./verification.ts";
import { validUrl } from "./webhooks.ts";

// The operator's view of the instance and its acts on any agent, for the
// admin API and the CLI alike. Acting on an agent reuses the agent's own
// rules (deleting, rotating its key); only the choice of agent differs.

/** An agent as the operator sees it: who it is, where it stands today, its limits. */
export interface AgentOverview {
  id: string;
  email: string;
  name: string;
  metadata: unknown;
  createdAt: Date;
  verified: boolean;
  verifiedAt: Date | null;
  verifiedBy: string | null;
  /** self (it registered) or operator. */
  createdBy: string;
  socialUsername: string | null;
  storageUsed: number;
  /** In force: its own, else the instance's. */
  storageLimit: number;
  /** Its own, when the operator set one. */
  storageLimitOverride: number | null;
  sendsToday: number;
  dailySendLimit: number;
  dailySendLimitOverride: number | null;
  /** In force: its own, else its pod's, else SEND_POLICY. */
  sendPolicy: SendPolicy;
  sendPolicyOverride: string | null;
  /** Where its held mail's review links go, in force: its own, else the instance's (REVIEWER_*); null: nobody is told. */
  reviewerEmail: string | null;
  reviewerEmailOverride: string | null;
  reviewerWebhookUrl: string | null;
  reviewerWebhookUrlOverride: string | null;
  /** What becomes of its mail the screening finds suspicious: screen (filed, marked) or quarantine. */
  screeningPolicy: ScreeningPolicy;
  lastReceivedAt: Date | null;
  /** The pod it belongs to, if any. */
  podId: string | null;
}

export interface AgentQuery extends PageRequest {
  verified?: boolean | null;
  /** Ids starting with this, without regard to case. */
  prefix?: string | null;
}

/** Agents, newest first, with where each stands today. */
export async function listAgents(services: Services, query: AgentQuery): Promise<Page<AgentOverview>> {
  const filter = { verified: query.verified, prefix: query.prefix?.toLowerCase() };
  return readPage(query, async (window) => {
    const { data, total } = await agentPage(services, filter, window);
    return { data: await overviews(services, data), total };
  });
}

/** One agent by its id: 404 when there is none. */
export async function findAgent(services: Services, id: string): Promise<AgentRecord> {
  const agent = await agentByIdKey(services, id.toLowerCase());
  if (!agent) throw new ServiceError("NOT_FOUND", `Agent ${excerpt(id)} not found`);
  return agent;
}

export async function agentOverview(services: Services, id: string): Promise<AgentOverview> {
  const [overview] = await overviews(services, [await findAgent(services, id)]);
  return overview as AgentOverview;
}

/** Sends today and the last mail received, read for all the agents at once. */
async function overviews(services: Services, agents: AgentRecord[]): Promise<AgentOverview[]> {
  if (agents.length === 0) return [];
  const { clock, config } = services;
  const ids = agents.map((agent) => agent.id);
  const podIds = [...new Set(agents.flatMap((agent) => (agent.podId === null ? [] : [agent.podId])))];
  const [{ sendsOf, lastReceivedOf }, podPolicies] = await Promise.all([
    agentActivity(services, ids, utcDay(clock.now())),
    podIds.length === 0 ? new Map<string, string>() : podSendPolicies(services, podIds),
  ]);
  return agents.map((agent) => {
    const limits = limitsOf(agent, config);
    return {
      id: agent.id,
      email: addressOf(agent, config),
      name: agent.name,
      metadata: agent.metadata,
      createdAt: agent.createdAt,
      verified: agent.verifiedAt !== null,
      verifiedAt: agent.verifiedAt,
      verifiedBy: agent.verifiedBy,
      createdBy: agent.createdBy,
      socialUsername: agent.socialUsername,
      storageUsed: agent.storageUsed,
      storageLimit: limits.storageBytes,
      storageLimitOverride: agent.storageLimit,
      sendsToday: sendsOf.get(agent.id) ?? 0,
      dailySendLimit: limits.dailySends,
      dailySendLimitOverride: agent.dailySendLimit,
      sendPolicy: policyOf(config, { agent: agent.sendPolicy, pod: agent.podId && podPolicies.get(agent.podId) }),
      sendPolicyOverride: agent.sendPolicy,
      screeningPolicy: agent.screeningPolicy as ScreeningPolicy,
      reviewerEmail: agent.reviewerEmail ?? config.reviewer.email,
      reviewerEmailOverride: agent.reviewerEmail,
      reviewerWebhookUrl: agent.reviewerWebhookUrl ?? config.reviewer.webhook?.url ?? null,
      reviewerWebhookUrlOverride: agent.reviewerWebhookUrl,
      lastReceivedAt: lastReceivedOf.get(agent.id) ?? null,
      podId: agent.podId,
    };
  });
}

export async function verifyAgent(services: Services, id: string): Promise<AgentOverview> {
  await verifyByOperator(services, agentOwner(await findAgent(services, id)));
  return agentOverview(services, id);
}

/** The operator verifies a pod, and with it its agents not yet verified, in any VERIFICATION_MODE. */
export async function verifyPod(services: Services, id: string): Promise<PodView> {
  await verifyByOperator(services, { kind: "pod", record: await podRecord(services, id) });
  return findPod(services, id);
}

export async function deleteAgentById(services: Services, id: string): Promise<Outcome> {
  return deleteAgent(services, await findAgent(services, id));
}

export async function rotateKeyById(services: Services, id: string): Promise<{ apiKey: string; message: string }> {
  return rotateKey(services, await findAgent(services, id));
}

/** The agent's keys, its primary one first, as its primary key lists them: never a secret. */
export async function keysOfAgentById(services: Services, id: string): Promise<KeyView[]> {
  return listKeys(services, await findAgent(services, id), FULL_GRANT);
}

/** Revokes one of the agent's keys at once, as its primary key would: 404 for no such agent or key. */
export async function revokeKeyById(services: Services, id: string, keyId: string) {
  return revokeKey(services, await findAgent(services, id), FULL_GRANT, keyId);
}

export async function setLimits(services: Services, id: string, change: LimitOverrides): Promise<AgentOverview> {
  for (const [name, value] of Object.entries(change)) {
    if (value != null && (!Number.isInteger(value) || value < 1 || value > QUOTA_MAX)) {
      throw new ServiceError("BAD_REQUEST", `${name} must be an integer from 1 to ${QUOTA_MAX}, or null`);
    }
  }
  const agent = await findAgent(services, id);
  const { storageLimit, dailySendLimit } = change;
  if (!(await changeLimits(services, agent.id, { storageLimit, dailySendLimit })))
    throw new ServiceError("NOT_FOUND", `Agent ${excerpt(id)} not found`);
  return agentOverview(services, id);
}

/** Which of the agent's sends wait for a person; null: its pod's, else SEND_POLICY. Never the agent's own to set. */
export async function setSendPolicy(services: Services, id: string, sendPolicy: string | null): Promise<AgentOverview> {
  const policy = checkedPolicy(sendPolicy);
  const agent = await findAgent(services, id);
  if (!(await changeSendPolicy(services, agent.id, policy))) {
    throw new ServiceError("NOT_FOUND", `Agent ${excerpt(id)} not found`);
  }
  return agentOverview(services, id);
}

/** What becomes of the agent's mail the screening finds suspicious (inspection.ts). Never the agent's own to set. */
export async function setScreeningPolicy(services: Services, id: string, policy: string): Promise<AgentOverview> {
  if (!(SCREENING_POLICIES as readonly string[]).includes(policy)) {
    throw new ServiceError("BAD_REQUEST", `screeningPolicy must be ${SCREENING_POLICIES.join(" or ")}`);
  }
  const agent = await findAgent(services, id);
  if (!(await changeScreeningPolicy(services, agent.id, policy))) {
    throw new ServiceError("NOT_FOUND", `Agent ${excerpt(id)} not found`);
  }
  return agentOverview(services, id);
}

/** An agent's own reviewer as the operator gives it: each part null (or left out) for the instance's. */
export interface ReviewerInput {
  email?: string | null;
  webhookUrl?: string | null;
  webhookSecret?: string | null;
}

/** A reviewer's address: a person's, never one at a served domain, where an agent could come to hold it. */
async function checkedReviewerEmail(services: Services, email: string): Promise<string> {
  const address = email.trim().toLowerCase();
  if (!isEmailAddress(address)) throw new ServiceError("BAD_REQUEST", "email must be an email address, or null");
  if (await serves(services, addressParts(address).domain)) {
    throw new ServiceError(
      "BAD_REQUEST",
      `email: ${address} is at a domain this instance serves, where an agent could hold it; review links go to a person outside them`,
    );
  }
  return address;
}

/**
 * Who the agent's held mail goes to for a decision, replacing its own
 * reviewer: an address the links are mailed to, and/or the operator's webhook
 * (with a secret of its own). Each part null for the instance's. Never the
 * agent's own to set.
 */
export async function setReviewer(services: Services, id: string, input: ReviewerInput): Promise<AgentOverview> {
  const url = input.webhookUrl ?? null;
  const secret = input.webhookSecret ?? null;
  if ((url === null) !== (secret === null)) {
    throw new ServiceError(
      "BAD_REQUEST",
      "webhookUrl and webhookSecret go together: both, or neither (the instance's)",
    );
  }
  if (secret !== null && !isWebhookSecret(secret)) {
    throw new ServiceError("BAD_REQUEST", "webhookSecret must be whsec_ and 24-64 bytes in base64 (Standard Webhooks)");
  }
  const reviewer = {
    reviewerEmail: input.email == null ? null : await checkedReviewerEmail(services, input.email),
    // The operator's own receiver: it may be on a private network.
    reviewerWebhookUrl: url === null ? null : validUrl(url, true, "webhookUrl"),
    reviewerWebhookSecret: secret === null ? null : seal(secret, services.config.secretsKey),
  };
  const agent = await findAgent(services, id);
  if (!(await changeReviewer(services, agent.id, reviewer))) {
    throw new ServiceError("NOT_FOUND", `Agent ${excerpt(id)} not found`);
  }
  return agentOverview(services, id);
}

/**
 * At start, with SECRETS_KEY: reviewer webhooks' secrets, and review links on
 * their way, stored before it was set are sealed, and the database compacted
 * so that no readable copy stays in its files (as DKIM keys are, domains.ts).
 */
export async function sealReviewSecrets(services: Services): Promise<void> {
  const { secretsKey } = services.config;
  if (secretsKey === null) return;
  const sealed = (value: string) => (value.startsWith(SEALED) || value === "" ? value : seal(value, secretsKey));
  const agents = await reviewerSecretsInTheClear(services);
  for (const { id, reviewerWebhookSecret: secret } of agents) {
    if (secret !== null) await sealReviewerSecret(services, id, secret, seal(secret, secretsKey));
  }
  const notices = await noticesInTheClear(services);
  for (const { id, payload, secret } of notices) {
    await sealNotice(services, id, { payload: sealed(payload), secret: secret === null ? null : sealed(secret) });
  }
  const agentsCompacted = agents.length === 0 || (await compactAgents(services));
  const noticesCompacted = notices.length === 0 || (await compactNotices(services));
  if (!agentsCompacted || !noticesCompacted) {
    services.log("warn", "database_log_not_emptied", { reason: "a reader held old copies open" });
  }
}

/** Who is told of held mail, across agents: how many have a reviewer of their own, and whose held mail reaches nobody. */
export async function reviewerCoverage(store: Store, config: Config) {
  const instanceTold = config.reviewer.email !== null || config.reviewer.webhook !== null;
  const holding = SEND_POLICIES.filter((policy) => policy !== "open");
  const [own, untold] = await Promise.all([
    agentsWithOwnReviewer(store),
    instanceTold ? { ids: [], total: 0 } : heldWithoutOwnReviewer(store, holding, config.sendPolicy !== "open"),
  ]);
  return { own, untold };
}

/** Keys besides the agents' primary ones, agents' and pods', and those expired by now (refused, kept until revoked). */
export function keyCounts(store: Store, now: Date) {
  return keyTotals(store, now);
}

export interface InstanceStats {
  agents: number;
  verified: number;
  emails: number;
  /** Bytes of stored mail, received and sent. */
  bytes: number;
  sendsToday: number;
}

export function instanceStats(services: Services): Promise<InstanceStats> {
  return instanceTotals(services, utcDay(services.clock.now()));
}

/** An agent's suppressions, for the operator. */
export async function suppressionsOf(
  services: Services,
  id: string,
  request: PageRequest,
): Promise<Page<SuppressionRecord>> {
  return listSuppressions(services, await findAgent(services, id), request);
}

/** Takes an address off an agent's suppression list, as the operator. */
export async function clearSuppression(services: Services, id: string, address: string): Promise<Outcome> {
  return removeSuppression(services, await findAgent(services, id), address);
}
