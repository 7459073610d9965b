import { randomBytes, randomUUID } from "node:crypto";
import type { Config } from "../config.ts";
import type { Store } from "../db/client.ts";
import {
  activeKeyOf,
  changeDomainOpen,
  compactKeys,
  type DkimKey,
  type DomainWithKeys,
  deleteDomainWithoutAgents,
  domainByName,
  domainExists,
  domainNames,
  domainsWithKeys,
  eraseRetiredKeys,
  insertDomain,
  insertKey,
  keysInTheClear,
  openToRegistration,
  pendingKeys,
  promoteKey,
  retireKey,
  saveCheck,
  sealKey,
  settleAgentDomains,
} from "../db/domains.ts";
import { excerpt, ServiceError } from "../errors.ts";
import { isDomainName } from "../outbound/address.ts";
import { newDkimKey, type SigningKey } from "../outbound/dkim.ts";
import { type RecordLookup, recordLookup } from "../outbound/dns-records.ts";
import { seal, unseal } from "../secrets.ts";
import type { Creator } from "./agents.ts";
import type { Services } from "./services.ts";

// The domains the instance serves: those of MAIL_DOMAINS, made at start, and
// those the operator adds. Agents register themselves on MAIL_DOMAINS' and on
// those the operator opened; the operator creates agents on any. Each has
// DKIM keys kept in the database, so every instance signs with the same one,
// and the DNS records to publish, which verify checks. The private key leaves
// the store only to sign.

export interface DnsRecord {
  type: "MX" | "TXT";
  name: string;
  value: string;
  purpose: string;
}

export interface RecordCheck extends DnsRecord {
  status: "ok" | "missing" | "wrong";
  /** What DNS holds there, of the record's kind. */
  found: string[];
}

/** A domain as the operator sees it: never its private keys. */
export interface DomainView {
  name: string;
  /** config (one of MAIL_DOMAINS) or operator (added through the admin API). */
  source: "config" | "operator";
  /** Agents may register on it themselves: always for MAIL_DOMAINS', once the operator opened it for the others. */
  open: boolean;
  createdAt: Date;
  /** What to publish. */
  records: DnsRecord[];
  /** Records of retired keys, which may be removed. */
  removable: DnsRecord[];
  /** The selector mail is signed with. */
  selector: string | null;
  lastCheck: { checkedAt: Date; records: RecordCheck[] } | null;
}

const notFound = (name: string) => new ServiceError("NOT_FOUND", `Domain ${excerpt(name)} is not served here`);

/** Every domain the instance serves, the default (first of MAIL_DOMAINS) first. */
export async function servedDomains(services: Services): Promise<string[]> {
  const added = (await domainNames(services)).map(({ name }) => name);
  return [...new Set([...services.config.mailDomains, ...added])];
}

/** The domains agents may register on themselves, the default first. */
export async function openDomains(services: Services): Promise<string[]> {
  const opened = (await domainNames(services, { open: true })).map(({ name }) => name);
  return [...new Set([...services.config.mailDomains, ...opened])];
}

/** Whether the instance takes mail for the domain: one of MAIL_DOMAINS (no read), or one added since. */
export async function serves(services: Services, domain: string): Promise<boolean> {
  return services.config.mailDomains.includes(domain) || (await domainExists(services, domain));
}

/** A domain name as given, the one way it is compared: lower case, without a final dot. */
export const normalised = (name: string) => name.trim().toLowerCase().replace(/\.$/, "");

/** The domain a new agent's address is at: the default, one open to registration, or (for the operator) any served. */
export async function checkedDomain(
  services: Services,
  domain: string | null | undefined,
  by: Creator,
): Promise<string> {
  const { config } = services;
  if (domain == null) return config.mailDomain;
  const name = normalised(domain);
  const given = JSON.stringify(excerpt(domain));
  if (config.mailDomains.includes(name)) return name;
  const open = await openToRegistration(services, name);
  if (open === null) throw new ServiceError("BAD_REQUEST", `domain: ${given} is not served here (GET /domains)`);
  if (!open && by === "self") {
    throw new ServiceError(
      "BAD_REQUEST",
      `domain: ${given} is closed to registration: only the operator creates agents there (GET /domains lists the open ones)`,
    );
  }
  return name;
}

/** A selector of its own for each key: the date it was made, and a random tail. */
function newSelector(now: Date): string {
  return `ph${now.toISOString().slice(0, 10).replace(/-/g, "")}${randomBytes(2).toString("hex")}`;
}

async function newKey(config: Config, domainName: string, state: string, now: Date): Promise<DkimKey> {
  const { privateKey, publicKey } = await newDkimKey();
  const selector = newSelector(now);
  return {
    id: randomUUID(),
    domainName,
    selector,
    publicKey,
    privateKey: seal(privateKey, config.secretsKey),
    state,
    createdAt: now,
  };
}

