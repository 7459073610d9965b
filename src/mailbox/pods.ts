import { type Config, SEND_POLICIES, type SendPolicy } from "../config.ts";
import {
  agentsOutsideAt,
  allPods,
  changePod,
  changePodSendPolicy,
  changePodSendPolicyFrom,
  deletePodRow,
  insertPod,
  type PodRow,
  podAgentsAt,
  podById,
  podOfDomain,
} from "../db/pods.ts";
import { excerpt, ServiceError } from "../errors.ts";
import { checkedPolicy, policyOf } from "./approval.ts";
import { normalised, serves } from "./domains.ts";
import { assertPermitted, assertReachesAll, type Grant } from "./permissions.ts";
import type { Services } from "./services.ts";

// Pods: groups of agents under one owner, made by the operator. An agent
// belongs to at most one pod; one made without a pod works as before. A pod
// may hold served domains: its agents have their addresses there, and the
// domains are closed to everyone else (no agent outside the pod registers or
// is made there). A pod is deleted only once it holds no agent. A pod's send
// policy holds its agents' mail that have none of their own (approval.ts);
// its lists are senders.ts's. A pod is verified as an agent is
// (verification.ts); a verified pod's keys make verified agents.

/** A pod's id: 1-64 lower-case letters, digits, dashes and underscores. */
export const POD_ID = /^[a-z0-9_-]{1,64}$/;
const NAME_MAX = 128;
const DOMAINS_MAX = 20;

/** A pod as every door shows it: its send policy in force (its own, else SEND_POLICY) and its own. */
/** What of a pod's verification stays inside: its code, its expiry, and its link's hash. */
type Unshown = "sendPolicy" | "verificationCode" | "verificationExpires" | "claimTokenHash";

export interface PodView extends Omit<PodRow, Unshown> {
  sendPolicy: SendPolicy;
  sendPolicyOverride: string | null;
}

/** A pod's send policy, as a key of the pod sees it. */
export type PodPolicy = Pick<PodView, "sendPolicy" | "sendPolicyOverride">;

const viewOf = (
  config: Config,
  { sendPolicy, verificationCode, verificationExpires, claimTokenHash, ...pod }: PodRow,
): PodView => ({
  ...pod,
  sendPolicy: policyOf(config, { pod: sendPolicy }),
  sendPolicyOverride: sendPolicy,
});

export interface NewPod {
  id: string;
  name: string;
  domains?: readonly string[] | null;
}

export interface PodChange {
  name?: string | null;
  domains?: readonly string[] | null;
}

const bad = (message: string) => new ServiceError("BAD_REQUEST", message);
const notFound = (id: string) => new ServiceError("NOT_FOUND", `Pod ${excerpt(id)} not found`);

function checkedName(name: string): string {
  const trimmed = name.trim();
  if ([...trimmed].length < 1 || [...trimmed].length > NAME_MAX) throw bad(`name must be 1-${NAME_MAX} characters`);
  return trimmed;
}

/**
 * The domains as kept: normalised, each once, each served, none held by
 * another pod (409) or already the address of an agent outside this pod (409).
 */
async function checkedDomains(services: Services, podId: string, given: readonly string[]): Promise<string[]> {
  const domains = [...new Set(given.map(normalised))].sort();
  if (domains.length > DOMAINS_MAX) throw bad(`domains: at most ${DOMAINS_MAX}`);
  for (const domain of domains) {
    const shown = JSON.stringify(excerpt(domain));
    if (!(await serves(services, domain))) throw bad(`domains: ${shown} is not served here (GET /admin/domains)`);
    const holder = await podOfDomain(services, domain);
    if (holder !== null && holder !== podId) {
      throw new ServiceError("CONFLICT", `domains: ${shown} is held by pod ${holder} already`);
    }
    const outside = await agentsOutsideAt(services, podId, domain, domain === services.config.mailDomain);
    if (outside > 0) {
      throw new ServiceError("CONFLICT", `domains: ${outside} agents outside the pod have their address at ${shown}`);
    }
  }
  return domains;
}

/** Makes a pod, with the domains it holds. */
export async function createPod(services: Services, input: NewPod): Promise<PodView> {
  if (!POD_ID.test(input.id)) {
    throw bad("id must be 1-64 characters: lower-case letters, digits, dashes and underscores");
  }
  const name = checkedName(input.name);
  const domains = await checkedDomains(services, input.id, input.domains ?? []);
  const now = services.clock.now();
  // VERIFICATION_MODE=none verifies every pod as it is made, as it does every agent.
  const verified = services.config.verificationMode === "none";
  const pod = {
    id: input.id,
    name,
    createdAt: now,
    sendPolicy: null,
    verifiedAt: verified ? now : null,
    verifiedBy: verified ? "none" : null,
    socialUsername: null,
    verificationCode: null,
    verificationExpires: null,
    claimTokenHash: null,
  };
  const created = await insertPod(services, pod, domains);
  if (!created) throw new ServiceError("CONFLICT", `Pod id ${input.id} or one of its domains is taken already`);
  return viewOf(services.config, created);
}

