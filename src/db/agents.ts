import type { Agent, Key, Prisma } from "../generated/prisma/sqlite/client.ts";
import { SEALED } from "../secrets.ts";
import type { Store } from "./client.ts";
import { isUniqueViolation } from "./errors.ts";
import { countOf, pageOf, rangeOf, type Window } from "./pages.ts";
import { type Placement, placementAt } from "./pods.ts";
import { columnsOf, insertRow, rowOf, rowsOf } from "./rows.ts";
import { likeLiteral } from "./sql.ts";
import { oneOf, type Param, type Row, type Tx } from "./statements.ts";

// Agents: who they are, their keys, their verification, their limits. An
// agent is expired once it has stayed unverified past a cutoff the domain
// works out (mailbox/lifetimes.ts); here it is a condition.

export type { Agent };

/** What a read of agents loads with each: the GraphQL selection, as Prisma takes it. */
export type AgentQuery = { include?: Prisma.AgentInclude } | { select?: Prisma.AgentSelect };

const expired = (cutoff: Date) => ({ verifiedAt: null, createdAt: { lte: cutoff } }) satisfies Prisma.AgentWhereInput;

// Raw: every request looks its key up, and a prepared statement costs a
// fraction of Prisma's query (docs/performance.md). One statement for every
// kind of key: an agent's primary one (its own column), or a Key row, an
// agent's (joined to it) or a pod's (no agent: its columns come back null).
const BY_KEY = `SELECT ${columnsOf("Agent")}, NULL AS "keyId", NULL AS "keyPermissions", NULL AS "keyExpiresAt",
    NULL AS "keyPodId", NULL AS "keyAgents", NULL AS "keyHideJunk"
    FROM "Agent" WHERE "apiKeyHash" = ?
  UNION ALL SELECT ${columnsOf("Agent", { table: true })}, "Key"."id", "Key"."permissions", "Key"."expiresAt",
    "Key"."podId", "Key"."agents", "Key"."hideJunk"
    FROM "Key" LEFT JOIN "Agent" ON "Agent"."id" = "Key"."agentId" WHERE "Key"."hash" = ?`;

/** A Key row as the lookup reads it; null for the agent's primary key. */
export type KeyGrantRow = Pick<Key, "id" | "permissions" | "expiresAt" | "podId" | "agents" | "hideJunk">;

/**
 * The agent whose key (primary, or one of its Key rows) has this hash, and that Key row; for a pod's key, no agent
 * and its row; null for no such key.
 */
export async function holderByKeyHash(
  { sql }: Store,
  hash: string,
): Promise<{ agent: Agent | null; key: KeyGrantRow | null } | null> {
  const row = await sql.one(BY_KEY, [hash, hash]);
  if (!row) return null;
  const { keyId, keyPermissions, keyExpiresAt, keyPodId, keyAgents, keyHideJunk, ...agent } = row;
  const key =
    keyId === null
      ? null
      : {
          ...rowOf(sql, "Key", {
            permissions: keyPermissions,
            expiresAt: keyExpiresAt,
            agents: keyAgents,
            hideJunk: keyHideJunk,
          }),
          id: keyId as string,
          podId: keyPodId as string | null,
        };
  return { agent: agent.id === null ? null : rowOf(sql, "Agent", agent), key: key as KeyGrantRow | null };
}

/** The agent whose verification link has this hash, or null. */
export function agentByClaimHash({ prisma }: Store, claimTokenHash: string): Promise<Agent | null> {
  return prisma.agent.findUnique({ where: { claimTokenHash } });
}

/** The agent with this id in lower case, or null; with a query, loaded with what it selects. */
export async function agentByIdKey({ prisma }: Store, idKey: string, query: AgentQuery = {}): Promise<Agent | null> {
  return (await prisma.agent.findUnique({ ...query, where: { idKey } })) as Agent | null;
}

/** The agent with this id, loaded with what the selection plans. */
export async function agentById({ prisma }: Store, id: string, query: AgentQuery): Promise<Agent | null> {
  return (await prisma.agent.findUnique({ ...query, where: { id } })) as Agent | null;
}

/** The agents with these ids in lower case that `createdBy` made, oldest first. */
export function agentsByIdKeys({ prisma }: Store, idKeys: string[], createdBy: string) {
  return prisma.agent.findMany({
    where: { idKey: { in: idKeys }, createdBy },
    select: { id: true, domain: true },
    orderBy: [{ createdAt: "asc" }, { id: "asc" }],
  });
}

