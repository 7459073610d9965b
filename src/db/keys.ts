import type { Key, Prisma } from "../generated/prisma/sqlite/client.ts";
import type { Store } from "./client.ts";

// An agent's keys besides its primary one, and a pod's keys: made, listed
// (never with a secret, which is not kept) and deleted. A request finds its key by agentByKeyHash
// (db/agents.ts), which reads this table at every request: a deleted row
// stops its key at once, on every instance.

export type { Key };

const LISTED = { id: true, name: true, permissions: true, expiresAt: true, createdAt: true } as const;

/** A key as listed: all but its hash. */
export type ListedKey = Pick<Key, keyof typeof LISTED>;

export async function insertKey({ prisma }: Store, key: Prisma.KeyUncheckedCreateInput): Promise<ListedKey> {
  return prisma.key.create({ data: key, select: LISTED });
}

/** The agent's keys, oldest first. */
export function keysOf({ prisma }: Store, agentId: string): Promise<ListedKey[]> {
  return prisma.key.findMany({ where: { agentId }, select: LISTED, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

const POD_LISTED = { ...LISTED, agents: true } as const;

/** A pod's key as listed: all but its hash, with the agents it reaches. */
export type ListedPodKey = Pick<Key, keyof typeof POD_LISTED>;

export async function insertPodKey({ prisma }: Store, key: Prisma.KeyUncheckedCreateInput): Promise<ListedPodKey> {
  return prisma.key.create({ data: key, select: POD_LISTED });
}

/** The pod's keys, oldest first. */
export function keysOfPod({ prisma }: Store, podId: string): Promise<ListedPodKey[]> {
  return prisma.key.findMany({ where: { podId }, select: POD_LISTED, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** Deletes the pod's key; false when it has none by that id. */
export async function deletePodKey({ prisma }: Store, podId: string, id: string): Promise<boolean> {
  return (await prisma.key.deleteMany({ where: { podId, id } })).count > 0;
}

/** Deletes the agent's key; false when it has none by that id. */
export async function deleteKey({ prisma }: Store, agentId: string, id: string): Promise<boolean> {
  return (await prisma.key.deleteMany({ where: { agentId, id } })).count > 0;
}
