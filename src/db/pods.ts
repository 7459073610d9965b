import type { Pod, Prisma } from "../generated/prisma/sqlite/client.ts";
import type { Store } from "./client.ts";
import { isUniqueViolation } from "./errors.ts";
import { insertRow, insertRows } from "./rows.ts";
import { oneOf, type Statements, type Tx } from "./statements.ts";

// Pods: groups of agents the operator makes, each with the served domains it
// holds (one pod per domain) and a count of its agents. An agent's pod is its
// podId column (db/agents.ts writes it as the agent is made). Where agents
// may be placed changes in transactions that lock the domains' rows, which
// an agent being made holds too: raw SQL, as Prisma cannot lock a row.

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

/**
 * Runs `work` in one transaction with these domains' rows locked until
 * commit (in name order, so that two such transactions never deadlock),
 * given which of them are served: an agent being made at one of them waits
 * (insertAgent holds its row), and one made before is seen by what `work`
 * reads. Null when a row `work` adds was taken meanwhile (a pod's id).
 */
export async function withDomainsLocked<T>(
  { sql }: Store,
  names: readonly string[],
  work: (tx: Tx, served: ReadonlySet<string>) => Promise<T>,
): Promise<T | null> {
  try {
    return await sql.transaction(async (tx) => {
      const served = new Set<string>();
      for (const name of [...new Set(names)].sort()) {
        if (await tx.one(`SELECT 1 AS "found" FROM "Domain" WHERE "name" = ?${tx.forUpdate}`, [name])) served.add(name);
      }
      return work(tx, served);
    });
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

const insertPodDomains = (tx: Tx, podId: string, domains: readonly string[]) =>
  insertRows(
    tx,
    "PodDomain",
    domains.map((name) => ({ name, podId })),
  );

/** Inside withDomainsLocked: adds the pod with its domains. */
export async function insertPod(tx: Tx, pod: Pod, domains: readonly string[]): Promise<void> {
  await insertRow(tx, "Pod", pod);
  await insertPodDomains(tx, pod.id, domains);
}

export async function podById({ prisma }: Store, id: string): Promise<PodRow | null> {
  const found = await prisma.pod.findUnique({ where: { id }, include: WITH_DOMAINS });
  return found && rowOf(found);
}

/** Every pod, by id. */
export async function allPods({ prisma }: Store): Promise<PodRow[]> {
  return (await prisma.pod.findMany({ include: WITH_DOMAINS, orderBy: { id: "asc" } })).map(rowOf);
}

/** Inside withDomainsLocked: renames the pod and, when domains are given, replaces them. */
export async function changePod(tx: Tx, id: string, change: { name?: string; domains?: readonly string[] }) {
  if (change.name !== undefined) await tx.run(`UPDATE "Pod" SET "name" = ? WHERE "id" = ?`, [change.name, id]);
  if (change.domains === undefined) return;
  await tx.run(`DELETE FROM "PodDomain" WHERE "podId" = ?`, [id]);
  await insertPodDomains(tx, id, change.domains);
}

/** Inside a transaction: the pod's row locked until commit; false when it is gone. */
export async function lockPod(tx: Tx, id: string): Promise<boolean> {
  return (await tx.one(`SELECT 1 AS "found" FROM "Pod" WHERE "id" = ?${tx.forUpdate}`, [id])) !== undefined;
}

/** The pod's domains, in name order. */
export const podDomainNames = async (db: Statements, podId: string) =>
  (await db.all(`SELECT "name" FROM "PodDomain" WHERE "podId" = ? ORDER BY "name"`, [podId])).map((row) =>
    String(row.name),
  );

/**
 * Deletes the pod (its domains, keys and lists go with it) when it holds no
 * agent: how many it holds (0: it was deleted), or null when it is gone. Its
 * row is locked before its agents are counted, and an agent being made in it
 * holds that row (insertAgent): one made meanwhile is counted.
 */
export async function deletePodWithoutAgents({ sql }: Store, id: string): Promise<number | null> {
  return sql.transaction(async (tx) => {
    if (!(await lockPod(tx, id))) return null;
    const counted = await tx.one(`SELECT COUNT(*) AS "agents" FROM "Agent" WHERE "podId" = ?`, [id]);
    const agents = Number(counted?.agents);
    if (agents === 0) await tx.run(`DELETE FROM "Pod" WHERE "id" = ?`, [id]);
    return agents;
  });
}

/** The pod holding this domain (lower case), or null. */
export async function podOfDomain(db: Statements, name: string): Promise<string | null> {
  const row = await db.one(`SELECT "podId" FROM "PodDomain" WHERE "name" = ?`, [name]);
  return row ? String(row.podId) : null;
}

/** Where an agent may go, as read: the pod holding its domain, and its own pod's domains (none without a pod). */
export interface Placement {
  holder: string | null;
  podDomains: string[];
}

export async function placementAt(db: Statements, podId: string | null, domain: string): Promise<Placement> {
  return { holder: await podOfDomain(db, domain), podDomains: podId === null ? [] : await podDomainNames(db, podId) };
}

/** How many agents outside the pod have their address at the domain (those without a domain are at the default). */
export async function agentsOutsideAt(tx: Tx, podId: string, domain: string, isDefault: boolean): Promise<number> {
  const at = isDefault ? `("domain" = ? OR "domain" IS NULL)` : `"domain" = ?`;
  const row = await tx.one(
    `SELECT COUNT(*) AS "agents" FROM "Agent" WHERE ${at} AND ("podId" IS NULL OR "podId" <> ?)`,
    [domain, podId],
  );
  return Number(row?.agents);
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
export async function podAgentsAt(tx: Tx, podId: string, domains: string[]): Promise<number> {
  const { where, params } = oneOf(`"domain"`, domains);
  const row = await tx.one(`SELECT COUNT(*) AS "agents" FROM "Agent" WHERE "podId" = ? AND ${where}`, [
    podId,
    ...params,
  ]);
  return Number(row?.agents);
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