/** A domain and its first key, unless it is served already (null). */
async function makeDomain(services: Services, name: string, open: boolean): Promise<DomainWithKeys | null> {
  const now = services.clock.now();
  const key = await newKey(services.config, name, "active", now);
  return insertDomain(services, { name, createdAt: now, open }, key);
}

/**
 * At start: each domain of MAIL_DOMAINS has its row and a key (the first
 * instance to start makes them); agents made before domains keep their
 * address at the default; and with SECRETS_KEY, keys stored in the clear
 * before it was set are sealed.
 */
export async function ensureConfiguredDomains(services: Services): Promise<void> {
  const { config } = services;
  const known = new Set((await domainNames(services)).map(({ name }) => name));
  for (const name of config.mailDomains) {
    if (!known.has(name)) await makeDomain(services, name, false);
  }
  await settleAgentDomains(services, config.mailDomain);
  if (config.secretsKey !== null) await sealKeysInTheClear(services, config.secretsKey);
}

/**
 * Keys stored in the clear were readable by whoever could read the database,
 * and may be still (a copy, a backup): each is sealed or dropped, and none is
 * trusted longer than it must be. A signing key is sealed in place and goes
 * on signing, so that mail keeps passing DKIM, until a new sealed key takes
 * over: pending until the operator publishes its record and verify finds it.
 * A pending key is retired. Retired keys' private keys are erased. Then the
 * database is compacted, so that no readable copy stays in its files.
 */
async function sealKeysInTheClear(services: Services, secretsKey: Buffer): Promise<void> {
  const clear = await keysInTheClear(services);
  if (clear.length === 0) return;
  const exposed: DkimKey[] = [];
  const detail = "it was stored in the clear";
  // Of two instances starting together, the one whose change lands goes on with the key.
  for (const key of clear) {
    if (key.state === "active") {
      if (await sealKey(services, key, seal(key.privateKey, secretsKey))) exposed.push(key);
    } else if ((await retireKey(services, key)) && key.state === "pending") {
      services.log("warn", "dkim_key_exposed", {
        domain: key.domainName,
        selector: key.selector,
        detail: `${detail}, not signing yet: retired`,
      });
    }
  }
  await eraseRetiredKeys(services);
  const compacted = await compactKeys(services);
  if (!compacted) services.log("warn", "database_log_not_emptied", { reason: "a reader held old copies open" });
  for (const key of exposed) {
    const next = (await rotateDkim(services, key.domainName, false)).records.find(
      (record) => record.purpose === DKIM_PURPOSES.pending,
    );
    services.log("warn", "dkim_key_exposed", {
      domain: key.domainName,
      selector: key.selector,
      next: next?.name ?? null,
      detail: `${detail}, and signs until the next key's record is published and verify finds it`,
    });
  }
}

/**
 * The operator adds a domain: served at once, with a fresh DKIM key and the
 * records to publish; closed to registration unless `open`.
 */
export async function addDomain(services: Services, name: string, open: boolean): Promise<DomainView> {
  const domain = normalised(name);
  if (!isDomainName(domain)) {
    throw new ServiceError("BAD_REQUEST", `name: ${JSON.stringify(excerpt(name))} is not a domain name`);
  }
  const made = await makeDomain(services, domain, open);
  if (!made) throw new ServiceError("CONFLICT", `Domain ${domain} is served already`);
  return viewOf(services.config, made);
}

/** Opens an operator's domain to registration, or closes it (agents already there stay); MAIL_DOMAINS' are open. */
export async function setDomainOpen(services: Services, name: string, open: boolean): Promise<DomainView> {
  const domain = await findDomain(services, name);
  if (services.config.mailDomains.includes(domain.name)) {
    throw new ServiceError(
      "BAD_REQUEST",
      `${domain.name} is served by MAIL_DOMAINS, which are always open to registration: remove it there to close it`,
    );
  }
  if (!(await changeDomainOpen(services, domain.name, open))) throw notFound(name);
  return getDomain(services, domain.name);
}

export async function listDomains(services: Services): Promise<DomainView[]> {
  return (await domainsWithKeys(services)).map((domain) => viewOf(services.config, domain));
}

async function findDomain(services: Services, name: string): Promise<DomainWithKeys> {
  const domain = await domainByName(services, normalised(name));
  if (!domain) throw notFound(name);
  return domain;
}

export async function getDomain(services: Services, name: string): Promise<DomainView> {
  return viewOf(services.config, await findDomain(services, name));
}

