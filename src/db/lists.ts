import type { Store } from "./client.ts";
import { inList, oneOf, type Tx } from "./statements.ts";

// The allow and block lists of the instance, the served domains, the pods and
// the agents (src/mailbox/senders.ts decides with them): one "ListEntry" row
// per entry. A domain's, a pod's and an agent's rows name it a second time by
// foreign key, so that its lists go with it.

export type ListScope = "instance" | "domain" | "pod" | "agent";
export type Direction = "receive" | "send";
export type EntryKind = "allow" | "block";

/** Whose lists: the instance, a domain by name, a pod or an agent by id. */
export type ListOwner =
  | { scope: "instance" }
  | { scope: "domain"; name: string }
  | { scope: "pod"; id: string }
  | { scope: "agent"; id: string };

export interface StoredEntry {
  scope: ListScope;
  direction: Direction;
  kind: EntryKind;
  entry: string;
}

const scopeIdOf = (owner: ListOwner) =>
  owner.scope === "instance" ? "" : owner.scope === "domain" ? owner.name : owner.id;

const keysOf = (owner: ListOwner) => ({
  scope: owner.scope,
  scopeId: scopeIdOf(owner),
  domainName: owner.scope === "domain" ? owner.name : null,
  podId: owner.scope === "pod" ? owner.id : null,
  agentId: owner.scope === "agent" ? owner.id : null,
});

/** An entry as a read for several agents finds it: whose list it is in, by its scope's id ("" for the instance). */
export type NamingEntry = StoredEntry & { scopeId: string };

/**
 * The entries that may name the addresses, at the instance, the agents'
 * domains, their pods and the agents themselves, in one statement: filing
 * asks it once for all the agents of a transaction, the SMTP door's RCPT TO
 * for each message's. Raw: the filing transaction is ours.
 */
export async function entriesNaming(
  tx: Tx,
  direction: Direction,
  agents: readonly { id: string; domain: string; podId: string | null }[],
  candidates: string[],
): Promise<NamingEntry[]> {
  const entries = inList(candidates);
  const [domains, pods, ids] = [
    oneOf(`"scopeId"`, [...new Set(agents.map(({ domain }) => domain))]),
    oneOf(`"scopeId"`, [...new Set(agents.flatMap(({ podId }) => podId ?? []))]),
    oneOf(
      `"scopeId"`,
      agents.map(({ id }) => id),
    ),
  ];
  const rows = await tx.all(
    `SELECT "scope", "scopeId", "kind", "entry" FROM "ListEntry" WHERE "direction" = ? AND "entry" IN (${entries.list})
      AND (("scope" = 'instance' AND "scopeId" = '') OR ("scope" = 'domain' AND ${domains.where})
        OR ("scope" = 'pod' AND ${pods.where}) OR ("scope" = 'agent' AND ${ids.where}))`,
    [direction, ...entries.params, ...domains.params, ...pods.params, ...ids.params],
  );
  return rows.map((row) => ({
    scope: row.scope as ListScope,
    scopeId: String(row.scopeId),
    direction,
    kind: row.kind as EntryKind,
    entry: String(row.entry),
  }));
}

/** Every entry of one owner's lists, in order. */
export async function entriesOf({ prisma }: Store, owner: ListOwner): Promise<StoredEntry[]> {
  return prisma.listEntry.findMany({
    where: { scope: owner.scope, scopeId: scopeIdOf(owner) },
    select: { scope: true, direction: true, kind: true, entry: true },
    orderBy: [{ direction: "asc" }, { kind: "asc" }, { createdAt: "asc" }, { position: "asc" }],
  }) as Promise<StoredEntry[]>;
}

/** Replaces the owner's lists given, each whole, and an agent's allow-only mode when given, in one transaction. */
export async function replaceEntries(
  { prisma }: Store,
  owner: ListOwner,
  lists: { direction: Direction; kind: EntryKind; entries: string[] }[],
  now: Date,
  allowOnly?: boolean,
): Promise<void> {
  const keys = keysOf(owner);
  const mode =
    owner.scope === "agent" && allowOnly !== undefined
      ? [prisma.agent.updateMany({ where: { id: owner.id }, data: { allowOnly } })]
      : [];
  await prisma.$transaction([
    ...mode,
    ...lists.map(({ direction, kind }) =>
      prisma.listEntry.deleteMany({ where: { scope: keys.scope, scopeId: keys.scopeId, direction, kind } }),
    ),
    prisma.listEntry.createMany({
      data: lists.flatMap(({ direction, kind, entries }) =>
        entries.map((entry, position) => ({ ...keys, direction, kind, entry, createdAt: now, position })),
      ),
    }),
  ]);
}

/** Adds one entry; nothing when it is there already. */
export async function insertEntry({ prisma }: Store, owner: ListOwner, entry: Omit<StoredEntry, "scope">, now: Date) {
  const keys = keysOf(owner);
  await prisma.listEntry.upsert({
    where: { scope_scopeId_direction_kind_entry: { scope: keys.scope, scopeId: keys.scopeId, ...entry } },
    create: { ...keys, ...entry, createdAt: now },
    update: {},
  });
}

/** Removes one entry; false when it was not there. */
export async function deleteEntry({ prisma }: Store, owner: ListOwner, entry: Omit<StoredEntry, "scope">) {
  const { count } = await prisma.listEntry.deleteMany({
    where: { scope: owner.scope, scopeId: scopeIdOf(owner), ...entry },
  });
  return count > 0;
}
