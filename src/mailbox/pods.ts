import { type Config, SEND_POLICIES, type SendPolicy } from "../config.ts";
import {
  agentsOutsideAt,
  allPods,
  changePod,
  changePodSendPolicy,
  changePodSendPolicyFrom,
  deletePodWithoutAgents,
  insertPod,
  lockPod,
  type Placement,
  type PodRow,
  podAgentsAt,
  podById,
  podDomainNames,
  podOfDomain,
  withDomainsLocked,
} from "../db/pods.ts";
import type { Tx } from "../db/statements.ts";
import { excerpt, ServiceError } from "../errors.ts";
import { checkedPolicy, policyOf } from "./approval.ts";
import { normalised } from "./domains.ts";
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

/** The domains as kept: normalised, each once, in order. */
function domainsOf(given: readonly string[]): string[] {
  const domains = [...new Set(given.map(normalised))].sort();
  if (domains.length > DOMAINS_MAX) throw bad(`domains: at most ${DOMAINS_MAX}`);
  return domains;
}

/**
 * Inside withDomainsLocked: refuses domains the pod may not hold: one not
 * served (400), held by another pod (409) or already the address of an agent
 * outside this pod (409).
 */
async function assertMayHold(tx: Tx, config: Config, podId: string, domains: string[], served: ReadonlySet<string>) {
  for (const domain of domains) {
    const shown = JSON.stringify(excerpt(domain));
    // As serves() says: one of MAIL_DOMAINS, or a domain with its row.
    if (!config.mailDomains.includes(domain) && !served.has(domain)) {
      throw bad(`domains: ${shown} is not served here (GET /admin/domains)`);
    }
    const holder = await podOfDomain(tx, domain);
    if (holder !== null && holder !== podId) {
      throw new ServiceError("CONFLICT", `domains: ${shown} is held by pod ${holder} already`);
    }
    const outside = await agentsOutsideAt(tx, podId, domain, domain === config.mailDomain);
    if (outside > 0) {
      throw new ServiceError("CONFLICT", `domains: ${outside} agents outside the pod have their address at ${shown}`);
    }
  }
}

/** Makes a pod, with the domains it holds. */
export async function createPod(services: Services, input: NewPod): Promise<PodView> {
  if (!POD_ID.test(input.id)) {
    throw bad("id must be 1-64 characters: lower-case letters, digits, dashes and underscores");
  }
  const name = checkedName(input.name);
  const domains = domainsOf(input.domains ?? []);
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
  const created = await withDomainsLocked(services, domains, async (tx, served) => {
    await assertMayHold(tx, services.config, pod.id, domains, served);
    await insertPod(tx, pod, domains);
  });
  if (created === null) throw new ServiceError("CONFLICT", `Pod id ${input.id} is taken already`);
  return findPod(services, pod.id);
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
  const domains = change.domains == null ? undefined : domainsOf(change.domains);
  // The domains it holds and those it takes, locked: an agent made at either meanwhile is seen, or waits.
  const locked = [...(domains ?? []), ...pod.domains];
  const changed = await withDomainsLocked(services, locked, async (tx, served) => {
    if (!(await lockPod(tx, id))) throw notFound(id);
    const held = await podDomainNames(tx, id);
    if (domains !== undefined) {
      if (held.some((domain) => !locked.includes(domain))) {
        throw new ServiceError("CONFLICT", "The pod's domains changed meanwhile: try again");
      }
      await assertMayHold(tx, services.config, id, domains, served);
      await assertNoneStranded(
        tx,
        id,
        held.filter((domain) => !domains.includes(domain)),
      );
    }
    await changePod(tx, id, { name, domains });
  });
  if (changed === null) throw new ServiceError("CONFLICT", "The pod's domains changed meanwhile: try again");
  return findPod(services, id);
}

/** Inside withDomainsLocked: refuses (409) to take from the pod domains its agents have their address at. */
async function assertNoneStranded(tx: Tx, podId: string, dropped: string[]): Promise<void> {
  const stranded = dropped.length === 0 ? 0 : await podAgentsAt(tx, podId, dropped);
  if (stranded > 0) {
    throw new ServiceError("CONFLICT", `${stranded} of the pod's agents have their address at ${dropped.join(", ")}`);
  }
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
  const agents = POD_ID.test(id) ? await deletePodWithoutAgents(services, id) : null;
  if (agents === null) throw notFound(id);
  if (agents > 0) throw new ServiceError("CONFLICT", `Pod ${id} holds agents: delete them first`);
  return { success: true, message: `Pod ${id} was deleted` };
}

/**
 * Refuses an agent made at a domain where it may not be, as its placement
 * was read (insertAgent reads it again as it adds the agent): outside its
 * pod's domains (when the pod has some), or at a domain another pod holds
 * (403: a pod's domains are closed to everyone else, registration included).
 */
export function assertPlaced(podId: string | null, domain: string, { holder, podDomains }: Placement): void {
  const shown = JSON.stringify(excerpt(domain));
  if (podDomains.length > 0) {
    if (podDomains.includes(domain)) return;
    throw bad(`domain: ${shown} is not one of pod ${podId}'s domains (${podDomains.join(", ")})`);
  }
  if (holder !== null && holder !== podId) {
    throw new ServiceError(
      "FORBIDDEN",
      `domain: ${shown} belongs to a pod: only that pod's agents have their address there`,
    );
  }
}