/** Whether an agent with this id in lower case exists and has not expired. */
export async function liveAgentExists({ prisma }: Store, idKey: string, cutoff: Date): Promise<boolean> {
  const found = await prisma.agent.findFirst({ where: { idKey, NOT: expired(cutoff) }, select: { id: true } });
  return found !== null;
}

/** A new agent's row: what its maker sets; the other columns take their defaults. */
export type NewAgentRow = Pick<
  Agent,
  "id" | "idKey" | "name" | "podId" | "apiKeyHash" | "claimTokenHash" | "createdAt" | "createdBy"
> &
  Partial<Pick<Agent, "metadata" | "verifiedAt" | "verifiedBy">> & {
    /** One of the served domains: a new agent always has one. */
    domain: string;
  };

/**
 * Why an agent was not added: its id is taken, its domain is no longer
 * served, or its pod or the pods' domains changed since its placement was read.
 */
export type NotInserted = "taken" | "unserved" | "moved";

/** How an agent is added: who may take its id, whether its pod verifies it, and where it was placed. */
export interface Insertion {
  /** Its domain is one of MAIL_DOMAINS, served whether or not this database has its row yet. */
  configured: boolean;
  /** An unverified agent made by then no longer holds its id. */
  cutoff: Date;
  /** Verified with its pod, when the pod is verified. */
  withPod: boolean;
  /** Its placement as its maker read and checked it. */
  placement: Placement;
}

/**
 * Adds the agent, unless its id is taken, its domain is gone or its
 * placement changed. An expired agent the cleanup job has not reached yet no
 * longer holds its id: it goes first, together. The domain's row (and the
 * pod's) is held unchanged until commit, and the placement read again under
 * it: deleting the domain (deleteDomainWithoutAgents) or changing which pod
 * holds it (withDomainsLocked) either ends before or finds this agent. With
 * `withPod`, the agent is verified with its pod (by "pod", as it is made)
 * when the pod is verified as this transaction reads it, so that the pod's
 * verification, which changes its row and then verifies the pod's agents,
 * either ends before the read or finds this agent once it is committed. Raw:
 * Prisma cannot lock a row it reads, so the transaction is our own, and the
 * delete and insert with it.
 */
export async function insertAgent(
  { sql }: Store,
  agent: NewAgentRow,
  { configured, cutoff, withPod, placement }: Insertion,
): Promise<Agent | NotInserted> {
  try {
    return await sql.transaction(async (tx) => {
      const held = await tx.one(`SELECT 1 AS "found" FROM "Domain" WHERE "name" = ?${tx.forShare}`, [agent.domain]);
      if (!held && !configured) return "unserved";
      const pod = agent.podId === null ? null : await heldPod(tx, agent.podId);
      if (pod === undefined || !samePlacement(await placementAt(tx, agent.podId, agent.domain), placement)) {
        return "moved";
      }
      const podVerified = withPod && pod !== null && pod.verifiedAt != null;
      await tx.run(`DELETE FROM "Agent" WHERE "idKey" = ? AND "verifiedAt" IS NULL AND "createdAt" <= ?`, [
        agent.idKey,
        tx.at(cutoff),
      ]);
      await insertRow(tx, "Agent", podVerified ? { ...agent, verifiedAt: agent.createdAt, verifiedBy: "pod" } : agent);
      const row = await tx.one(`SELECT ${columnsOf("Agent")} FROM "Agent" WHERE "id" = ?`, [agent.id]);
      return rowOf(tx, "Agent", row as Row);
    });
  } catch (error) {
    if (isUniqueViolation(error)) return "taken";
    throw error;
  }
}

/** Inside a transaction: the pod's verification, its row held unchanged until commit; undefined when it is gone. */
async function heldPod(tx: Tx, podId: string): Promise<Row | undefined> {
  return tx.one(`SELECT "verifiedAt" FROM "Pod" WHERE "id" = ?${tx.forShare}`, [podId]);
}

const samePlacement = (a: Placement, b: Placement) =>
  a.holder === b.holder && a.podDomains.join(" ") === b.podDomains.join(" ");