/** Stops serving an operator's domain; refused while agents have addresses there, and for MAIL_DOMAINS'. */
export async function deleteDomain(services: Services, name: string): Promise<{ success: boolean; message: string }> {
  const domain = await findDomain(services, name);
  if (services.config.mailDomains.includes(domain.name)) {
    throw new ServiceError("BAD_REQUEST", `${domain.name} is served by MAIL_DOMAINS: remove it there`);
  }
  const agents = await deleteDomainWithoutAgents(services, domain.name);
  if (agents === null) throw notFound(name);
  if (agents > 0) throw new ServiceError("BAD_REQUEST", `${agents} agents have their address at ${domain.name}`);
  return { success: true, message: "Domain deleted" };
}

const dkimName = (key: Pick<DkimKey, "selector" | "domainName">) => `${key.selector}._domainkey.${key.domainName}`;
const dkimValue = (key: DkimKey) => `v=DKIM1; k=rsa; p=${key.publicKey}`;

const DKIM_PURPOSES: Record<string, string> = {
  active: "DKIM: the key mail from the domain is signed with",
  pending: "DKIM: the next key; publish it, then verify: signing moves to it once it is found",
  retired: "DKIM: a retired key; keep its record a few days for mail already signed with it, then remove it",
};

function dkimRecord(key: DkimKey): DnsRecord {
  return { type: "TXT", name: dkimName(key), value: dkimValue(key), purpose: DKIM_PURPOSES[key.state] as string };
}

/** The records to publish for a domain: MX, SPF, its DKIM keys in use, a DMARC suggestion. */
function recordsOf(config: Config, domain: DomainWithKeys): DnsRecord[] {
  const spf = config.spfInclude ? `include:${config.spfInclude}` : `a:${config.mxHost}`;
  return [
    { type: "MX", name: domain.name, value: `10 ${config.mxHost}`, purpose: "Where mail to the domain is delivered" },
    { type: "TXT", name: domain.name, value: `v=spf1 ${spf} ~all`, purpose: "SPF: who may send mail from the domain" },
    ...domain.dkimKeys.filter((key) => key.state !== "retired").map(dkimRecord),
    {
      type: "TXT",
      name: `_dmarc.${domain.name}`,
      value: `v=DMARC1; p=none; rua=mailto:dmarc-reports@${domain.name}`,
      purpose: "DMARC, a suggestion: p=none reports without refusing; tighten it once reports look right",
    },
  ];
}

function viewOf(config: Config, domain: DomainWithKeys): DomainView {
  const active = domain.dkimKeys.filter((key) => key.state === "active").at(-1);
  return {
    name: domain.name,
    source: config.mailDomains.includes(domain.name) ? "config" : "operator",
    open: config.mailDomains.includes(domain.name) || domain.open,
    createdAt: domain.createdAt,
    records: recordsOf(config, domain),
    removable: domain.dkimKeys.filter((key) => key.state === "retired").map(dkimRecord),
    selector: active?.selector ?? null,
    lastCheck:
      domain.checkedAt && domain.lastCheck
        ? { checkedAt: domain.checkedAt, records: domain.lastCheck as unknown as RecordCheck[] }
        : null,
  };
}

/** The records as a zone file's lines. */
export async function zoneOf(services: Services, name: string): Promise<string> {
  const view = await getDomain(services, name);
  const line = (record: DnsRecord) => {
    const value = record.type === "TXT" ? `"${record.value.match(/.{1,255}/g)?.join('" "')}"` : record.value;
    return `; ${record.purpose}\n${record.name}. 3600 IN ${record.type} ${record.type === "MX" ? `${value}.` : value}`;
  };
  return `; DNS records for ${view.name}\n${view.records.map(line).join("\n")}\n`;
}

/** A record's tags (DKIM, DMARC) by name, values without spaces. */
function tagsOf(text: string): Map<string, string> {
  return new Map(
    text.split(";").map((tag) => {
      const [name = "", ...value] = tag.split("=");
      return [name.trim().toLowerCase(), value.join("=").replace(/\s+/g, "")] as const;
    }),
  );
}

const judged = (record: DnsRecord, found: string[], ok: boolean): RecordCheck => ({
  ...record,
  status: found.length === 0 ? "missing" : ok ? "ok" : "wrong",
  found,
});

/** An MX of the name points at MX_HOST. */
async function checkMx(dns: RecordLookup, record: DnsRecord): Promise<RecordCheck> {
  const found = await dns.mx(record.name);
  const host = record.value.split(" ")[1];
  return judged(
    record,
    found,
    found.some((mx) => mx.split(" ")[1]?.replace(/\.$/, "") === host),
  );
}

/** One SPF record (two are an error at receivers), naming our include or a: among its terms. */
async function checkSpf(dns: RecordLookup, record: DnsRecord): Promise<RecordCheck> {
  const found = (await dns.txt(record.name)).filter((text) => /^v=spf1(\s|$)/i.test(text.trim()));
  const term = record.value.split(" ")[1]?.toLowerCase();
  const terms = (text: string) => text.trim().toLowerCase().split(/\s+/);
  return judged(record, found, found.length === 1 && terms(found[0] as string).includes(term as string));
}

