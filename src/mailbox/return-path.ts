import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import { ConfigError } from "../config.ts";
import type { Recipient } from "../db/agents.ts";
import { ensureInstanceSecret, replaceInstanceSecret } from "../db/instance-secrets.ts";
import { agentOfSent } from "../db/sent.ts";
import type { Sql } from "../db/sql.ts";
import type { Tx } from "../db/statements.ts";
import { SEALED, seal, unseal } from "../secrets.ts";
import { recipientAt, recipientsAt } from "./agents.ts";
import { addressParts } from "./records.ts";
import type { Services } from "./services.ts";

// Return paths (VERP): every sent message's envelope sender is an address of
// its own, bounces+<sent email id>.<MAC>@<the agent's domain>, so that a
// delivery report proves which sent email it is about by where it arrives.
// The MAC is HMAC-SHA-256 of the id, cut to 16 hex digits (64 bits), under a
// key every instance on the database shares: made by the first to start,
// sealed with SECRETS_KEY when that is set. Agent ids have no `+`, so no
// return path is an agent's address; the local part keeps within RFC 5321's
// 64 characters (8 + 36 + 1 + 16).

const SECRET_NAME = "return-path";
const LOCAL_PREFIX = "bounces+";
const MAC_DIGITS = 16;

/** Each database's key, read once. */
const keys = new WeakMap<Sql, Promise<Buffer>>();

type KeyServices = Pick<Services, "sql" | "config" | "clock">;

async function loadKey({ sql, config, clock }: KeyServices): Promise<Buffer> {
  const stored = await ensureInstanceSecret(
    sql,
    SECRET_NAME,
    seal(randomBytes(32).toString("base64"), config.secretsKey),
    clock.now(),
  );
  let text: string;
  try {
    text = unseal(stored, config.secretsKey);
  } catch {
    throw new ConfigError(
      "SECRETS_KEY must be the key the instance's return-path key was sealed with, as the other instances on this database have it",
    );
  }
  // Made before SECRETS_KEY was set: sealed now, as DKIM keys are.
  if (config.secretsKey !== null && !stored.startsWith(SEALED)) {
    await replaceInstanceSecret(sql, SECRET_NAME, stored, seal(text, config.secretsKey));
  }
  return Buffer.from(text, "base64");
}

/**
 * The key return paths are signed with. The service loads it as it starts,
 * before any transaction can ask for it: the first load may write it, and a
 * write on SQLite waits for the transaction under way.
 */
export function ensureReturnPathKey(services: KeyServices): Promise<Buffer> {
  let key = keys.get(services.sql);
  if (!key) {
    key = loadKey(services);
    keys.set(services.sql, key);
  }
  return key;
}

const macOf = (key: Buffer, sentId: string) =>
  createHmac("sha256", key).update(`return-path:${sentId}`).digest("hex").slice(0, MAC_DIGITS);

/** The envelope sender of a sent email: its own return path at the agent's domain. */
export async function returnPathFor(services: KeyServices, sentId: string, domain: string): Promise<string> {
  return `${LOCAL_PREFIX}${sentId}.${macOf(await ensureReturnPathKey(services), sentId)}@${domain}`;
}

/** The sent email whose return path the address is, by its MAC alone; null for any other address. */
async function sentIdAt(services: KeyServices, address: string): Promise<string | null> {
  const { local } = addressParts(address);
  if (!local.startsWith(LOCAL_PREFIX)) return null;
  const token = local.slice(LOCAL_PREFIX.length);
  const dot = token.lastIndexOf(".");
  const sentId = token.slice(0, dot);
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(macOf(await ensureReturnPathKey(services), sentId));
  return dot > 0 && given.length === expected.length && timingSafeEqual(given, expected) ? sentId : null;
}

/** Whose mail an address takes: an agent's own address, or the return path of one of its sent emails. */
export interface Addressee {
  agent: Recipient;
  /** The sent email whose return path the address is; null for the agent's own address. */
  returnPathOf: string | null;
}

/** The addressee at an address of a served domain, or null: a return path whose email is gone takes no mail. */
export async function addresseeAt(tx: Tx, services: KeyServices, address: string): Promise<Addressee | null> {
  const sentId = await sentIdAt(services, address);
  if (sentId === null) {
    const agent = await recipientAt(tx, services.config, address);
    return agent && { agent, returnPathOf: null };
  }
  return returnPathAddressee(tx, services, address, sentId);
}

/** The agent that sent the email whose return path the address is, or null once that email is gone. */
async function returnPathAddressee(
  tx: Tx,
  services: KeyServices,
  address: string,
  sentId: string,
): Promise<Addressee | null> {
  const agentId = await agentOfSent(tx, sentId);
  // At the agent's own domain only, as its address is.
  const agent = agentId && (await recipientAt(tx, services.config, `${agentId}@${addressParts(address).domain}`));
  return agent ? { agent, returnPathOf: sentId } : null;
}

/** The addressee at each address, as addresseeAt finds it: the agents' own addresses read in one statement. */
export async function addresseesAt(
  tx: Tx,
  services: KeyServices,
  addresses: readonly string[],
): Promise<Map<string, Addressee | null>> {
  const found = new Map<string, Addressee | null>();
  const own: string[] = [];
  for (const address of addresses) {
    const sentId = await sentIdAt(services, address);
    if (sentId === null) own.push(address);
    else found.set(address, await returnPathAddressee(tx, services, address, sentId));
  }
  for (const [address, agent] of await recipientsAt(tx, services.config, own)) {
    found.set(address, agent && { agent, returnPathOf: null });
  }
  return found;
}
