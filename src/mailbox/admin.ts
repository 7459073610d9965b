import { utcDay } from "../db/quota.ts";
import { likeLiteral, type Param } from "../db/sql.ts";
import { excerpt, ServiceError } from "../errors.ts";
import { addressOf, deleteAgent, type Outcome, rotateKey } from "./agents.ts";
import { limitsOf } from "./limits.ts";
import { offsetPage, type Page, type PageRequest } from "./pages.ts";
import { AGENT_COLUMNS, type AgentRecord, agentFromRow } from "./records.ts";
import type { Services } from "./services.ts";
import { verifyByOperator } from "./verification.ts";

// The operator's view of the instance and its acts on any agent, for the
// admin API and the CLI alike. Acting on an agent reuses the agent's own
// rules (deleting, rotating its key); only the choice of agent differs.

/** An agent as the operator sees it: who it is, where it stands today, its limits. */
export interface AgentOverview {
  id: string;
  email: string;
  name: string;
  metadata: unknown;
  createdAt: Date;
  verified: boolean;
  verifiedAt: Date | null;
  verifiedBy: string | null;
  socialUsername: string | null;
  storageUsed: number;
  /** In force: its own, else the instance's. */
  storageLimit: number;
  /** Its own, when the operator set one. */
  storageLimitOverride: number | null;
  sendsToday: number;
  dailySendLimit: number;
  dailySendLimitOverride: number | null;
  lastReceivedAt: Date | null;
}

export interface AgentQuery extends PageRequest {
  verified?: boolean | null;
  /** Ids starting with this, without regard to case. */
  prefix?: string | null;
}

/** Agents, newest first, with where each stands today. */
export async function listAgents(services: Services, query: AgentQuery): Promise<Page<AgentOverview>> {
  const conditions = ["1 = 1"];
  const params: Param[] = [];
  if (query.verified != null) conditions.push(`"verifiedAt" IS ${query.verified ? "NOT " : ""}NULL`);
  if (query.prefix) {
    conditions.push(`"idKey" LIKE ? ESCAPE '\\'`);
    params.push(`${likeLiteral(query.prefix)}%`);
  }
  const page = await offsetPage(
    services.sql,
    {
      table: "Agent",
      columns: AGENT_COLUMNS,
      where: conditions.join(" AND "),
      params,
      order: `"createdAt" DESC, "id"`,
    },
    query,
  );
  const agents = page.data.map((row) => agentFromRow(services.sql, row));
  return { ...page, data: await overviews(services, agents) };
}

/** One agent by its id: 404 when there is none. */
export async function findAgent(services: Services, id: string): Promise<AgentRecord> {
  const row = await services.sql.one(`SELECT ${AGENT_COLUMNS} FROM "Agent" WHERE "idKey" = ?`, [id.toLowerCase()]);
  if (!row) throw new ServiceError("NOT_FOUND", `Agent ${excerpt(id)} not found`);
  return agentFromRow(services.sql, row);
}

export async function agentOverview(services: Services, id: string): Promise<AgentOverview> {
  const [overview] = await overviews(services, [await findAgent(services, id)]);
  return overview as AgentOverview;
}

/** Sends today and the last mail received, read for all the agents at once. */
async function overviews(services: Services, agents: AgentRecord[]): Promise<AgentOverview[]> {
  if (agents.length === 0) return [];
  const { sql, clock, config } = services;
  const ids = agents.map((agent) => agent.id);
  const list = ids.map(() => "?").join(", ");
  const [sends, received] = await Promise.all([
    sql.all(`SELECT "agentId", "count" FROM "SendCounter" WHERE "day" = ? AND "agentId" IN (${list})`, [
      utcDay(clock.now()),
      ...ids,
    ]),
    sql.all(
      `SELECT "agentId", MAX("receivedAt") AS "last" FROM "Email" WHERE "agentId" IN (${list}) GROUP BY "agentId"`,
      ids,
    ),
  ]);
  const sendsOf = new Map(sends.map((row) => [row.agentId, Number(row.count)]));
  const lastOf = new Map(received.map((row) => [row.agentId, sql.date(row.last)]));
  return agents.map((agent) => {
    const limits = limitsOf(agent, config);
    return {
      id: agent.id,
      email: addressOf(agent, config),
      name: agent.name,
      metadata: agent.metadata,
      createdAt: agent.createdAt,
      verified: agent.verifiedAt !== null,
      verifiedAt: agent.verifiedAt,
      verifiedBy: agent.verifiedBy,
      socialUsername: agent.socialUsername,
      storageUsed: agent.storageUsed,
      storageLimit: limits.storageBytes,
      storageLimitOverride: agent.storageLimit,
      sendsToday: sendsOf.get(agent.id) ?? 0,
      dailySendLimit: limits.dailySends,
      dailySendLimitOverride: agent.dailySendLimit,
      lastReceivedAt: lastOf.get(agent.id) ?? null,
    };
  });
}

export async function verifyAgent(services: Services, id: string): Promise<AgentOverview> {
  await verifyByOperator(services, await findAgent(services, id));
  return agentOverview(services, id);
}

export async function deleteAgentById(services: Services, id: string): Promise<Outcome> {
  return deleteAgent(services, await findAgent(services, id));
}

export async function rotateKeyOf(services: Services, id: string): Promise<{ apiKey: string; message: string }> {
  return rotateKey(services, await findAgent(services, id));
}

/** A limit for one agent: a number, null for the instance's default, or left out to keep it. */
export interface LimitChange {
  storageLimit?: number | null;
  dailySendLimit?: number | null;
}

const MAX_LIMIT = 2_147_483_647;

export async function setLimits(services: Services, id: string, change: LimitChange): Promise<AgentOverview> {
  for (const [name, value] of Object.entries(change)) {
    if (value != null && (!Number.isInteger(value) || value < 1 || value > MAX_LIMIT)) {
      throw new ServiceError("BAD_REQUEST", `${name} must be an integer from 1 to ${MAX_LIMIT}, or null`);
    }
  }
  const agent = await findAgent(services, id);
  const data = Object.fromEntries(Object.entries(change).filter(([, value]) => value !== undefined));
  const { count } = await services.prisma.agent.updateMany({ where: { id: agent.id }, data });
  if (count === 0) throw new ServiceError("NOT_FOUND", `Agent ${excerpt(id)} not found`);
  return agentOverview(services, id);
}

export interface InstanceStats {
  agents: number;
  verified: number;
  emails: number;
  /** Bytes of stored mail, received and sent. */
  bytes: number;
  sendsToday: number;
}

export async function instanceStats({ sql, clock }: Services): Promise<InstanceStats> {
  const [agents, emails, sends] = await Promise.all([
    sql.one(
      `SELECT COUNT(*) AS "agents", COUNT("verifiedAt") AS "verified", COALESCE(SUM("storageUsed"), 0) AS "bytes" FROM "Agent"`,
      [],
    ),
    sql.one(`SELECT COUNT(*) AS "n" FROM "Email"`, []),
    sql.one(`SELECT COALESCE(SUM("count"), 0) AS "n" FROM "SendCounter" WHERE "day" = ?`, [utcDay(clock.now())]),
  ]);
  return {
    agents: Number(agents?.agents),
    verified: Number(agents?.verified),
    emails: Number(emails?.n),
    bytes: Number(agents?.bytes),
    sendsToday: Number(sends?.n),
  };
}
