import type { DkimKey, Domain } from "../generated/prisma/sqlite/client.ts";
import { SEALED } from "../secrets.ts";
import type { Store } from "./client.ts";
import { isUniqueViolation } from "./errors.ts";
import { jsonInput } from "./rows.ts";

// The served domains and their DKIM keys: Prisma's, but for deleting a
// domain, which takes turns with the agents being made there.

export type { DkimKey, Domain };
export type DomainWithKeys = Domain & { dkimKeys: DkimKey[] };

const withKeys = { dkimKeys: { orderBy: [{ createdAt: "asc" as const }, { id: "asc" as const }] } };

/** A new domain with its first key, together; null when the domain is served already. */
export async function insertDomain(
  { prisma }: Store,
  domain: Pick<Domain, "name" | "createdAt" | "open">,
  key: DkimKey,
): Promise<DomainWithKeys | null> {
  try {
    await prisma.$transaction([prisma.domain.create({ data: domain }), prisma.dkimKey.create({ data: key })]);
    return { ...domain, lastCheck: null, checkedAt: null, dkimKeys: [key] };
  } catch (error) {
    if (isUniqueViolation(error)) return null;
    throw error;
  }
}

/** The domains' names, in order; with `open`, only those open to registration. */
export function domainNames({ prisma }: Store, filter: { open?: true } = {}): Promise<{ name: string }[]> {
  return prisma.domain.findMany({ where: filter, select: { name: true }, orderBy: { name: "asc" } });
}

/**
 * Whether an operator added the domain. Our own statement: every send to a
 * domain outside MAIL_DOMAINS asks it (is the recipient here?), where
 * Prisma's count costs several times more (docs/performance.md).
 */
export async function domainExists({ sql }: Store, name: string): Promise<boolean> {
  return (await sql.one(`SELECT 1 AS "found" FROM "Domain" WHERE "name" = ?`, [name])) !== undefined;
}

/** Whether the domain is open to registration; null when it is not served. */
export async function openToRegistration({ prisma }: Store, name: string): Promise<boolean | null> {
  return (await prisma.domain.findUnique({ where: { name }, select: { open: true } }))?.open ?? null;
}

export function domainsWithKeys({ prisma }: Store): Promise<DomainWithKeys[]> {
  return prisma.domain.findMany({ include: withKeys, orderBy: { name: "asc" } });
}

export function domainByName({ prisma }: Store, name: string): Promise<DomainWithKeys | null> {
  return prisma.domain.findUnique({ where: { name }, include: withKeys });
}

/** The key mail from the domain is signed with, or null. */
export function activeKeyOf({ prisma }: Store, domainName: string): Promise<DkimKey | null> {
  return prisma.dkimKey.findFirst({ where: { domainName, state: "active" }, orderBy: { createdAt: "desc" } });
}

export async function insertKey({ prisma }: Store, key: DkimKey): Promise<void> {
  await prisma.dkimKey.create({ data: key });
}

/**
 * The key signs from now on, and the one that signed before is retired, its
 * private key erased; nothing when it is not pending any more.
 */
export async function promoteKey({ prisma }: Store, key: DkimKey): Promise<void> {
  await prisma.$transaction(async (tx) => {
    const promoted = await tx.dkimKey.updateMany({
      where: { id: key.id, state: "pending" },
      data: { state: "active" },
    });
    if (promoted.count === 0) return;
    await tx.dkimKey.updateMany({
      where: { domainName: key.domainName, state: "active", id: { not: key.id } },
      data: { state: "retired", privateKey: null },
    });
  });
}

/** The keys waiting to be published, oldest first. */
export function pendingKeys({ prisma }: Store): Promise<Pick<DkimKey, "domainName" | "selector">[]> {
  return prisma.dkimKey.findMany({
    where: { state: "pending" },
    select: { domainName: true, selector: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

/** Every key whose private key is stored in the clear. */
export function keysInTheClear({ prisma }: Store): Promise<(DkimKey & { privateKey: string })[]> {
  return prisma.dkimKey.findMany({
    where: { privateKey: { not: null }, NOT: { privateKey: { startsWith: SEALED } } },
  }) as Promise<(DkimKey & { privateKey: string })[]>;
}

/** Replaces a private key found in the clear with its sealed value; false when another instance did first. */
export async function sealKey({ prisma }: Store, key: DkimKey, sealed: string): Promise<boolean> {
  const { count } = await prisma.dkimKey.updateMany({
    where: { id: key.id, privateKey: key.privateKey },
    data: { privateKey: sealed },
  });
  return count > 0;
}

/** Retires a key found in the clear, its private key erased; false when another instance did first. */
export async function retireKey({ prisma }: Store, key: DkimKey): Promise<boolean> {
  const { count } = await prisma.dkimKey.updateMany({
    where: { id: key.id, privateKey: key.privateKey },
    data: { state: "retired", privateKey: null },
  });
  return count > 0;
}

/** Erases the private keys of retired keys. */
export async function eraseRetiredKeys({ prisma }: Store): Promise<void> {
  await prisma.dkimKey.updateMany({
    where: { state: "retired", privateKey: { not: null } },
    data: { privateKey: null },
  });
}

/** Leaves no copy of a private key the key table no longer holds in the database's own files (see Sql.compact). */
export function compactKeys({ sql }: Store): Promise<boolean> {
  return sql.compact("DkimKey");
}

/** Agents made before domains take the default domain: their address stays where it was. */
export async function settleAgentDomains({ prisma }: Store, domain: string): Promise<void> {
  await prisma.agent.updateMany({ where: { domain: null }, data: { domain } });
}

/** Opens the domain to registration or closes it; false when it is gone. */
export async function changeDomainOpen({ prisma }: Store, name: string, open: boolean): Promise<boolean> {
  return (await prisma.domain.updateMany({ where: { name }, data: { open } })).count > 0;
}

export async function saveCheck(
  { prisma }: Store,
  name: string,
  lastCheck: readonly object[],
  checkedAt: Date,
): Promise<void> {
  await prisma.domain.updateMany({ where: { name }, data: { lastCheck: jsonInput(lastCheck), checkedAt } });
}

/**
 * Deletes the domain (its keys and lists with it) unless agents have their
 * address there: how many do (0: it was deleted), or null when it is not
 * served. Raw: the domain's row is locked before its agents are counted, and
 * an agent being made there holds that row (insertAgent), so that one made
 * meanwhile is counted and none is made once the domain is gone.
 */
export async function deleteDomainWithoutAgents({ sql }: Store, name: string): Promise<number | null> {
  return sql.transaction(async (tx) => {
    if (!(await tx.one(`SELECT 1 AS "found" FROM "Domain" WHERE "name" = ?${tx.forUpdate}`, [name]))) return null;
    const counted = await tx.one(`SELECT COUNT(*) AS "agents" FROM "Agent" WHERE "domain" = ?`, [name]);
    const agents = Number(counted?.agents);
    if (agents === 0) await tx.run(`DELETE FROM "Domain" WHERE "name" = ?`, [name]);
    return agents;
  });
}
