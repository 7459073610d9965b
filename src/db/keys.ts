import type { Key, Prisma } from "../generated/prisma/sqlite/client.ts";
import type { Store } from "./client.ts";

// The Key rows: an agent's keys besides its primary one, and a pod's keys;
// made, listed (never with a secret, which is not kept) and deleted. A
// request finds its key by holderByKeyHash (db/agents.ts), which reads this
// table at every request: a deleted row stops its key at once, on every
// instance.

export type { Key };

const LISTED = {
  id: true,
  name: true,
  permissions: true,
  agents: true,
  expiresAt: true,
  hideJunk: true,
  createdAt: true,
} as const;

/** A key as listed: all but its hash and its owner. */
export type ListedKey = Pick<Key, keyof typeof LISTED>;

/** Whose keys: an agent's or a pod's. */
export type KeyOwner = { agentId: string } | { podId: string };

export async function insertKey({ prisma }: Store, key: Prisma.KeyUncheckedCreateInput): Promise<ListedKey> {
  return prisma.key.create({ data: key, select: LISTED });
}

/** The owner's keys, oldest first. */
export function keysOf({ prisma }: Store, owner: KeyOwner): Promise<ListedKey[]> {
  return prisma.key.findMany({ where: owner, select: LISTED, orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
}

/** Deletes the owner's key; false when it has none by that id. */
export async function deleteKey({ prisma }: Store, owner: KeyOwner, id: string): Promise<boolean> {
  return (await prisma.key.deleteMany({ where: { ...owner, id } })).count > 0;
}

/** How many keys agents hold besides their primary ones, how many pods hold, and how many of all have expired by now. */
export async function keyTotals(
  { prisma }: Store,
  now: Date,
): Promise<{ agents: number; pods: number; expired: number }> {
  const [agents, pods, expired] = await Promise.all([
    prisma.key.count({ where: { agentId: { not: null } } }),
    prisma.key.count({ where: { podId: { not: null } } }),
    prisma.key.count({ where: { expiresAt: { lte: now } } }),
  ]);
  return { agents, pods, expired };
}