/** Replaces the key's hash, unless another rotation replaced it first; false then. */
export async function replaceKeyHash({ prisma }: Store, id: string, current: string, next: string): Promise<boolean> {
  const { count } = await prisma.agent.updateMany({ where: { id, apiKeyHash: current }, data: { apiKeyHash: next } });
  return count > 0;
}

/** Deletes the agent and, by cascade, everything of it; false when it was gone. */
export async function deleteAgentRow({ prisma }: Store, id: string): Promise<boolean> {
  return (await prisma.agent.deleteMany({ where: { id } })).count > 0;
}

/** Deletes the agents expired by the cutoff; how many. */
export async function deleteExpiredAgents({ prisma }: Store, cutoff: Date): Promise<number> {
  return (await prisma.agent.deleteMany({ where: expired(cutoff) })).count;
}

/** Which agents the operator lists. */
export interface AgentFilter {
  verified?: boolean | null;
  /** Ids starting with this, in lower case. */
  prefix?: string | null;
}

/**
 * A page of agents, newest first, and how many match. Raw: a prefix is
 * matched by LIKE with its wildcards escaped, and Prisma's startsWith
 * escapes nothing (nor can it, on SQLite).
 */
export async function agentPage({ sql }: Store, filter: AgentFilter, window: Window) {
  const conditions = ["1 = 1"];
  const params: Param[] = [];
  if (filter.verified != null) conditions.push(`"verifiedAt" IS ${filter.verified ? "NOT " : ""}NULL`);
  if (filter.prefix) {
    conditions.push(`"idKey" LIKE ? ESCAPE '\\'`);
    params.push(`${likeLiteral(filter.prefix)}%`);
  }
  const from = `FROM "Agent" WHERE ${conditions.join(" AND ")}`;
  const { data, total } = await pageOf(window, () => [
    sql.all(`SELECT ${columnsOf("Agent")} ${from} ORDER BY "createdAt" DESC, "id" LIMIT ? OFFSET ?`, [
      ...params,
      window.limit,
      window.offset,
    ]),
    countOf(sql.one(`SELECT COUNT(*) AS "n" ${from}`, params)),
  ]);
  return { data: rowsOf(sql, "Agent", data), total };
}

/** Each agent's sends on the day and when it last received mail, read for all of them at once. */
export async function agentActivity({ prisma }: Store, ids: string[], day: string) {
  const [sends, received] = await Promise.all([
    prisma.sendCounter.findMany({ where: { day, agentId: { in: ids } }, select: { agentId: true, count: true } }),
    prisma.email.groupBy({ by: ["agentId"], where: { agentId: { in: ids } }, _max: { receivedAt: true } }),
  ]);
  return {
    sendsOf: new Map(sends.map((row) => [row.agentId, row.count])),
    lastReceivedOf: new Map(received.map((row) => [row.agentId, row._max.receivedAt])),
  };
}

/** An agent's own limits: a number, null for the instance's default, or left out to keep it. */
export interface LimitOverrides {
  storageLimit?: number | null;
  dailySendLimit?: number | null;
}

export async function changeLimits({ prisma }: Store, id: string, limits: LimitOverrides): Promise<boolean> {
  return (await prisma.agent.updateMany({ where: { id }, data: limits })).count > 0;
}

/** The operator's send policy for the agent; null: the instance's. False when there is no such agent. */
export async function changeScreeningPolicy({ prisma }: Store, id: string, screeningPolicy: string): Promise<boolean> {
  return (await prisma.agent.updateMany({ where: { id }, data: { screeningPolicy } })).count > 0;
}

export async function changeSendPolicy({ prisma }: Store, id: string, sendPolicy: string | null): Promise<boolean> {
  return (await prisma.agent.updateMany({ where: { id }, data: { sendPolicy } })).count > 0;
}

/** The agent's own reviewer, each part null for the instance's; false when the agent is gone. */
export async function changeReviewer(
  { prisma }: Store,
  id: string,
  reviewer: Pick<Agent, "reviewerEmail" | "reviewerWebhookUrl" | "reviewerWebhookSecret">,
): Promise<boolean> {
  return (await prisma.agent.updateMany({ where: { id }, data: reviewer })).count > 0;
}

/** Agents that have a reviewer of their own (an address or a webhook). */
export function agentsWithOwnReviewer({ prisma }: Store): Promise<number> {
  return prisma.agent.count({
    where: { OR: [{ reviewerEmail: { not: null } }, { reviewerWebhookUrl: { not: null } }] },
  });
}

