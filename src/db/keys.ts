import type { Key, Prisma } from "../generated/prisma/sqlite/client.ts";
import type { Store } from "./client.ts";

// An agent's keys besides its primary one: made, listed (never with a secret,
// which is not kept) and deleted. A request finds its key by agentByKeyHash
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

/** Deletes the agent's key; false when it has none by that id. */
export async function deleteKey({ prisma }: Store, agentId: string, id: string): Promise<boolean> {
  return (await prisma.key.deleteMany({ where: { agentId, id } })).count > 0;
}
