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

/** A direction's lists made stricter by a change worked out from an earlier read: blocks added, allows taken away. */
export interface Tightening {
  direction: Direction;
  blocks: string[];
  droppedAllows: string[];
}

/**
 * Changes the owner's lists in one transaction: each list of `replace` whole,
 * `tighten`'s blocks added and allows taken away (nothing else of its
 * direction touched: an entry another writer added or lifted since the read
 * it was worked out from stays as that writer left it, so a change meant to
 * tighten never loosens), and an agent's allow-only mode when given.
 */
export async function changeEntries(
  { prisma }: Store,
  owner: ListOwner,
  change: {
    replace: { direction: Direction; kind: EntryKind; entries: string[] }[];
    tighten?: Tightening;
    allowOnly?: boolean;
  },
  now: Date,
): Promise<void> {
  const keys = keysOf(owner);
  const { replace, tighten, allowOnly } = change;
  const mode =
    owner.scope === "agent" && allowOnly !== undefined
      ? [prisma.agent.updateMany({ where: { id: owner.id }, data: { allowOnly } })]
      : [];
  const tightening = tighten
    ? [
        prisma.listEntry.deleteMany({
          where: { ...ownerWhere(keys, tighten.direction, "allow"), entry: { in: tighten.droppedAllows } },
        }),
        // An upsert per block: one another writer has just added is no conflict.
        ...tighten.blocks.map((entry, position) => {
          const unique = { ...ownerWhere(keys, tighten.direction, "block"), entry };
          return prisma.listEntry.upsert({
            where: { scope_scopeId_direction_kind_entry: unique },
            create: { ...keys, ...unique, createdAt: now, position },
            update: {},
          });
        }),
      ]
    : [];
  await prisma.$transaction([
    ...mode,
    ...replace.map(({ direction, kind }) => prisma.listEntry.deleteMany({ where: ownerWhere(keys, direction, kind) })),
    prisma.listEntry.createMany({
      data: replace.flatMap(({ direction, kind, entries }) =>
        entries.map((entry, position) => ({ ...keys, direction, kind, entry, createdAt: now, position })),
      ),
    }),
    ...tightening,
  ]);
}

const ownerWhere = (keys: ReturnType<typeof keysOf>, direction: Direction, kind: EntryKind) => ({
  scope: keys.scope,
  scopeId: keys.scopeId,
  direction,
  kind,
});

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
