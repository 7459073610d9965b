import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { LOG_LEVELS, type LogLevel } from "./log.ts";
import { isEmailAddress } from "./outbound/address.ts";
import { isWebhookSecret } from "./outbound/webhooks.ts";

// Configuration comes from environment variables only. Every variable is
// optional; a bad value stops start-up with a message naming the variable.

export interface Config {
  port: number;
  host: string;
  databaseUrl: string;
  /** The default domain: the first of mailDomains. */
  mailDomain: string;
  /** The domains of MAIL_DOMAINS (or MAIL_DOMAIN), lower case; the operator may add more. */
  mailDomains: string[];
  /** The host that receives the domains' mail, for their MX records. */
  mxHost: string;
  /** The provider's SPF include for the domains' SPF records; null: a: of mxHost. */
  spfInclude: string | null;
  /** Agent ids only the operator may create, besides the built-in ones; lower case. */
  reservedLocalParts: string[];
  /** Seals DKIM private keys in the database (AES-256-GCM); null: they are stored in the clear. */
  secretsKey: Buffer | null;
  publicUrl: string;
  socialHandle: string;
  verificationCodePrefix: string;
  socialOembedUrl: string;
  socialIntentUrl: string;
  dailySendLimit: number;
  /** Sends of one agent into one thread per rolling hour; 0: no cap. */
  threadSendLimit: number;
  storageLimitBytes: number;
  /** The catch-all mailbox inbound mail is pulled from; null: no poller. */
  imap: ImapConfig | null;
  imapPollIntervalMs: number;
  /** What happens to a message on the server once it is stored. */
  imapProcessed: ProcessedAction;
  inboundMaxBytes: number;
  /** The bearer token of POST /inbound/raw, where a provider hands over raw messages; null: the route is off (404). */
  inboundToken: string | null;
  /** The SMTP door every instance opens to receive mail directly; null: none. */
  smtpIngress: SmtpIngressConfig | null;
  /** The provider outgoing mail is handed to; null: sending answers 503. */
  smtp: SmtpConfig | null;
  /** How long a send waits for the provider before it answers. */
  smtpTimeoutMs: number;
  /** Schema introspection and GraphiQL. */
  graphqlIntrospection: boolean;
  /** How long events are kept. */
  eventRetentionHours: number;
  /** Requests a second per API key (bursts up to twice that); 0: no limit. */
  rateLimitRequestsPerSecond: number;
  /** Registrations an hour per client address; 0: no limit. */
  rateLimitRegistrationsPerHour: number;
  /** Believe X-Forwarded-For for the client's address (behind a proxy you run). */
  trustProxy: boolean;
  /** The least level logged. */
  logLevel: LogLevel;
  /** How long requests under way may take to finish once the service is told to stop. */
  shutdownGraceMs: number;
  /** Days mail stays in the trash before it is deleted for good; 0: kept until deleted. */
  trashRetentionDays: number;
  /** Webhooks may use http:// and private addresses (tests, private networks). */
  webhookAllowPrivate: boolean;
  /** Where sender authentication asks DNS, as `ip` or `ip:port`; null: the system's resolvers. */
  dnsServers: string[] | null;
  /** Whose Authentication-Results header to believe instead of checking mail ourselves; null: check it. */
  trustedAuthservId: string | null;
  /** Domains whose DKIM signature makes a complaint (ARF) believed wherever it arrives, lower case. */
  feedbackLoopDomains: string[];
  /** The catch-all's receiving hosts, whose Received lines name SPF's client; empty: no SPF for the catch-all. */
  trustedMxHosts: string[];
  /** Browser origins allowed to call the API (`*` for any); empty: no CORS headers at all. */
  corsOrigins: string[];
  /** The REST layer's names: the spec's neutral ones, or ClawMail's. */
  wireNames: "spec" | "clawmail";
  /** The bearer token /metrics asks for; null: /metrics is open. */
  metricsToken: string | null;
  /** The operator's bearer token for /admin and GraphQL's admin fields; null: the admin API is off. */
  adminToken: string | null;
  /** Who verifies agents: a person's post on X, the operator, or nobody (verified at registration). */
  verificationMode: VerificationMode;
  /** Which sends wait for a person's approval, for agents the operator set no policy for. */
  sendPolicy: SendPolicy;
  /** How long a held send waits for a decision before it is rejected as expired. */
  approvalTimeoutHours: number;
  /** Who is sent held mail's review links, for agents the operator gave no reviewer of their own. */
  reviewer: Reviewer;
}

