import { randomBytes, randomUUID } from "node:crypto";
import type { Config } from "../config.ts";
import {
  activeKeyOf,
  agentsAt,
  type DkimKey,
  type DomainWithKeys,
  deleteDomainRow,
  domainByName,
  domainNames,
  domainsWithKeys,
  insertDomain,
  insertKey,
  promoteKey,
  saveCheck,
} from "../db/domains.ts";
import { excerpt, ServiceError } from "../errors.ts";
import { newDkimKey, type SigningKey } from "../outbound/dkim.ts";
import { type RecordLookup, recordLookup } from "../outbound/dns-records.ts";
import { seal, unseal } from "../secrets.ts";
import type { Services } from "./services.ts";

// The domains the instance serves: those of MAIL_DOMAINS, made at start, and
// those the operator adds. Each has DKIM keys kept in the database, so every
// instance signs with the same one, and the DNS records to publish, which
// verify checks. The private key leaves the store only to sign.

const HOSTNAME = /^(?=.{1,253}$)([a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)(\.[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?)+$/;

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
  source: string;
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

/** The domain an agent registers on: one served, or the default. */
export async function checkedDomain(services: Services, domain: string | null | undefined): Promise<string> {
  if (domain == null) return services.config.mailDomain;
  const name = domain.toLowerCase();
  if (!(await servedDomains(services)).includes(name)) {
    throw new ServiceError(
      "BAD_REQUEST",
      `domain: ${JSON.stringify(excerpt(domain))} is not served here (GET /domains)`,
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
async function makeDomain(services: Services, name: string, source: string): Promise<DomainWithKeys | null> {
  const now = services.clock.now();
  const key = await newKey(services.config, name, "active", now);
  return insertDomain(services, { name, source, createdAt: now, lastCheck: null, checkedAt: null }, key);
}

/** At start: each domain of MAIL_DOMAINS has its row and a key; the first instance to start makes them. */
export async function ensureConfiguredDomains(services: Services): Promise<void> {
  const known = new Set((await domainNames(services)).map(({ name }) => name));
  for (const name of services.config.mailDomains) {
    if (!known.has(name)) await makeDomain(services, name, "config");
  }
}

/** The operator adds a domain: served at once, with a fresh DKIM key and the records to publish. */
export async function addDomain(services: Services, name: string): Promise<DomainView> {
  const domain = name.trim().toLowerCase().replace(/\.$/, "");
  if (!HOSTNAME.test(domain))
    throw new ServiceError("BAD_REQUEST", `name: ${JSON.stringify(excerpt(name))} is not a domain name`);
  const made = await makeDomain(services, domain, "operator");
  if (!made) throw new ServiceError("CONFLICT", `Domain ${domain} is served already`);
  return viewOf(services.config, made);
}

export async function listDomains(services: Services): Promise<DomainView[]> {
  return (await domainsWithKeys(services)).map((domain) => viewOf(services.config, domain));
}

async function findDomain(services: Services, name: string): Promise<DomainWithKeys> {
  const domain = await domainByName(services, name.toLowerCase());
  if (!domain) throw notFound(name);
  return domain;
}

export async function getDomain(services: Services, name: string): Promise<DomainView> {
  return viewOf(services.config, await findDomain(services, name));
}

/** Stops serving an operator's domain; refused while agents have addresses there, and for MAIL_DOMAINS'. */
export async function deleteDomain(services: Services, name: string): Promise<{ success: boolean; message: string }> {
  const domain = await findDomain(services, name);
  if (domain.source === "config") {
    throw new ServiceError("BAD_REQUEST", `${domain.name} is served by MAIL_DOMAINS: remove it there`);
  }
  const agents = await agentsAt(services, domain.name);
  if (agents > 0) throw new ServiceError("BAD_REQUEST", `${agents} agents have their address at ${domain.name}`);
  if (!(await deleteDomainRow(services, domain.name))) throw notFound(name);
  return { success: true, message: "Domain deleted" };
}

const dkimName = (key: DkimKey) => `${key.selector}._domainkey.${key.domainName}`;
const dkimValue = (key: DkimKey) => `v=DKIM1; k=rsa; p=${key.publicKey}`;

function dkimRecord(key: DkimKey): DnsRecord {
  const purpose = {
    active: "DKIM: the key mail from the domain is signed with",
    pending: "DKIM: the next key; publish it, then verify: signing moves to it once it is found",
    retired: "DKIM: a key no longer used; its record may be removed",
  }[key.state];
  return { type: "TXT", name: dkimName(key), value: dkimValue(key), purpose: purpose ?? "DKIM" };
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
    source: domain.source,
    createdAt: domain.createdAt,
    records: recordsOf(config, domain),
    removable: domain.dkimKeys.filter((key) => key.state === "retired").map(dkimRecord),
    selector: active?.selector ?? null,
    lastCheck:
      domain.checkedAt && domain.lastCheck
        ? { checkedAt: domain.checkedAt, records: JSON.parse(domain.lastCheck) as RecordCheck[] }
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

const squeeze = (text: string) => text.replace(/\s+/g, "").toLowerCase();

/** What DNS holds for one record, against what it should. */
async function checkRecord(dns: RecordLookup, record: DnsRecord): Promise<RecordCheck> {
  if (record.type === "MX") {
    const found = await dns.mx(record.name);
    const host = record.value.split(" ")[1];
    const status = found.length === 0 ? "missing" : found.some((mx) => mx.split(" ")[1] === host) ? "ok" : "wrong";
    return { ...record, status, found };
  }
  const kind = /^v=(spf1|DKIM1|DMARC1)\b/i.exec(record.value)?.[1]?.toLowerCase() ?? "";
  const found = (await dns.txt(record.name)).filter(
    (text) => kind !== "dmarc1" || squeeze(text).startsWith("v=dmarc1"),
  );
  const ofKind = found.filter((text) => kind === "dkim1" || squeeze(text).startsWith(`v=${kind}`));
  if (ofKind.length === 0) return { ...record, status: "missing", found };
  const ok =
    kind === "dkim1"
      ? ofKind.some((text) => squeeze(text).includes(squeeze(record.value.split("p=")[1] ?? "")))
      : kind === "spf1"
        ? ofKind.some((text) => squeeze(text).includes(squeeze(record.value.split(" ")[1] ?? "")))
        : true;
  return { ...record, status: ok ? "ok" : "wrong", found: ofKind };
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
  } catch {
    throw new ServiceError("SERVICE_UNAVAILABLE", "DNS could not be asked just now: try again");
  }
  await saveCheck(services, domain.name, JSON.stringify(checks), services.clock.now());
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

/** The key to sign the agent's mail with, or null (a domain with no key, or a key sealed with another SECRETS_KEY). */
export async function signingKeyFor(services: Services, domainName: string): Promise<SigningKey | null> {
  const key = await activeKeyOf(services, domainName);
  if (!key) return null;
  try {
    return { domainName, keySelector: key.selector, privateKey: unseal(key.privateKey, services.config.secretsKey) };
  } catch {
    services.log("error", "dkim_key_unreadable", { domain: domainName, selector: key.selector });
    return null;
  }
}
