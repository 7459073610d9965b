import type { Config } from "../config.ts";
import {
  type AgentQuery,
  agentById,
  agentsByIdKeys,
  deleteAgentRow,
  insertAgent,
  type Recipient,
  recipientByIdKey,
  recipientsByIdKeys,
  replaceKeyHash,
} from "../db/agents.ts";
import type { Store } from "../db/client.ts";
import { placementAt } from "../db/pods.ts";
import type { Tx } from "../db/statements.ts";
import { excerpt, ServiceError } from "../errors.ts";
import type { Prisma } from "../generated/prisma/sqlite/client.ts";
import { checkedDomain, normalised } from "./domains.ts";
import { newApiKey, newClaimToken } from "./keys.ts";
import { expiryCutoff, UNVERIFIED_LIFETIME_HOURS } from "./lifetimes.ts";
import { assertPlaced, findPod } from "./pods.ts";
import { type AgentRecord, addressParts } from "./records.ts";
import type { Services } from "./services.ts";

// Agents and their keys: registration, rotation and deletion.

export const AGENT_ID_MAX_LENGTH = 64;
const AGENT_ID = new RegExp(`^[A-Za-z0-9_-]{1,${AGENT_ID_MAX_LENGTH}}$`);

const CERTIFICATES =
  "certificate authorities mail it to prove control of a domain (CA/Browser Forum Baseline Requirements 3.2.2.4.4)";
const RFC_2142 = "RFC 2142 gives it to the domain's operator";
const SYSTEM = "mail systems send and receive their own mail there";
/**
 * Local parts that belong to the operator of whichever domain an agent is
 * at, each with the rule that reserves it: an agent holding one would receive
 * what is meant for the operator. Only the operator creates agents with them.
 */
const RESERVED = new Map<string, string>([
  ...["info", "marketing", "sales", "support", "abuse", "noc", "security", "usenet", "news", "www", "uucp", "ftp"].map(
    (name) => [name, RFC_2142] as const,
  ),
  ...["admin", "administrator", "webmaster", "hostmaster", "postmaster"].map((name) => [name, CERTIFICATES] as const),
  ["ssl-admin", "certificate authorities have mailed it to prove control of a domain"],
  ["billing", "a domain's invoices and payment notices go there"],
  ...["root", "mailer-daemon", "noreply", "no-reply"].map((name) => [name, SYSTEM] as const),
  ["bounces", "sent mail's bounces come back there (bounces+<token>@<domain>)"],
  ["dmarc-reports", "DMARC reports come there (the DMARC record suggested for each domain)"],
]);

/** Why the id is reserved, or null when it is not: ids compare without case. */
export function reservedBecause(id: string, config: Config): string | null {
  const key = id.toLowerCase();
  if (config.reservedLocalParts.includes(key)) return "the operator reserved it (RESERVED_LOCAL_PARTS)";
  return RESERVED.get(key) ?? null;
}

/** Every reserved id, in lower case. */
export const reservedIds = (config: Config): string[] => [
  ...new Set([...RESERVED.keys(), ...config.reservedLocalParts]),
];

const NAME_MAX = 128;
/** A name is the display name of sent mail: it may not look like an address. */
const NAME_FORBIDDEN = /[<>@]/;
const METADATA_MAX_BYTES = 16 * 1024;
/** The metadata object itself is the first level. */
const METADATA_MAX_DEPTH = 10;

/** Who creates an agent: the agent itself (registration), the operator (admin API, CLI), or a key of its pod. */
export type Creator = "self" | "operator" | "pod";

export interface NewAgent {
  id: string;
  name: string;
  metadata?: Record<string, unknown> | null;
  /** One of the served domains; the default (or its pod's first) when left out. */
  domain?: string | null;
  /** The pod it belongs to; none when left out. */
  podId?: string | null;
}

export interface Registration {
  agent: AgentRecord;
  /** Shown only now. */
  apiKey: string;
  /** The page where a person verifies the agent: PUBLIC_URL/verify/<claim token>. */
  verifyUrl: string;
  instruction: string;
}

export function addressOf(agent: { id: string; domain: string | null }, config: Config): string {
  return `${agent.id}@${domainOf(agent, config)}`;
}

/** The domain of the agent's address: its own, or (made before domains) the default. */
export function domainOf(agent: { domain: string | null }, config: Config): string {
  return agent.domain ?? config.mailDomain;
}

/** The agent whose address this is, or null: scout@b.example is scout's only when scout's address is at b.example. */
export async function recipientAt(tx: Tx, config: Config, address: string): Promise<Recipient | null> {
  const { local, domain } = addressParts(address);
  return atDomain(await recipientByIdKey(tx, local), config, domain);
}