/** Where a held message's review link goes: an address it is mailed to, and/or the operator's webhook. */
export interface Reviewer {
  email: string | null;
  webhook: ReviewerWebhook | null;
}

/** An operator's webhook, signed with a secret of its own (Standard Webhooks). */
export interface ReviewerWebhook {
  url: string;
  secret: string;
}

/** open: the spec's sending; review_new_recipients: mail to an address not yet known is held; review_all: all is held. */
export const SEND_POLICIES = ["open", "review_new_recipients", "review_all"] as const;
export type SendPolicy = (typeof SEND_POLICIES)[number];

export const VERIFICATION_MODES = ["social", "admin", "none"] as const;
export type VerificationMode = (typeof VERIFICATION_MODES)[number];

/** One of the choices, named in the message when the value is another. */
function readChoice<T extends string>(env: Env, name: string, choices: readonly T[]): T {
  return read(
    env,
    name,
    choices[0] as T,
    (v) => choices.includes(v as T),
    choices.join(", ").replace(/, ([^,]+)$/, " or $1"),
  ) as T;
}

export interface SmtpIngressConfig {
  port: number;
  host: string;
  /** Speak LMTP, for a front MTA. */
  lmtp: boolean;
  maxConnectionsPerIp: number;
  /** MAIL FROM commands one connection may give before it is told to reconnect. */
  maxMessagesPerConnection: number;
  /** How long the door waits for the client's next command. */
  idleTimeoutMs: number;
  /** How long one message's DATA may take from start to end, however it trickles in. */
  dataTimeoutMs: number;
  /** PEM files for STARTTLS, read again when they change; null: no STARTTLS. */
  tls: { certFile: string; keyFile: string } | null;
  /** Peers (`address/bits`) that must open each connection with a PROXY header naming the client. */
  trustedProxies: string[];
}

export interface SmtpConfig {
  secure: boolean;
  host: string;
  port: number;
  user: string | null;
  password: string;
}

export interface ImapConfig {
  secure: boolean;
  host: string;
  port: number;
  user: string;
  password: string;
  mailbox: string;
}

export type ProcessedAction = { kind: "seen" } | { kind: "delete" } | { kind: "move"; mailbox: string };

export class ConfigError extends Error {}

type Env = Record<string, string | undefined>;

export const POSTGRES_SCHEMA = /^[A-Za-z_][A-Za-z0-9_]{0,62}$/;

const HOSTNAME =
  /^(?=.{1,253}$)([A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)(\.[A-Za-z0-9]([A-Za-z0-9-]{0,61}[A-Za-z0-9])?)*$/;

/**
 * A DNS name that need not be a host's: a label may start with `_`, as the
 * names of SPF includes (`_spf.google.com`) and other attribute leaves do
 * (RFC 8552 2.1).
 */
function isDnsName(value: string): boolean {
  const label = /^_?[A-Za-z0-9]([A-Za-z0-9-]*[A-Za-z0-9])?$/;
  return value.length <= 253 && value.split(".").every((part) => part.length <= 63 && label.test(part));
}

function read(env: Env, name: string, fallback: string, valid: (value: string) => boolean, expected: string): string {
  const value = env[name] ?? fallback;
  if (!valid(value)) throw new ConfigError(`${name} must be ${expected}, got ${JSON.stringify(value)}`);
  return value;
}

function readInt(env: Env, name: string, fallback: number, min: number, max: number): number {
  const value = read(
    env,
    name,
    String(fallback),
    (v) => /^\d+$/.test(v) && +v >= min && +v <= max,
    `an integer from ${min} to ${max}`,
  );
  return Number(value);
}

function readBoolean(env: Env, name: string, fallback: boolean): boolean {
  return read(env, name, String(fallback), (v) => v === "true" || v === "false", "true or false") === "true";
}

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

/** `imap[s]://user:password@host[:port][/MAILBOX]`, parts URL-encoded. */
function parseImapUrl(value: string | undefined): ImapConfig | null {
  if (value === undefined || value === "") return null;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || !/^imaps?:$/.test(url.protocol) || !url.hostname || !url.username) {
    throw new ConfigError("IMAP_URL must be imap://user:password@host:port/MAILBOX or imaps://…");
  }
  const secure = url.protocol === "imaps:";
  return {
    secure,
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 993 : 143,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    mailbox: decodeURIComponent(url.pathname.slice(1)) || "INBOX",
  };
}

