import type { Config } from "../config.ts";
import {
  type AgentQuery,
  agentById,
  deleteAgentRow,
  insertAgent,
  type Recipient,
  recipientByIdKey,
  replaceKeyHash,
} from "../db/agents.ts";
import type { Tx } from "../db/statements.ts";
import { excerpt, ServiceError } from "../errors.ts";
import type { Prisma } from "../generated/prisma/sqlite/client.ts";
import { checkedDomain } from "./domains.ts";
import { newApiKey, newClaimToken } from "./keys.ts";
import { expiryCutoff } from "./lifetimes.ts";
import { type AgentRecord, addressParts } from "./records.ts";
import type { Services } from "./services.ts";

// Agents and their keys: registration, rotation and deletion.

const AGENT_ID = /^[A-Za-z0-9_-]{1,64}$/;
/** RFC 2142 mailbox names: they belong to the domain's operator, not to an agent. */
/** Mailboxes of the domain's operator, dmarc-reports among them (the DMARC record suggested sends reports there). */
const ROLE_NAMES = new Set([
  "postmaster",
  "abuse",
  "hostmaster",
  "webmaster",
  "mailer-daemon",
  "noc",
  "security",
  "dmarc-reports",
]);
const NAME_MAX = 128;
/** A name is the display name of sent mail: it may not look like an address. */
const NAME_FORBIDDEN = /[<>@]/;
const METADATA_MAX_BYTES = 16 * 1024;
/** The metadata object itself is the first level. */
const METADATA_MAX_DEPTH = 10;

export interface NewAgent {
  id: string;
  name: string;
  metadata?: Record<string, unknown> | null;
  /** One of the served domains; the default when left out. */
  domain?: string | null;
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
  const agent = await recipientByIdKey(tx, local);
  return agent && domainOf(agent, config) === domain ? agent : null;
}

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

function validated(input: NewAgent): { id: string; name: string; metadata?: Prisma.InputJsonObject } {
  const bad = (message: string) => new ServiceError("BAD_REQUEST", message);
  if (!AGENT_ID.test(input.id)) throw bad("id must be 1-64 characters: letters, digits, dashes and underscores");
  if (ROLE_NAMES.has(input.id.toLowerCase())) throw bad(`id ${input.id} is a reserved mailbox name`);
  const name = input.name.trim();
  if ([...name].length < 1 || [...name].length > NAME_MAX) throw bad(`name must be 1-${NAME_MAX} characters`);
  if (NAME_FORBIDDEN.test(name)) throw bad("name must not contain <, > or @: it is the display name of sent mail");
  const metadata = (input.metadata ?? undefined) as Prisma.InputJsonObject | undefined;
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

function instructionFor(address: string, verifyUrl: string, config: Config): string {
  const before = `Welcome! Your agent's mailbox is ${address}.`;
  const deadline = "within 24 hours; unverified agents are deleted after that.";
  switch (config.verificationMode) {
    case "none":
      return `${before} This instance verifies every agent at registration (VERIFICATION_MODE=none): it can receive and send mail now. ${KEEP_KEY}`;
    case "admin":
      return [
        `${before} Before it can receive or send mail, the operator of this instance must verify it ${deadline}`,
        "Ask your human to have the operator verify it (VERIFICATION_MODE=admin); the social verification flow is off.",
        `GET ${config.publicUrl}/verify/status tells when it is done. ${KEEP_KEY}`,
      ].join(" ");
    case "social":
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
}

export async function createAgent(services: Services, input: NewAgent): Promise<Registration> {
  const { clock, config } = services;
  const { id, name, metadata } = validated(input);
  const domain = await checkedDomain(services, input.domain);
  const now = clock.now();
  const { apiKey, apiKeyHash } = newApiKey(config);
  const { claimToken, claimTokenHash } = newClaimToken();
  // With VERIFICATION_MODE=none nobody verifies: the agent is verified as it is made.
  const verified = config.verificationMode === "none" ? { verifiedAt: now, verifiedBy: "none" } : {};
  const row = {
    id,
    idKey: id.toLowerCase(),
    name,
    metadata,
    domain,
    apiKeyHash,
    claimTokenHash,
    createdAt: now,
    ...verified,
  };
  const agent = await insertAgent(services, row, expiryCutoff(now));
  if (!agent) throw new ServiceError("CONFLICT", `Agent id ${excerpt(id)} is already taken`);
  const verifyUrl = `${config.publicUrl}/verify/${claimToken}`;
  return { agent, apiKey, verifyUrl, instruction: instructionFor(addressOf(agent, config), verifyUrl, config) };
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