export async function listPods(services: Services): Promise<PodView[]> {
  return (await allPods(services)).map((pod) => viewOf(services.config, pod));
}

/** One pod's row by its id, its verification's code and link included: 404 when there is none. */
export async function podRecord(services: Services, id: string): Promise<PodRow> {
  const pod = POD_ID.test(id) ? await podById(services, id) : null;
  if (!pod) throw notFound(id);
  return pod;
}

/** One pod by its id: 404 when there is none. */
export async function findPod(services: Services, id: string): Promise<PodView> {
  return viewOf(services.config, await podRecord(services, id));
}

/**
 * Renames the pod and/or replaces its domains. A domain its agents have
 * their address at stays (409 when it would be taken away).
 */
export async function updatePod(services: Services, id: string, change: PodChange): Promise<PodView> {
  const pod = await findPod(services, id);
  const name = change.name == null ? undefined : checkedName(change.name);
  const domains = change.domains == null ? undefined : await checkedDomains(services, id, change.domains);
  const dropped = domains === undefined ? [] : pod.domains.filter((domain) => !domains.includes(domain));
  const stranded = dropped.length === 0 ? 0 : await podAgentsAt(services, id, dropped);
  if (stranded > 0) {
    throw new ServiceError("CONFLICT", `${stranded} of the pod's agents have their address at ${dropped.join(", ")}`);
  }
  const changed = await changePod(services, id, { name, domains });
  if (changed === null) throw new ServiceError("CONFLICT", "One of the domains was taken by another pod meanwhile");
  if (!changed) throw notFound(id);
  return findPod(services, id);
}

/** Sets which of the pod's agents' sends wait for a person, for those without a policy of their own; null: SEND_POLICY. */
export async function setPodSendPolicy(services: Services, id: string, sendPolicy: string | null): Promise<PodView> {
  const policy = checkedPolicy(sendPolicy);
  if (!POD_ID.test(id) || !(await changePodSendPolicy(services, id, policy))) throw notFound(id);
  return findPod(services, id);
}

const policyPart = ({ sendPolicy, sendPolicyOverride }: PodView): PodPolicy => ({ sendPolicy, sendPolicyOverride });

/** The pod's send policy, as a key of the pod holding manage reads it. */
export async function getPodPolicy(services: Services, podId: string, grant: Grant): Promise<PodPolicy> {
  assertPermitted(grant, "manage");
  return policyPart(await findPod(services, podId));
}

/** How strict a send policy is: SEND_POLICIES run from open to review_all. */
const strictness = (policy: SendPolicy) => SEND_POLICIES.indexOf(policy);

/**
 * Sets the pod's send policy by a key of the pod reaching all its agents:
 * only ever stricter than the one in force (its own, else SEND_POLICY), or
 * as strict. A person's review is the operator's to lift, never a key's
 * (403); the operator sets any (setPodSendPolicy).
 */
export async function setPodPolicy(
  services: Services,
  podId: string,
  grant: Grant,
  sendPolicy: string | null,
): Promise<PodPolicy> {
  assertPermitted(grant, "manage");
  assertReachesAll(grant);
  const wanted = checkedPolicy(sendPolicy);
  const ceiling = strictness(policyOf(services.config, { pod: wanted }));
  // What the pod may have now for this change to be allowed: its own policies no stricter, or none when SEND_POLICY is not.
  const from = [
    ...SEND_POLICIES.filter((policy) => strictness(policy) <= ceiling),
    ...(strictness(services.config.sendPolicy) <= ceiling ? [null] : []),
  ];
  if (!(await changePodSendPolicyFrom(services, podId, from, wanted))) {
    const { sendPolicy: inForce } = await findPod(services, podId);
    throw new ServiceError(
      "FORBIDDEN",
      `A pod's key can make its send policy stricter, never looser: ${inForce} is in force; the operator can change it`,
    );
  }
  return policyPart(await findPod(services, podId));
}

/** Deletes an empty pod, its keys, its lists and its hold on its domains; refused (409) while it holds agents. */
export async function deletePod(services: Services, id: string): Promise<{ success: boolean; message: string }> {
  const pod = await findPod(services, id);
  if (pod.agents > 0 || !(await deletePodRow(services, id))) {
    throw new ServiceError("CONFLICT", `Pod ${id} holds agents: delete them first`);
  }
  return { success: true, message: `Pod ${id} was deleted` };
}

/**
 * Refuses an agent made at a domain where it may not be: outside its pod's
 * domains (when the pod has some), or at a domain another pod holds (403:
 * a pod's domains are closed to everyone else, registration included).
 */
export async function assertPlaced(services: Services, pod: PodView | null, domain: string): Promise<void> {
  const shown = JSON.stringify(excerpt(domain));
  if (pod && pod.domains.length > 0) {
    if (pod.domains.includes(domain)) return;
    throw bad(`domain: ${shown} is not one of pod ${pod.id}'s domains (${pod.domains.join(", ")})`);
  }
  const holder = await podOfDomain(services, domain);
  if (holder !== null && holder !== pod?.id) {
    throw new ServiceError(
      "FORBIDDEN",
      `domain: ${shown} belongs to a pod: only that pod's agents have their address there`,
    );
  }
}