/** `smtp[s]://[user:password@]host[:port]`, parts URL-encoded. */
function parseSmtpUrl(value: string | undefined): SmtpConfig | null {
  if (value === undefined || value === "") return null;
  const url = URL.canParse(value) ? new URL(value) : null;
  if (!url || !/^smtps?:$/.test(url.protocol) || !url.hostname) {
    throw new ConfigError("SMTP_URL must be smtp://user:password@host:port or smtps://…");
  }
  const secure = url.protocol === "smtps:";
  return {
    secure,
    host: url.hostname,
    port: url.port ? Number(url.port) : secure ? 465 : 587,
    user: url.username ? decodeURIComponent(url.username) : null,
    password: decodeURIComponent(url.password),
  };
}

/** `ip[:port]` or `[ipv6]:port`, comma-separated, as Node's resolver takes them. */
function parseDnsServers(value: string | undefined): string[] | null {
  if (value === undefined || value.trim() === "") return null;
  const servers = value.split(",").map((server) => server.trim());
  const valid = (server: string) => {
    const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(server);
    const [, host, port] = bracketed ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(server) ?? [server, server];
    return isIP(host ?? "") !== 0 && (port === undefined || +port <= 65535);
  };
  if (!servers.every(valid)) {
    throw new ConfigError(
      `DNS_SERVERS must be IP addresses with optional ports, comma-separated, got ${JSON.stringify(value)}`,
    );
  }
  return servers;
}

/** SMTP_INGRESS_PORT opens the door; the rest say how. */
function parseSmtpIngress(env: Env): SmtpIngressConfig | null {
  if (env.SMTP_INGRESS_PORT === undefined || env.SMTP_INGRESS_PORT === "") return null;
  return {
    port: readInt(env, "SMTP_INGRESS_PORT", 25, 0, 65535),
    host: read(env, "SMTP_INGRESS_HOST", "0.0.0.0", (v) => isIP(v) !== 0, "an IP address"),
    lmtp: readBoolean(env, "SMTP_INGRESS_LMTP", false),
    maxConnectionsPerIp: readInt(env, "SMTP_INGRESS_MAX_CONNECTIONS_PER_IP", 10, 1, 10_000),
    maxMessagesPerConnection: readInt(env, "SMTP_INGRESS_MAX_MESSAGES_PER_CONNECTION", 100, 1, 100_000),
    // RFC 5321 4.5.3.2: a server waits five minutes for a command, ten for the end of DATA.
    idleTimeoutMs: readInt(env, "SMTP_INGRESS_IDLE_TIMEOUT_SECONDS", 300, 1, 3_600) * 1_000,
    dataTimeoutMs: readInt(env, "SMTP_INGRESS_DATA_TIMEOUT_SECONDS", 600, 1, 3_600) * 1_000,
    tls: parseTlsFiles(env),
    trustedProxies: parseAddressRanges(env, "SMTP_INGRESS_TRUSTED_PROXIES"),
  };
}