/** The key's record carries exactly its public key. */
async function checkDkim(dns: RecordLookup, record: DnsRecord): Promise<RecordCheck> {
  const found = await dns.txt(record.name);
  const key = tagsOf(record.value).get("p");
  return judged(
    record,
    found,
    found.some((text) => tagsOf(text).get("p") === key),
  );
}

/** One DMARC record: its policy is the operator's. */
async function checkDmarc(dns: RecordLookup, record: DnsRecord): Promise<RecordCheck> {
  const found = (await dns.txt(record.name)).filter((text) => /^v=DMARC1\s*(;|$)/i.test(text.trim()));
  return judged(record, found, found.length === 1);
}

/** What DNS holds for one record, against what it should. */
function checkRecord(dns: RecordLookup, record: DnsRecord): Promise<RecordCheck> {
  if (record.type === "MX") return checkMx(dns, record);
  if (record.name.startsWith("_dmarc.")) return checkDmarc(dns, record);
  return record.name.includes("._domainkey.") ? checkDkim(dns, record) : checkSpf(dns, record);
}

/** What DNS holds for a served domain's MX, SPF and signing key records; null when the name is not one DNS can hold (localhost). */
export interface PublishedRecords {
  domain: string;
  checks: RecordCheck[] | null;
}

/**
 * Asks DNS, through DNS_SERVERS or the system's resolvers, for the records
 * mail to and from each served domain needs (MX, SPF, the active DKIM key),
 * for doctor; nothing is saved and no key moves (verifyDomain does that).
 */
export async function publishedRecords(store: Store, config: Config): Promise<PublishedRecords[]> {
  const dns = recordLookup(config.dnsServers);
  const needed = (domain: DomainWithKeys) => {
    const [mx, spf] = recordsOf(config, domain);
    const active = domain.dkimKeys.filter((key) => key.state === "active").map(dkimRecord);
    return [mx, spf, ...active].filter((record) => record !== undefined);
  };
  return Promise.all(
    (await domainsWithKeys(store)).map(async (domain) => ({
      domain: domain.name,
      checks: isDomainName(domain.name)
        ? await Promise.all(needed(domain).map((record) => checkRecord(dns, record)))
        : null,
    })),
  );
}

/**
 * Asks DNS for each record and says what it found. A pending key found
 * published takes over signing (its predecessor retired, its record removable).
 */
export async function verifyDomain(services: Services, name: string): Promise<DomainView> {
  const domain = await findDomain(services, name);
  const dns = recordLookup(services.config.dnsServers);
  let checks: RecordCheck[];
  try {
    checks = await Promise.all(recordsOf(services.config, domain).map((record) => checkRecord(dns, record)));
  } catch (error) {
    // DNS not answering (a timeout, a refusal) is the moment's; anything else is ours.
    if (typeof (error as { code?: unknown }).code !== "string") throw error;
    throw new ServiceError("SERVICE_UNAVAILABLE", "DNS could not be asked just now: try again");
  }
  await saveCheck(services, domain.name, checks, services.clock.now());
  for (const key of domain.dkimKeys.filter((key) => key.state === "pending")) {
    if (checks.some((check) => check.name === dkimName(key) && check.status === "ok")) await promoteKey(services, key);
  }
  return getDomain(services, domain.name);
}

/**
 * A new DKIM key under a new selector: published next, signing moves to it
 * when verify finds it (at once with `now`). One pending key at a time.
 */
export async function rotateDkim(services: Services, name: string, now: boolean): Promise<DomainView> {
  const domain = await findDomain(services, name);
  const pending = domain.dkimKeys.find((key) => key.state === "pending");
  const key = pending ?? (await newKey(services.config, domain.name, "pending", services.clock.now()));
  if (!pending) await insertKey(services, key);
  if (now) await promoteKey(services, key);
  return getDomain(services, domain.name);
}

/** The DKIM records of keys that wait to be published before signing moves to them. */
export async function recordsToPublish(store: Store): Promise<{ domain: string; name: string }[]> {
  return (await pendingKeys(store)).map((key) => ({ domain: key.domainName, name: dkimName(key) }));
}

/** The key to sign the agent's mail with, or null (a domain with no key, or a key sealed with another SECRETS_KEY). */
export async function signingKeyFor(services: Services, domainName: string): Promise<SigningKey | null> {
  const key = await activeKeyOf(services, domainName);
  if (!key?.privateKey) return null;
  try {
    return { domainName, keySelector: key.selector, privateKey: unseal(key.privateKey, services.config.secretsKey) };
  } catch {
    services.log("error", "dkim_key_unreadable", { domain: domainName, selector: key.selector });
    return null;
  }
}