/**
 * Ids of agents with none of their own reviewer whose policy holds mail: their own, else their pod's, else (with
 * `orInstance`) the instance's.
 */
export async function heldWithoutOwnReviewer({ prisma }: Store, holding: string[], orInstance: boolean) {
  const byPod = { sendPolicy: null, pod: { sendPolicy: { in: holding } } } satisfies Prisma.AgentWhereInput;
  const byInstance = { sendPolicy: null, OR: [{ podId: null }, { pod: { sendPolicy: null } }] };
  const policy = [{ sendPolicy: { in: holding } }, byPod, ...(orInstance ? [byInstance] : [])];
  const where = { reviewerEmail: null, reviewerWebhookUrl: null, OR: policy };
  const window = { limit: 10, offset: 0 };
  const { data, total } = await pageOf(window, () => [
    prisma.agent.findMany({ where, select: { id: true }, orderBy: { id: "asc" }, ...rangeOf(window) }),
    prisma.agent.count({ where }),
  ]);
  return { ids: data.map(({ id }) => id), total };
}

/** Agents whose reviewer webhook's secret is stored in the clear (before SECRETS_KEY was set). */
export function reviewerSecretsInTheClear({
  prisma,
}: Store): Promise<{ id: string; reviewerWebhookSecret: string | null }[]> {
  return prisma.agent.findMany({
    where: { reviewerWebhookSecret: { not: null }, NOT: { reviewerWebhookSecret: { startsWith: SEALED } } },
    select: { id: true, reviewerWebhookSecret: true },
  });
}

/** Replaces a secret stored in the clear by its sealed form, unless it changed meanwhile. */
export async function sealReviewerSecret({ prisma }: Store, id: string, clear: string, sealed: string): Promise<void> {
  await prisma.agent.updateMany({
    where: { id, reviewerWebhookSecret: clear },
    data: { reviewerWebhookSecret: sealed },
  });
}

/** Leaves no copy of a value the agent table no longer holds in the database's own files (see Sql.compact). */
export function compactAgents({ sql }: Store): Promise<boolean> {
  return sql.compact("Agent");
}

/** Agents, verified agents, stored bytes and mail across the instance, and the sends on the day. */
export async function instanceTotals({ prisma }: Store, day: string) {
  const [agents, verified, emails, sends] = await Promise.all([
    prisma.agent.aggregate({ _count: { _all: true }, _sum: { storageUsed: true } }),
    prisma.agent.count({ where: { verifiedAt: { not: null } } }),
    prisma.email.count(),
    prisma.sendCounter.aggregate({ where: { day }, _sum: { count: true } }),
  ]);
  return {
    agents: agents._count._all,
    verified,
    emails,
    bytes: agents._sum.storageUsed ?? 0,
    sendsToday: sends._sum.count ?? 0,
  };
}

/** What is verified: an agent, or a pod (src/mailbox/verification.ts). */
export type OwnerKind = "agent" | "pod";

/** Sets the unverified owner's code; false when it is verified (or gone). */
export async function setVerificationCode({ prisma }: Store, kind: OwnerKind, id: string, code: string, expires: Date) {
  const change = { where: { id, verifiedAt: null }, data: { verificationCode: code, verificationExpires: expires } };
  const { count } = kind === "agent" ? await prisma.agent.updateMany(change) : await prisma.pod.updateMany(change);
  return count > 0;
}

/** How an agent or a pod was verified. */
export interface Verification {
  at: Date;
  by: "social" | "admin";
  /** The X account, in lower case, when by social. */
  socialUsername: string | null;
  /** Social: the code the post carried, still the owner's active one. */
  code: string | null;
}

/**
 * Inside the transaction that writes its events: marks the agent or pod
 * verified, if it is still unverified, (an agent) unexpired by the cutoff,
 * and (with a code) holding that code unexpired. "taken" when the X account
 * verified another of its kind. Raw: the events' transaction is our own.
 */