/** IP addresses or CIDR ranges, comma-separated, each as `address/bits`. */
function parseAddressRanges(env: Env, name: string): string[] {
  const given = (env[name] ?? "").split(",").map((range) => range.trim());
  return given
    .filter((range) => range !== "")
    .map((range) => {
      if (ipaddr.isValid(range)) {
        const address = ipaddr.process(range);
        return `${address.toString()}/${address.kind() === "ipv4" ? 32 : 128}`;
      }
      if (!ipaddr.isValidCIDR(range)) {
        throw new ConfigError(
          `${name} must be IP addresses or CIDR ranges, comma-separated, got ${JSON.stringify(env[name])}`,
        );
      }
      const [address, bits] = ipaddr.parseCIDR(range);
      return `${address.toString()}/${bits}`;
    });
}

/** Host names, comma-separated, lower case. */
function parseHostNames(env: Env, name: string): string[] {
  const given = (env[name] ?? "").split(",").map((host) => host.trim().toLowerCase());
  const hosts = given.filter((host) => host !== "");
  if (!hosts.every((host) => HOSTNAME.test(host))) {
    throw new ConfigError(`${name} must be host names, comma-separated, got ${JSON.stringify(env[name])}`);
  }
  return [...new Set(hosts)];
}

/** SMTP_INGRESS_TLS_CERT and SMTP_INGRESS_TLS_KEY: both, or neither. */
function parseTlsFiles(env: Env): { certFile: string; keyFile: string } | null {
  const certFile = env.SMTP_INGRESS_TLS_CERT || null;
  const keyFile = env.SMTP_INGRESS_TLS_KEY || null;
  if (certFile === null && keyFile === null) return null;
  if (certFile === null || keyFile === null) {
    throw new ConfigError("SMTP_INGRESS_TLS_CERT and SMTP_INGRESS_TLS_KEY must be set together (PEM files)");
  }
  return { certFile, keyFile };
}

/** REVIEWER_EMAIL, and REVIEWER_WEBHOOK_URL with REVIEWER_WEBHOOK_SECRET: the URL and its secret together, or neither. */
function parseReviewer(env: Env, mailDomains: string[]): Reviewer {
  // At a served domain, an agent could come to hold the address: the links would go to it.
  const outside = (v: string) => isEmailAddress(v) && !mailDomains.includes(v.split("@").pop()?.toLowerCase() ?? "");
  const email =
    read(env, "REVIEWER_EMAIL", "", (v) => v === "" || outside(v), "an email address outside MAIL_DOMAINS") || null;
  const url = read(env, "REVIEWER_WEBHOOK_URL", "", (v) => v === "" || isHttpUrl(v), "an http(s) URL") || null;
  const secret = env.REVIEWER_WEBHOOK_SECRET || null;
  if ((url === null) !== (secret === null)) {
    throw new ConfigError("REVIEWER_WEBHOOK_URL and REVIEWER_WEBHOOK_SECRET must be set together");
  }
  // Refused without repeating it, since it is a secret.
  if (secret !== null && !isWebhookSecret(secret)) {
    throw new ConfigError(
      "REVIEWER_WEBHOOK_SECRET must be whsec_ and 24-64 bytes in base64, as Standard Webhooks takes it",
    );
  }
  return { email: email?.toLowerCase() ?? null, webhook: url && secret ? { url, secret } : null };
}

/** MAIL_DOMAINS, comma-separated, the first the default; else MAIL_DOMAIN alone. */
function domainsOf(env: Env): { mailDomain: string; mailDomains: string[] } {
  const name = env.MAIL_DOMAINS !== undefined ? "MAIL_DOMAINS" : "MAIL_DOMAIN";
  const given = (env[name] ?? "localhost").split(",").map((domain) => domain.trim().toLowerCase());
  if (!given.every((domain) => HOSTNAME.test(domain))) {
    throw new ConfigError(`${name} must be domain names, comma-separated, got ${JSON.stringify(env[name])}`);
  }
  const mailDomains = [...new Set(given)];
  return { mailDomain: mailDomains[0] as string, mailDomains };
}

/** RESERVED_LOCAL_PARTS: local parts (hr, legal), comma-separated, compared without case. */
function parseReservedLocalParts(value: string | undefined): string[] {
  if (value === undefined || value.trim() === "") return [];
  const parts = value.split(",").map((part) => part.trim().toLowerCase());
  if (!parts.every((part) => /^[a-z0-9._+-]{1,64}$/.test(part))) {
    throw new ConfigError(
      `RESERVED_LOCAL_PARTS must be local parts (letters, digits, . _ + -), comma-separated, got ${JSON.stringify(value)}`,
    );
  }
  return [...new Set(parts)];
}