/** The agent whose address each is, as recipientAt finds it, all read in one statement. */
export async function recipientsAt(tx: Tx, config: Config, addresses: readonly string[]) {
  const parts = addresses.map(addressParts);
  const agents = await recipientsByIdKeys(tx, [...new Set(parts.map(({ local }) => local))]);
  return new Map(
    parts.map(({ local, domain }, n) => [addresses[n] as string, atDomain(agents.get(local) ?? null, config, domain)]),
  );
}

/** The agent if its address is at the domain. */
const atDomain = (agent: Recipient | null, config: Config, domain: string) =>
  agent && domainOf(agent, config) === domain ? agent : null;

/** How deep arrays and objects nest in a JSON value: 0 for a scalar. */
export function jsonDepth(value: unknown): number {
  let deepest = 0;
  const stack: [unknown, number][] = [[value, 0]];
  for (let item = stack.pop(); item; item = stack.pop()) {
    const [current, depth] = item;
    if (typeof current !== "object" || current === null) continue;
    deepest = Math.max(deepest, depth + 1);
    for (const child of Object.values(current)) stack.push([child, depth + 1]);
  }
  return deepest;
}

function validated(input: NewAgent, by: Creator, config: Config) {
  const bad = (message: string) => new ServiceError("BAD_REQUEST", message);
  if (!AGENT_ID.test(input.id))
    throw bad(`id must be 1-${AGENT_ID_MAX_LENGTH} characters: letters, digits, dashes and underscores`);
  const reserved = reservedBecause(input.id, config);
  if (reserved && by !== "operator") {
    throw bad(`id ${input.id} is reserved on every domain: ${reserved}. Only the operator creates an agent with it`);
  }
  const name = input.name.trim();
  if ([...name].length < 1 || [...name].length > NAME_MAX) throw bad(`name must be 1-${NAME_MAX} characters`);
  if (NAME_FORBIDDEN.test(name)) throw bad("name must not contain <, > or @: it is the display name of sent mail");
  const metadata = (input.metadata ?? undefined) as Prisma.JsonObject | undefined;
  if (metadata && jsonDepth(metadata) > METADATA_MAX_DEPTH) {
    throw bad(`metadata must nest at most ${METADATA_MAX_DEPTH} levels`);
  }
  if (metadata && Buffer.byteLength(JSON.stringify(metadata)) > METADATA_MAX_BYTES) {
    throw bad(`metadata must be at most ${METADATA_MAX_BYTES} bytes as JSON`);
  }
  return { id: input.id, name, metadata };
}

const KEEP_KEY =
  "Keep your API key safe: it is shown only once. POST /agents/{agentId}/rotate-key replaces it, with the current key; a lost key can only be replaced by the instance's operator.";

function instructionFor(address: string, verifyUrl: string, verifiedBy: string | null, config: Config): string {
  const before = `Welcome! Your agent's mailbox is ${address}.`;
  const deadline = `within ${UNVERIFIED_LIFETIME_HOURS} hours; unverified agents are deleted after that.`;
  switch (verifiedBy) {
    case "admin":
      return `${before} The operator of this instance created it, verified: it can receive and send mail now. ${KEEP_KEY}`;
    case "pod":
      return `${before} A key of its verified pod created it, verified: it can receive and send mail now. ${KEEP_KEY}`;
    case "none":
      return `${before} This instance verifies every agent at registration (VERIFICATION_MODE=none): it can receive and send mail now. ${KEEP_KEY}`;
  }
  if (config.verificationMode === "admin") {
    return [
      `${before} Before it can receive or send mail, the operator of this instance must verify it ${deadline}`,
      "Ask your human to have the operator verify it (VERIFICATION_MODE=admin); the social verification flow is off.",
      `GET ${config.publicUrl}/verify/status tells when it is done. ${KEEP_KEY}`,
    ].join(" ");
  }
  return [
    `${before} Before it can receive or send mail, a human must verify it ${deadline}`,
    `Give your human this link: ${verifyUrl} . It opens a page that walks them through posting on X and checks the post;`,
    "it can verify only this agent, so it is safe to share with them (never share your API key). Or do it over the API:",
    `1. Call POST ${config.publicUrl}/verify/start with your API key to get a verification code and a ready-made post.`,
    `2. Publish that post on X from a public account: it must mention @${config.socialHandle} and contain the code.`,
    `3. Call POST ${config.publicUrl}/verify/complete with {"tweetUrl": "<the post's URL>"}.`,
    KEEP_KEY,
  ].join(" ");
}

/**
 * How an agent is verified as it is made: by the operator who made it, or by
 * nobody (VERIFICATION_MODE=none); else it waits to be verified. One a key of
 * a verified pod makes is verified with the pod instead, as the pod is when
 * the agent is inserted (insertAgent), whatever the pod's verification does
 * meanwhile.
 */
