import type { Pod, Prisma } from "../generated/prisma/sqlite/client.ts";
import type { Store } from "./client.ts";
import { isUniqueViolation } from "./errors.ts";

// Pods: groups of agents the operator makes, each with the served domains it
// holds (one pod per domain) and a count of its agents. An agent's pod is its
// podId column (db/agents.ts writes it as the agent is made).

export type { Pod };

const WITH_DOMAINS = {
  domains: { select: { name: true }, orderBy: { name: "asc" } },
  _count: { select: { agents: true } },
} as const satisfies Prisma.PodInclude;

/** A pod as read: its row, its domains' names in order, and how many agents it holds. */
export interface PodRow extends Pod {
  domains: string[];
  agents: number;
}

type Loaded = Prisma.PodGetPayload<{ include: typeof WITH_DOMAINS }>;

const rowOf = ({ domains, _count, ...pod }: Loaded): PodRow => ({
  ...pod,
  domains: domains.map((domain) => domain.name),
  agents: _count.agents,
});

/** Adds the pod with its domains; null when its id or one of its domains is taken meanwhile. */
export async function insertPod({ prisma }: Store, pod: Pod, domains: string[]): Promise<PodRow | null> {
  try {
    const created = await prisma.pod.create({
      data: { ...pod, domains: { create: domains.map((name) => ({ name })) } },
      include: WITH_DOMAINS,
    });
    return rowOf(created);
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

export async function podById({ prisma }: Store, id: string): Promise<PodRow | null> {
  const found = await prisma.pod.findUnique({ where: { id }, include: WITH_DOMAINS });
  return found && rowOf(found);
}

/** Every pod, by id. */
export async function allPods({ prisma }: Store): Promise<PodRow[]> {
  return (await prisma.pod.findMany({ include: WITH_DOMAINS, orderBy: { id: "asc" } })).map(rowOf);
}

/**
 * Renames the pod and, when domains are given, replaces them, together;
 * false when the pod is gone, null when a domain was taken meanwhile.
 */
export async function changePod(
  { prisma }: Store,
  id: string,
  change: { name?: string; domains?: string[] },
): Promise<boolean | null> {
  const { name, domains } = change;
  try {
    const [updated] = await prisma.$transaction([
      prisma.pod.updateMany({ where: { id }, data: name === undefined ? {} : { name } }),
      ...(domains === undefined
        ? []
        : [
            prisma.podDomain.deleteMany({ where: { podId: id } }),
            prisma.podDomain.createMany({ data: domains.map((domain) => ({ name: domain, podId: id })) }),
          ]),
    ]);
    return updated.count > 0;
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** Deletes the pod (its domains go with it) when it holds no agent; false when it is gone or holds one. */
export async function deletePodRow({ prisma }: Store, id: string): Promise<boolean> {
  return (await prisma.pod.deleteMany({ where: { id, agents: { none: {} } } })).count > 0;
}

/** The pod holding this domain (lower case), or null. */
export async function podOfDomain({ prisma }: Store, name: string): Promise<string | null> {
  return (await prisma.podDomain.findUnique({ where: { name }, select: { podId: true } }))?.podId ?? null;
}

/** How many agents outside the pod have their address at the domain (those without a domain are at the default). */
export function agentsOutsideAt({ prisma }: Store, podId: string, domain: string, isDefault: boolean) {
  const at = isDefault ? { OR: [{ domain }, { domain: null }] } : { domain };
  return prisma.agent.count({ where: { AND: [at, { OR: [{ podId: null }, { podId: { not: podId } }] }] } });
}

/** The pod's agents, oldest first: those with these ids in lower case, or (null) all of them. */
export function agentsOfPod({ prisma }: Store, podId: string, idKeys: readonly string[] | null) {
  return prisma.agent.findMany({
    where: { podId, ...(idKeys ? { idKey: { in: [...idKeys] } } : {}) },
    select: { id: true, name: true, domain: true, createdAt: true, verifiedAt: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

/** The pod's agents among these ids in lower case: their ids as made. */
export async function podAgentIds({ prisma }: Store, podId: string, idKeys: string[]): Promise<string[]> {
  const found = await prisma.agent.findMany({ where: { podId, idKey: { in: idKeys } }, select: { id: true } });
  return found.map((agent) => agent.id);
}

/** How many of the pod's agents have their address at one of these domains. */
export function podAgentsAt({ prisma }: Store, podId: string, domains: string[]) {
  return prisma.agent.count({ where: { podId, domain: { in: domains } } });
}

/** The pod's own send policy; null when it has none (or is gone). */
export async function podSendPolicy({ prisma }: Store, id: string): Promise<string | null> {
  return (await prisma.pod.findUnique({ where: { id }, select: { sendPolicy: true } }))?.sendPolicy ?? null;
}

/** The own send policies of these pods, by id (those without one left out). */
export async function podSendPolicies({ prisma }: Store, ids: string[]): Promise<Map<string, string>> {
  const pods = await prisma.pod.findMany({
    where: { id: { in: ids }, sendPolicy: { not: null } },
    select: { id: true, sendPolicy: true },
  });
  return new Map(pods.map((pod) => [pod.id, pod.sendPolicy as string]));
}

/** Sets the pod's own send policy (null: none); false when the pod is gone. */
export async function changePodSendPolicy({ prisma }: Store, id: string, sendPolicy: string | null) {
  return (await prisma.pod.updateMany({ where: { id }, data: { sendPolicy } })).count > 0;
}

/**
 * Sets the pod's own send policy only while the one it has is among `from`
 * (null: none of its own): one conditional statement, so that of two
 * changes at once neither is made over a policy it was not judged against.
 * False when the pod has no such policy, or there is no such pod.
 */
export async function changePodSendPolicyFrom(
  { prisma }: Store,
  id: string,
  from: (string | null)[],
  sendPolicy: string | null,
): Promise<boolean> {
  const own = from.filter((policy) => policy !== null);
  const where = { id, OR: [{ sendPolicy: { in: own } }, ...(from.includes(null) ? [{ sendPolicy: null }] : [])] };
  return (await prisma.pod.updateMany({ where, data: { sendPolicy } })).count > 0;
}

/** The id of the pod a verification link is for (by its claim token's hash), or null. */
export async function podIdByClaimHash({ prisma }: Store, claimTokenHash: string): Promise<string | null> {
  return (await prisma.pod.findUnique({ where: { claimTokenHash }, select: { id: true } }))?.id ?? null;
}

/** Gives the unverified pod a new verification link (its claim token's hash); false when it is verified or gone. */
export async function setPodClaimHash({ prisma }: Store, id: string, claimTokenHash: string): Promise<boolean> {
  return (await prisma.pod.updateMany({ where: { id, verifiedAt: null }, data: { claimTokenHash } })).count > 0;
}