/** 32 bytes, base64 (openssl rand -base64 32). */
function parseSecretsKey(value: string | undefined): Buffer | null {
  if (value === undefined || value === "") return null;
  const key = Buffer.from(value, "base64");
  if (key.length !== 32 || key.toString("base64") !== value) {
    throw new ConfigError("SECRETS_KEY must be 32 bytes in base64 (openssl rand -base64 32)");
  }
  return key;
}

/** A bearer token: refused without repeating it, since it is a secret. */
function parseToken(env: Env, name: string): string | null {
  const value = env[name];
  if (value === undefined || value === "") return null;
  if (!/^[\x21-\x7e]{24,256}$/.test(value)) {
    throw new ConfigError(`${name} must be 24-256 printable characters without spaces (e.g. openssl rand -hex 32)`);
  }
  return value;
}

/** `*`, or origins (`https://app.example`, `http://localhost:5173`) comma-separated. */
function parseCorsOrigins(value: string | undefined): string[] {
  if (value === undefined || value.trim() === "") return [];
  const origins = value.split(",").map((origin) => origin.trim());
  const isOrigin = (origin: string) => isHttpUrl(origin) && new URL(origin).origin === origin;
  if (origins.length === 1 && origins[0] === "*") return origins;
  if (!origins.every(isOrigin)) {
    throw new ConfigError(
      `CORS_ORIGINS must be * or origins such as https://app.example, comma-separated, got ${JSON.stringify(value)}`,
    );
  }
  return origins;
}

function parseProcessed(value: string): ProcessedAction {
  if (value === "seen" || value === "delete") return { kind: value };
  const move = /^move:(.+)$/.exec(value);
  if (move?.[1]) return { kind: "move", mailbox: move[1] };
  throw new ConfigError(`IMAP_PROCESSED must be seen, delete or move:<mailbox>, got ${JSON.stringify(value)}`);
}