function verifiedAtCreation(by: Creator, config: Config, now: Date) {
  if (by === "operator") return { verifiedAt: now, verifiedBy: "admin" };
  return config.verificationMode === "none" ? { verifiedAt: now, verifiedBy: "none" } : {};
}

/**
 * A new agent. It registers itself with an id that is not reserved, on a
 * domain open to registration; the operator may use any id and any served
 * domain, and the agent is verified as it is made; a key of a pod makes it in
 * the pod, with an id that is not reserved, on the pod's domain, verified
 * when the pod is.
 */
export async function createAgent(services: Services, input: NewAgent, by: Creator): Promise<Registration> {
  const { clock, config } = services;
  const { id, name, metadata } = validated(input, by, config);
  const pod = input.podId == null ? null : await findPod(services, input.podId);
  const given = input.domain == null ? (pod?.domains[0] ?? config.mailDomain) : normalised(input.domain);
  const placement = await placementAt(services.sql, pod?.id ?? null, given);
  assertPlaced(pod?.id ?? null, given, placement);
  // A pod's agents are made by the operator (or the pod's keys) on its domains, open to registration or not.
  const domain = await checkedDomain(services, given, pod ? "operator" : by);
  const now = clock.now();
  const { apiKey, apiKeyHash } = newApiKey(config);
  const { claimToken, claimTokenHash } = newClaimToken();
  const row = {
    id,
    idKey: id.toLowerCase(),
    name,
    metadata: metadata ?? null,
    domain,
    podId: pod?.id ?? null,
    apiKeyHash,
    claimTokenHash,
    createdAt: now,
    createdBy: by,
    ...verifiedAtCreation(by, config, now),
  };
  const agent = await insertAgent(services, row, {
    configured: config.mailDomains.includes(domain),
    cutoff: expiryCutoff(now),
    withPod: by === "pod",
    placement,
  });
  if (agent === "taken") throw new ServiceError("CONFLICT", `Agent id ${excerpt(id)} is already taken`);
  if (agent === "unserved") throw new ServiceError("BAD_REQUEST", `domain: ${domain} is no longer served here`);
  if (agent === "moved") throw new ServiceError("CONFLICT", `The pods or domains changed meanwhile: try again`);
  const verifyUrl = `${config.publicUrl}/verify/${claimToken}`;
  const instruction = instructionFor(addressOf(agent, config), verifyUrl, agent.verifiedBy, config);
  return { agent, apiKey, verifyUrl, instruction };
}

export interface ReservedHolder {
  id: string;
  email: string;
  /** The rule that reserves its id. */
  reason: string;
}

/** Agents that registered themselves with an id reserved since, for the operator to look at: never deleted. */
export async function selfRegisteredReserved(store: Store, config: Config): Promise<ReservedHolder[]> {
  const agents = await agentsByIdKeys(store, reservedIds(config), "self");
  return agents.map((agent) => ({
    id: agent.id,
    email: addressOf(agent, config),
    reason: reservedBecause(agent.id, config) as string,
  }));
}

/**
 * The caller's agent, loaded with what the selection plans beneath it: the
 * row its key was looked up by serves when the selection needs no relation.
 */
export async function agentWith(services: Services, agent: AgentRecord, query: AgentQuery): Promise<AgentRecord> {
  const relations = "select" in query ? query.select : "include" in query ? query.include : undefined;
  if (!relations || Object.keys(relations).length === 0) return agent;
  const found = await agentById(services, agent.id, query);
  if (!found) throw new ServiceError("NOT_FOUND", `Agent ${agent.id} not found`);
  return found;
}

/** A new key; the current one stops working at once. Of two rotations with one key, only the first wins. */
export async function rotateKey(services: Services, agent: AgentRecord): Promise<{ apiKey: string; message: string }> {
  const { apiKey, apiKeyHash } = newApiKey(services.config);
  if (!(await replaceKeyHash(services, agent.id, agent.apiKeyHash, apiKeyHash)))
    throw new ServiceError("UNAUTHORIZED", "API key is invalid");
  return { apiKey, message: "API key rotated. The previous key no longer works; store this one safely." };
}

export interface Outcome {
  success: boolean;
  message: string;
}

/** The agent with all its mail and data, for good. */
export async function deleteAgent(services: Services, agent: AgentRecord): Promise<Outcome> {
  if (!(await deleteAgentRow(services, agent.id))) throw new ServiceError("NOT_FOUND", `Agent ${agent.id} not found`);
  return { success: true, message: `Agent ${agent.id} and all its data were deleted permanently` };
}