export async function markVerified(
  tx: Tx,
  kind: OwnerKind,
  id: string,
  verification: Verification,
  cutoff: Date,
): Promise<"verified" | "changed" | "taken"> {
  const { at, by, socialUsername, code } = verification;
  const unexpired = kind === "agent" ? ` AND "createdAt" > ?` : "";
  const codeStill = code === null ? "" : ` AND "verificationCode" = ? AND "verificationExpires" > ?`;
  try {
    const changed = await tx.run(
      `UPDATE "${kind === "agent" ? "Agent" : "Pod"}" SET "verifiedAt" = ?, "socialUsername" = ?, "verifiedBy" = ?,
        "verificationCode" = NULL, "verificationExpires" = NULL WHERE "id" = ? AND "verifiedAt" IS NULL${unexpired}${codeStill}`,
      [
        tx.at(at),
        socialUsername,
        by,
        id,
        ...(kind === "agent" ? [tx.at(cutoff)] : []),
        ...(code === null ? [] : [code, tx.at(at)]),
      ],
    );
    return changed > 0 ? "verified" : "changed";
  } catch (error) {
    if (isUniqueViolation(error)) return "taken";
    throw error;
  }
}

/**
 * In the pod's verification's transaction, one statement: its agents not yet
 * verified and unexpired by the cutoff are verified with it; their ids, for
 * their events. Raw, as markVerified: the events' transaction is our own.
 */
export async function markPodAgentsVerified(tx: Tx, podId: string, at: Date, cutoff: Date): Promise<string[]> {
  const rows = await tx.all(
    `UPDATE "Agent" SET "verifiedAt" = ?, "verifiedBy" = 'pod', "verificationCode" = NULL, "verificationExpires" = NULL
      WHERE "podId" = ? AND "verifiedAt" IS NULL AND "createdAt" > ? RETURNING "id"`,
    [tx.at(at), podId, tx.at(cutoff)],
  );
  return rows.map((row) => row.id as string);
}

/** What filing, and the SMTP door's RCPT TO, need of the agent a message is addressed to. */
export type Recipient = Pick<
  Agent,
  | "id"
  | "domain"
  | "podId"
  | "verifiedAt"
  | "allowOnly"
  | "storageLimit"
  | "storageUsed"
  | "dailySendLimit"
  | "screeningPolicy"
>;

const RECIPIENT = `"id", "domain", "podId", "verifiedAt", "allowOnly", "storageLimit", "storageUsed", "dailySendLimit", "screeningPolicy"`;

/**
 * The agent with this id in lower case, in the filing transaction or at the
 * SMTP door's RCPT TO. Raw: the filing transaction is ours (with the
 * cursor's), and the door asks it for every recipient, where a prepared
 * statement costs a fraction of Prisma's query (docs/performance.md).
 */
export async function recipientByIdKey(tx: Tx, idKey: string): Promise<Recipient | null> {
  const row = await tx.one(`SELECT ${RECIPIENT} FROM "Agent" WHERE "idKey" = ?`, [idKey]);
  return row ? (rowOf(tx, "Agent", row) as Recipient) : null;
}

/** The agents with these ids in lower case, by that id, in one statement: a filing transaction's recipients. */
export async function recipientsByIdKeys(tx: Tx, idKeys: readonly string[]): Promise<Map<string, Recipient>> {
  if (idKeys.length === 0) return new Map();
  const keys = oneOf(`"idKey"`, idKeys);
  const rows = await tx.all(`SELECT "idKey", ${RECIPIENT} FROM "Agent" WHERE ${keys.where}`, keys.params);
  return new Map(rows.map(({ idKey, ...row }) => [idKey as string, rowOf(tx, "Agent", row) as Recipient]));
}

/** Who reviews an agent's held mail, as its row names them. */
export type ReviewerFields = Pick<
  Agent,
  "id" | "name" | "reviewerEmail" | "reviewerWebhookUrl" | "reviewerWebhookSecret"
>;

/** Inside the filing transaction (ours, so raw, as recipientByIdKey): the agent's name and its own reviewer. */
export async function reviewerFieldsIn(tx: Tx, agentId: string): Promise<ReviewerFields | null> {
  const row = await tx.one(
    `SELECT "id", "name", "reviewerEmail", "reviewerWebhookUrl", "reviewerWebhookSecret" FROM "Agent" WHERE "id" = ?`,
    [agentId],
  );
  return row ? (rowOf(tx, "Agent", row) as ReviewerFields) : null;
}

/** Inside a transaction: locks the agent's row until commit, so that changes for one agent checked under it take turns. */
export async function lockAgent(tx: Tx, agentId: string): Promise<void> {
  await tx.one(`SELECT "id" FROM "Agent" WHERE "id" = ?${tx.forUpdate}`, [agentId]);
}