function isPostgresUrl(value: string): boolean {
  if (!/^postgres(ql)?:\/\//.test(value) || !URL.canParse(value)) return false;
  const schema = new URL(value).searchParams.get("schema");
  return schema === null || POSTGRES_SCHEMA.test(schema);
}

export function loadConfig(env: Env): Config {
  const port = readInt(env, "PORT", 3000, 0, 65535);
  const publicUrl = read(env, "PUBLIC_URL", `http://localhost:${port}`, isHttpUrl, "an http(s) URL").replace(
    /\/+$/,
    "",
  );
  return {
    port,
    host: read(env, "HOST", "0.0.0.0", (v) => v.length > 0, "a listen address"),
    databaseUrl: read(
      env,
      "DATABASE_URL",
      "file:./data/pigeonhole.db",
      (v) => /^file:.+$/.test(v) || isPostgresUrl(v),
      "file:<path> or a postgres:// or postgresql:// URL (with an optional ?schema=<name>)",
    ),
    ...domainsOf(env),
    publicUrl,
    // Unset: PUBLIC_URL's host, as it is (an address there makes an MX record to fix, said by verify).
    mxHost: (env.MX_HOST === undefined
      ? new URL(publicUrl).hostname
      : read(env, "MX_HOST", "", (v) => HOSTNAME.test(v), "a host name")
    ).toLowerCase(),
    spfInclude: read(env, "SPF_INCLUDE", "", (v) => v === "" || isDnsName(v), "a domain name").toLowerCase() || null,
    reservedLocalParts: parseReservedLocalParts(env.RESERVED_LOCAL_PARTS),
    secretsKey: parseSecretsKey(env.SECRETS_KEY),
    socialHandle: read(
      env,
      "SOCIAL_HANDLE",
      "pigeonhole",
      (v) => /^[A-Za-z0-9_]{1,15}$/.test(v),
      "an X handle without @",
    ),
    verificationCodePrefix: read(
      env,
      "VERIFICATION_CODE_PREFIX",
      "PIGEON",
      (v) => /^[A-Z0-9]{1,16}$/.test(v),
      "1-16 capital letters or digits",
    ),
    socialOembedUrl: read(env, "SOCIAL_OEMBED_URL", "https://publish.twitter.com/oembed", isHttpUrl, "an http(s) URL"),
    socialIntentUrl: read(env, "SOCIAL_INTENT_URL", "https://twitter.com/intent/tweet", isHttpUrl, "an http(s) URL"),
    dailySendLimit: readInt(env, "DAILY_SEND_LIMIT", 25, 1, 1_000_000),
    threadSendLimit: readInt(env, "THREAD_SEND_LIMIT", 10, 0, 1_000_000),
    // Stored in a 32-bit integer column.
    storageLimitBytes: readInt(env, "STORAGE_LIMIT_BYTES", 52_428_800, 1, 2_147_483_647),
    imap: parseImapUrl(env.IMAP_URL),
    imapPollIntervalMs: readInt(env, "IMAP_POLL_INTERVAL_MS", 30_000, 100, 86_400_000),
    imapProcessed: parseProcessed(env.IMAP_PROCESSED ?? "seen"),
    inboundMaxBytes: readInt(env, "INBOUND_MAX_BYTES", 25 * 1024 * 1024, 1, 2_147_483_647),
    smtpIngress: parseSmtpIngress(env),
    smtp: parseSmtpUrl(env.SMTP_URL),
    // Inside the spec's 30-second request timeout, with room to answer.
    smtpTimeoutMs: readInt(env, "SMTP_TIMEOUT_MS", 20_000, 1_000, 25_000),
    graphqlIntrospection: readBoolean(env, "GRAPHQL_INTROSPECTION", true),
    eventRetentionHours: readInt(env, "EVENT_RETENTION_HOURS", 72, 1, 24 * 365),
    trashRetentionDays: readInt(env, "TRASH_RETENTION_DAYS", 30, 0, 36_500),
    shutdownGraceMs: readInt(env, "SHUTDOWN_GRACE_MS", 10_000, 0, 600_000),
    rateLimitRequestsPerSecond: readInt(env, "RATE_LIMIT_REQUESTS_PER_SECOND", 20, 0, 1_000_000),
    rateLimitRegistrationsPerHour: readInt(env, "RATE_LIMIT_REGISTRATIONS_PER_HOUR", 10, 0, 1_000_000),
    trustProxy: readBoolean(env, "TRUST_PROXY", false),
    logLevel: readChoice(env, "LOG_LEVEL", ["info", ...LOG_LEVELS.filter((level) => level !== "info")]),
    webhookAllowPrivate: readBoolean(env, "WEBHOOK_ALLOW_PRIVATE", false),
    dnsServers: parseDnsServers(env.DNS_SERVERS),
    corsOrigins: parseCorsOrigins(env.CORS_ORIGINS),
    adminToken: parseToken(env, "ADMIN_TOKEN"),
    inboundToken: parseToken(env, "INBOUND_TOKEN"),
    metricsToken: parseToken(env, "METRICS_TOKEN"),
    wireNames: readChoice(env, "WIRE_NAMES", ["spec", "clawmail"] as const),
    verificationMode: readChoice(env, "VERIFICATION_MODE", VERIFICATION_MODES),
    sendPolicy: readChoice(env, "SEND_POLICY", SEND_POLICIES),
    approvalTimeoutHours: readInt(env, "APPROVAL_TIMEOUT_HOURS", 72, 1, 24 * 365),
    reviewer: parseReviewer(env, domainsOf(env).mailDomains),
    trustedAuthservId:
      read(env, "TRUSTED_AUTHSERV_ID", "", (v) => v === "" || HOSTNAME.test(v), "a server name").toLowerCase() || null,
    feedbackLoopDomains: parseHostNames(env, "FEEDBACK_LOOP_DOMAINS"),
    trustedMxHosts: parseHostNames(env, "TRUSTED_MX_HOSTS"),
  };
}
