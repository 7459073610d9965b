import { isIP } from "node:net";
import ipaddr from "ipaddr.js";
import { clamdAddress } from "./inbound/scanners/clamav.ts";
import { LOG_LEVELS } from "./log.ts";
import { isEmailAddress } from "./outbound/address.ts";
import { isWebhookSecret } from "./outbound/webhooks.ts";

// Configuration comes from environment variables only, each declared once
// below: its name, what it takes (with bounds), its default and what it does.
// loadConfig, the Config type, the README's table and doctor all read these
// declarations. Every variable is optional; a bad value stops start-up with a
// message naming the variable.

/** One environment variable, as loadConfig reads it and the README's table shows it. */
export interface Variable {
  readonly name: string;
  /** What a value must be, in the words of refusals and of the README: "an integer from 0 to 65535". */
  readonly expected: string;
  /** The value taken when it is unset, as it would be written; or what leaving it unset means (Markdown). */
  readonly default: { readonly value: string } | { readonly unset: string };
  /** What it sets (Markdown). */
  readonly description: string;
  /** An integer's least and greatest values. */
  readonly bounds?: { readonly min: number; readonly max: number };
  /** A closed set's values, the first the default. */
  readonly choices?: readonly string[];
  /** A refusal does not repeat the value. */
  readonly secret?: boolean;
}

/** A field of Config and the variables it is read from. */
interface Setting<T> {
  readonly variables: readonly Variable[];
  read(env: Env): T;
}

type Env = Record<string, string | undefined>;
type Settings = Record<string, Setting<unknown>>;
type ValuesOf<S extends Settings> = { [K in keyof S]: S[K] extends Setting<infer T> ? T : never };

export class ConfigError extends Error {}

function refuse(variable: Variable, given: string | undefined): never {
  const got = variable.secret ? "" : `, got ${JSON.stringify(given)}`;
  throw new ConfigError(`${variable.name} must be ${variable.expected}${got}`);
}

function checked(variable: Variable, given: string, valid: (value: string) => boolean): string {
  return valid(given) ? given : refuse(variable, given);
}

/** A setting read from one variable: `parse` gets its value, undefined when unset. */
function single<T>(variable: Variable, parse: (given: string | undefined, env: Env) => T): Setting<T> {
  return { variables: [variable], read: (env) => parse(env[variable.name], env) };
}

/** A setting's value changed as it is read; the variables stay. */
function mapped<T, U>(setting: Setting<T>, change: (value: T, env: Env) => U): Setting<U> {
  return { variables: setting.variables, read: (env) => change(setting.read(env), env) };
}

/** Settings read together into one object. */
function group<S extends Settings>(settings: S): Setting<ValuesOf<S>> {
  return {
    variables: Object.values(settings).flatMap((setting) => setting.variables),
    read: (env) =>
      Object.fromEntries(Object.entries(settings).map(([key, setting]) => [key, setting.read(env)])) as ValuesOf<S>,
  };
}

/** A door opened by its port, set as the rest say; null when the port is left out. */
function door<T>(port: Setting<number | null>, settings: Setting<T>): Setting<({ port: number } & T) | null> {
  return {
    variables: [...port.variables, ...settings.variables],
    read: (env) => {
      const opened = port.read(env);
      return opened === null ? null : { port: opened, ...settings.read(env) };
    },
  };
}

interface Described {
  name: string;
  description: string;
  secret?: boolean;
}

type Checked = Described & { expected: string; valid: (value: string) => boolean };

function variableOf(spec: Described & { expected: string }, fallback: Variable["default"]): Variable {
  const { name, expected, description, secret } = spec;
  return { name, expected, default: fallback, description, ...(secret && { secret }) };
}

type Bounded = Described & { min: number; max: number };

type IntegerVariable = Variable & { bounds: { min: number; max: number } };

function integerVariable(spec: Bounded, fallback: Variable["default"]): IntegerVariable {
  const { min, max } = spec;
  return { ...variableOf({ ...spec, expected: `an integer from ${min} to ${max}` }, fallback), bounds: { min, max } };
}

function integerOf(variable: IntegerVariable, given: string): number {
  const { min, max } = variable.bounds;
  return Number(checked(variable, given, (v) => /^\d+$/.test(v) && +v >= min && +v <= max));
}

function integer(spec: Bounded & { default: number }): Setting<number> {
  const variable = integerVariable(spec, { value: String(spec.default) });
  return single(variable, (given = String(spec.default)) => integerOf(variable, given));
}

/** An integer that may be left out (unset or empty): null then. */
function optionalInteger(spec: Bounded & { unset: string }): Setting<number | null> {
  const variable = integerVariable(spec, { unset: spec.unset });
  return single(variable, (given) => (given ? integerOf(variable, given) : null));
}

function boolean(spec: Described & { default: boolean }): Setting<boolean> {
  const variable = variableOf({ ...spec, expected: "true or false" }, { value: String(spec.default) });
  return single(
    variable,
    (given = String(spec.default)) => checked(variable, given, (v) => /^(true|false)$/.test(v)) === "true",
  );
}

/**
 * A scanner's _REQUIRED flag: true only beside the scanner's URL, since
 * requiring a scanner that is not there would promise a check that never runs.
 */
function scannerRequired({ scanner, ...spec }: Described & { scanner: string }): Setting<boolean> {
  const flag = boolean({ ...spec, default: false });
  return {
    ...flag,
    read: (env) => {
      const required = flag.read(env);
      if (required && !env[scanner])
        throw new ConfigError(`${spec.name} needs ${scanner}: there is no scanner to require`);
      return required;
    },
  };
}

/** One of the choices, the first the default, all named in the message when the value is another. */
function choice<T extends string>(spec: Described & { choices: readonly T[] }): Setting<T> {
  const { choices } = spec;
  const expected = choices.join(", ").replace(/, ([^,]+)$/, " or $1");
  const variable = { ...variableOf({ ...spec, expected }, { value: choices[0] as T }), choices };
  return single(variable, (given = choices[0] as T) => checked(variable, given, (v) => choices.includes(v as T)) as T);
}

function text(spec: Checked & { default: string }): Setting<string> {
  const variable = variableOf(spec, { value: spec.default });
  return single(variable, (given = spec.default) => checked(variable, given, spec.valid));
}

/** A value that may be left out (unset or empty): null then. */
function optionalText(spec: Checked & { unset: string }): Setting<string | null> {
  const variable = variableOf(spec, { unset: spec.unset });
  return single(variable, (given) => (given ? checked(variable, given, spec.valid) : null));
}

/** A bearer token: refused without repeating it, since it is a secret. */
function token(spec: Described & { unset: string }): Setting<string | null> {
  return optionalText({
    ...spec,
    expected: "24-256 printable characters without spaces (e.g. openssl rand -hex 32)",
    valid: (v) => /^[\x21-\x7e]{24,256}$/.test(v),
    secret: true,
  });
}

/** Values separated by commas, trimmed, without empty ones. */
function listOf(given: string | undefined): string[] {
  return (given ?? "")
    .split(",")
    .map((item) => item.trim())
    .filter((item) => item !== "");
}

/** Host names, comma-separated, lower case. */
function hostNames(spec: Described & { unset: string }): Setting<string[]> {
  const variable = variableOf({ ...spec, expected: "host names, comma-separated" }, { unset: spec.unset });
  return single(variable, (given) => {
    const hosts = listOf(given).map((host) => host.toLowerCase());
    if (!hosts.every((host) => HOSTNAME.test(host))) refuse(variable, given);
    return [...new Set(hosts)];
  });
}

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

function isHttpUrl(value: string): boolean {
  return URL.canParse(value) && /^https?:$/.test(new URL(value).protocol);
}

function isPostgresUrl(value: string): boolean {
  if (!/^postgres(ql)?:\/\//.test(value) || !URL.canParse(value)) return false;
  const schema = new URL(value).searchParams.get("schema");
  return schema === null || POSTGRES_SCHEMA.test(schema);
}

// ---- What the custom settings make.

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

// ---- The settings that read more than a value.

const port = integer({
  name: "PORT",
  default: 3000,
  min: 0,
  max: 65535,
  description: "listen port (`0` picks a free one)",
});

const publicUrlVariable: Variable = {
  name: "PUBLIC_URL",
  expected: "an http(s) URL",
  default: { unset: "`http://localhost:PORT`" },
  description: "base URL used in texts shown to people",
};
const publicUrl = single(publicUrlVariable, (given, env) =>
  checked(publicUrlVariable, given ?? `http://localhost:${port.read(env)}`, isHttpUrl).replace(/\/+$/, ""),
);

const DEFAULT_DOMAIN = "localhost";
const mailDomainVariable: Variable = {
  name: "MAIL_DOMAIN",
  expected: "domain names, comma-separated",
  default: { value: DEFAULT_DOMAIN },
  description: "domain of agent addresses: `<agent id>@<MAIL_DOMAIN>` (one domain; `MAIL_DOMAINS` for several)",
};
const mailDomainsVariable: Variable = {
  ...mailDomainVariable,
  name: "MAIL_DOMAINS",
  default: { unset: "`MAIL_DOMAIN`" },
  description: "domains agents register on, the first the default ([domains](docs/domains.md))",
};

/** MAIL_DOMAINS, comma-separated, the first the default; else MAIL_DOMAIN alone; lower case. */
const mailDomains: Setting<string[]> = {
  variables: [mailDomainVariable, mailDomainsVariable],
  read: (env) => {
    const variable = env.MAIL_DOMAINS !== undefined ? mailDomainsVariable : mailDomainVariable;
    const given = env[variable.name];
    const domains = (given ?? DEFAULT_DOMAIN).split(",").map((domain) => domain.trim().toLowerCase());
    if (!domains.every((domain) => HOSTNAME.test(domain))) refuse(variable, given);
    return [...new Set(domains)];
  },
};

const mxHostVariable: Variable = {
  name: "MX_HOST",
  expected: "a host name",
  default: { unset: "`PUBLIC_URL`'s host" },
  description: "the host that receives the domains' mail: the MX records to publish",
};
// Unset: PUBLIC_URL's host, as it is (an address there makes an MX record to fix, said by verify).
const mxHost = single(mxHostVariable, (given, env) =>
  (given === undefined
    ? new URL(publicUrl.read(env)).hostname
    : checked(mxHostVariable, given, (v) => HOSTNAME.test(v))
  ).toLowerCase(),
);

const reservedLocalPartsVariable: Variable = {
  name: "RESERVED_LOCAL_PARTS",
  expected: "local parts (letters, digits, . _ + -), comma-separated",
  default: { unset: "only the built-in ones" },
  description:
    "agent ids only the operator may create, besides the built-in ones (`admin`, `postmaster`, `abuse`, … [domains](docs/domains.md#who-may-register-where)); compared without case",
};
const reservedLocalParts = single(reservedLocalPartsVariable, (given) => {
  const parts = listOf(given).map((part) => part.toLowerCase());
  if (!parts.every((part) => /^[a-z0-9._+-]{1,64}$/.test(part))) refuse(reservedLocalPartsVariable, given);
  return [...new Set(parts)];
});

const secretsKeyVariable: Variable = {
  name: "SECRETS_KEY",
  expected: "32 bytes in base64 (openssl rand -base64 32)",
  default: { unset: "secrets are stored in the clear" },
  description:
    "seals the secrets the database keeps (DKIM private keys, reviewers' webhook secrets, review links on their way, the return-path key) with AES-256-GCM ([what sealing holds](docs/domains.md#dkim-signing))",
  secret: true,
};
const secretsKey = single(secretsKeyVariable, (given): Buffer | null => {
  if (!given) return null;
  const key = Buffer.from(given, "base64");
  return key.length === 32 && key.toString("base64") === given ? key : refuse(secretsKeyVariable, given);
});

const reviewerEmailVariable: Variable = {
  name: "REVIEWER_EMAIL",
  expected: "an email address outside MAIL_DOMAINS",
  default: { unset: "nobody is mailed" },
  description:
    "the person held mail's review links are mailed to (through `SMTP_URL`), for agents the operator gave no reviewer of their own; never at a served domain ([approval](docs/sending.md#who-decides))",
};
const reviewerUrlVariable: Variable = {
  name: "REVIEWER_WEBHOOK_URL",
  expected: "an http(s) URL",
  default: { unset: "no webhook is told" },
  description:
    "the operator's webhook held mail's review links are POSTed to (`email.held`, Standard Webhooks), for agents without their own; with `REVIEWER_WEBHOOK_SECRET`",
};
const reviewerSecretVariable: Variable = {
  name: "REVIEWER_WEBHOOK_SECRET",
  expected: "whsec_ and 24-64 bytes in base64, as Standard Webhooks takes it",
  default: { unset: "no webhook is told" },
  description: "that webhook's signing secret",
  secret: true,
};

/** REVIEWER_EMAIL, and REVIEWER_WEBHOOK_URL with REVIEWER_WEBHOOK_SECRET: the URL and its secret together, or neither. */
const reviewer: Setting<Reviewer> = {
  variables: [reviewerEmailVariable, reviewerUrlVariable, reviewerSecretVariable],
  read: (env) => {
    const served = mailDomains.read(env);
    // At a served domain, an agent could come to hold the address: the links would go to it.
    const outside = (v: string) => isEmailAddress(v) && !served.includes(v.split("@").pop()?.toLowerCase() ?? "");
    const email = env.REVIEWER_EMAIL ? checked(reviewerEmailVariable, env.REVIEWER_EMAIL, outside) : null;
    const url = env.REVIEWER_WEBHOOK_URL ? checked(reviewerUrlVariable, env.REVIEWER_WEBHOOK_URL, isHttpUrl) : null;
    const secret = env.REVIEWER_WEBHOOK_SECRET || null;
    if ((url === null) !== (secret === null)) {
      throw new ConfigError("REVIEWER_WEBHOOK_URL and REVIEWER_WEBHOOK_SECRET must be set together");
    }
    if (secret !== null && !isWebhookSecret(secret)) refuse(reviewerSecretVariable, secret);
    return { email: email?.toLowerCase() ?? null, webhook: url && secret ? { url, secret } : null };
  },
};

const imapVariable: Variable = {
  name: "IMAP_URL",
  expected: "imap://user:password@host:port/MAILBOX or imaps://…",
  default: { unset: "no catch-all mailbox is read" },
  description: "the catch-all mailbox (MAILBOX defaults to `INBOX`; user and password URL-encoded)",
  secret: true,
};
/**
 * A mail server's URL, `<scheme>[s]://[user:password@]host[:port]…`: TLS when
 * the scheme ends in s, and the port that goes with it when none is given.
 */
function serverUrl(variable: Variable, given: string, scheme: "imap" | "smtp", ports: [plain: number, tls: number]) {
  const url = URL.canParse(given) ? new URL(given) : null;
  if (!url || (url.protocol !== `${scheme}:` && url.protocol !== `${scheme}s:`) || !url.hostname) {
    refuse(variable, given);
  }
  const secure = url.protocol === `${scheme}s:`;
  return { url, secure, host: url.hostname, port: url.port ? Number(url.port) : ports[secure ? 1 : 0] };
}

/** `imap[s]://user:password@host[:port][/MAILBOX]`, parts URL-encoded. */
const imap = single(imapVariable, (given): ImapConfig | null => {
  if (!given) return null;
  const { url, ...server } = serverUrl(imapVariable, given, "imap", [143, 993]);
  if (!url.username) refuse(imapVariable, given);
  return {
    ...server,
    user: decodeURIComponent(url.username),
    password: decodeURIComponent(url.password),
    mailbox: decodeURIComponent(url.pathname.slice(1)) || "INBOX",
  };
});

const imapProcessedVariable: Variable = {
  name: "IMAP_PROCESSED",
  expected: "seen, delete or move:<mailbox>",
  default: { value: "seen" },
  description: "what happens to a stored message on the server: flagged seen, deleted, or moved to a mailbox",
};
const imapProcessed = single(imapProcessedVariable, (given = "seen"): ProcessedAction => {
  if (given === "seen" || given === "delete") return { kind: given };
  const move = /^move:(.+)$/.exec(given);
  return move?.[1] ? { kind: "move", mailbox: move[1] } : refuse(imapProcessedVariable, given);
});

const smtpVariable: Variable = {
  name: "SMTP_URL",
  expected: "smtp://user:password@host:port or smtps://…",
  default: { unset: "only mail between this instance's agents goes; other sends answer 503" },
  description: "the provider outgoing mail goes to (user and password URL-encoded; port 587 or 465 when left out)",
  secret: true,
};
/** `smtp[s]://[user:password@]host[:port]`, parts URL-encoded. */
const smtp = single(smtpVariable, (given): SmtpConfig | null => {
  if (!given) return null;
  const { url, ...server } = serverUrl(smtpVariable, given, "smtp", [587, 465]);
  return {
    ...server,
    user: url.username ? decodeURIComponent(url.username) : null,
    password: decodeURIComponent(url.password),
  };
});

const tlsCertVariable: Variable = {
  name: "SMTP_INGRESS_TLS_CERT",
  expected: "a PEM file",
  default: { unset: "no STARTTLS" },
  description:
    "PEM certificate (with `SMTP_INGRESS_TLS_KEY`): the SMTP door offers STARTTLS, and takes a renewed certificate without a restart",
};
const tlsKeyVariable: Variable = {
  ...tlsCertVariable,
  name: "SMTP_INGRESS_TLS_KEY",
  description: "PEM private key of that certificate",
};
/** SMTP_INGRESS_TLS_CERT and SMTP_INGRESS_TLS_KEY: both, or neither. */
const tls: Setting<{ certFile: string; keyFile: string } | null> = {
  variables: [tlsCertVariable, tlsKeyVariable],
  read: (env) => {
    const certFile = env.SMTP_INGRESS_TLS_CERT || null;
    const keyFile = env.SMTP_INGRESS_TLS_KEY || null;
    if (certFile === null && keyFile === null) return null;
    if (certFile === null || keyFile === null) {
      throw new ConfigError("SMTP_INGRESS_TLS_CERT and SMTP_INGRESS_TLS_KEY must be set together (PEM files)");
    }
    return { certFile, keyFile };
  },
};

const trustedProxiesVariable: Variable = {
  name: "SMTP_INGRESS_TRUSTED_PROXIES",
  expected: "IP addresses or CIDR ranges, comma-separated",
  default: { unset: "none" },
  description:
    "load balancers in front of the SMTP door: their connections must open with a PROXY protocol header (v1 or v2) naming the client, for SPF and the per-address limit; anyone else's header is refused ([behind a proxy](docs/receiving.md#behind-a-proxy-the-proxy-protocol))",
};
/** Each as `address/bits`. */
const trustedProxies = single(trustedProxiesVariable, (given) =>
  listOf(given).map((range) => {
    if (ipaddr.isValid(range)) {
      const address = ipaddr.process(range);
      return `${address.toString()}/${address.kind() === "ipv4" ? 32 : 128}`;
    }
    if (!ipaddr.isValidCIDR(range)) refuse(trustedProxiesVariable, given);
    const [address, bits] = ipaddr.parseCIDR(range);
    return `${address.toString()}/${bits}`;
  }),
);

const smtpIngress = door(
  optionalInteger({
    name: "SMTP_INGRESS_PORT",
    unset: "the SMTP door is closed",
    min: 0,
    max: 65535,
    description:
      "the port this instance receives mail on directly over SMTP ([receiving directly](docs/receiving.md#receiving-mail-directly-smtp))",
  }),
  group({
    host: text({
      name: "SMTP_INGRESS_HOST",
      default: "0.0.0.0",
      expected: "an IP address",
      valid: (v) => isIP(v) !== 0,
      description: "the address the SMTP door listens on",
    }),
    lmtp: boolean({ name: "SMTP_INGRESS_LMTP", default: false, description: "speak LMTP instead, behind a front MTA" }),
    maxConnectionsPerIp: integer({
      name: "SMTP_INGRESS_MAX_CONNECTIONS_PER_IP",
      default: 10,
      min: 1,
      max: 10_000,
      description: "connections at once from one client address; more are told 421",
    }),
    maxMessagesPerConnection: integer({
      name: "SMTP_INGRESS_MAX_MESSAGES_PER_CONNECTION",
      default: 100,
      min: 1,
      max: 100_000,
      description: "`MAIL FROM` commands one connection may give; the next is told 421 and the connection closed",
    }),
    // RFC 5321 4.5.3.2: a server waits five minutes for a command, ten for the end of DATA.
    idleTimeoutMs: mapped(
      integer({
        name: "SMTP_INGRESS_IDLE_TIMEOUT_SECONDS",
        default: 300,
        min: 1,
        max: 3_600,
        description: "how long the SMTP door waits for a client's next command (RFC 5321's five minutes)",
      }),
      (seconds) => seconds * 1_000,
    ),
    dataTimeoutMs: mapped(
      integer({
        name: "SMTP_INGRESS_DATA_TIMEOUT_SECONDS",
        default: 600,
        min: 1,
        max: 3_600,
        description: "how long one message's DATA may take, however it trickles in; then 421 and nothing of it is kept",
      }),
      (seconds) => seconds * 1_000,
    ),
    tls,
    trustedProxies,
  }),
);

const dnsServersVariable: Variable = {
  name: "DNS_SERVERS",
  expected: "IP addresses with optional ports, comma-separated",
  default: { unset: "the system's resolvers" },
  description:
    "where sender authentication asks DNS (`127.0.0.1:5353,[::1]:53`); see [who really sent it](docs/reading.md#who-really-sent-it)",
};
/** `ip[:port]` or `[ipv6]:port`, comma-separated, as Node's resolver takes them. */
const dnsServers = single(dnsServersVariable, (given): string[] | null => {
  if (given === undefined || given.trim() === "") return null;
  const servers = given.split(",").map((server) => server.trim());
  const valid = (server: string) => {
    const bracketed = /^\[([^\]]+)\](?::(\d{1,5}))?$/.exec(server);
    const [, host, port] = bracketed ?? /^([^:]+)(?::(\d{1,5}))?$/.exec(server) ?? [server, server];
    return isIP(host ?? "") !== 0 && (port === undefined || +port <= 65535);
  };
  return servers.every(valid) ? servers : refuse(dnsServersVariable, given);
});

const corsOriginsVariable: Variable = {
  name: "CORS_ORIGINS",
  expected: "* or origins such as https://app.example, comma-separated",
  default: { unset: "no CORS headers" },
  description:
    "browser origins allowed to call the API (`https://app.example,http://localhost:5173`), or `*` for any; see [CORS](docs/integrations.md#browsers-on-other-origins-cors)",
};
const corsOrigins = single(corsOriginsVariable, (given) => {
  if (given === undefined || given.trim() === "") return [];
  const origins = given.split(",").map((origin) => origin.trim());
  const isOrigin = (origin: string) => isHttpUrl(origin) && new URL(origin).origin === origin;
  if (origins.length === 1 && origins[0] === "*") return origins;
  return origins.every(isOrigin) ? origins : refuse(corsOriginsVariable, given);
});

// ---- Every setting, in the order the README's table lists their variables.

const SETTINGS = {
  port,
  host: text({
    name: "HOST",
    default: "0.0.0.0",
    expected: "a listen address",
    valid: (v) => v.length > 0,
    description: "listen address",
  }),
  databaseUrl: text({
    name: "DATABASE_URL",
    default: "file:./data/pigeonhole.db",
    expected: "file:<path> or a postgres:// or postgresql:// URL (with an optional ?schema=<name>)",
    valid: (v) => /^file:.+$/.test(v) || isPostgresUrl(v),
    description: "the SQLite file, or the PostgreSQL database (and schema)",
  }),
  mailDomains,
  /** The default domain: the first of mailDomains. */
  mailDomain: { variables: [], read: (env: Env) => mailDomains.read(env)[0] as string },
  mxHost,
  spfInclude: mapped(
    optionalText({
      name: "SPF_INCLUDE",
      unset: "`a:` of `MX_HOST`",
      expected: "a domain name",
      valid: isDnsName,
      description: "the email provider's SPF include (`_spf.provider.example`) for the domains' SPF records",
    }),
    (include) => include?.toLowerCase() ?? null,
  ),
  reservedLocalParts,
  secretsKey,
  publicUrl,
  socialHandle: text({
    name: "SOCIAL_HANDLE",
    default: "pigeonhole",
    expected: "an X handle without @",
    valid: (v) => /^[A-Za-z0-9_]{1,15}$/.test(v),
    description: "the X handle a verification post must mention",
  }),
  verificationCodePrefix: text({
    name: "VERIFICATION_CODE_PREFIX",
    default: "PIGEON",
    expected: "1-16 capital letters or digits",
    valid: (v) => /^[A-Z0-9]{1,16}$/.test(v),
    description: "prefix of verification codes (`PIGEON-7KQ2ZD`)",
  }),
  socialOembedUrl: text({
    name: "SOCIAL_OEMBED_URL",
    default: "https://publish.twitter.com/oembed",
    expected: "an http(s) URL",
    valid: isHttpUrl,
    description: "where posts are looked up",
  }),
  socialIntentUrl: text({
    name: "SOCIAL_INTENT_URL",
    default: "https://twitter.com/intent/tweet",
    expected: "an http(s) URL",
    valid: isHttpUrl,
    description: "base of the `socialIntentUrl` link",
  }),
  dailySendLimit: integer({
    name: "DAILY_SEND_LIMIT",
    default: 25,
    min: 1,
    max: 1_000_000,
    description: "sends per agent per UTC day",
  }),
  threadSendLimit: integer({
    name: "THREAD_SEND_LIMIT",
    default: 10,
    min: 0,
    max: 1_000_000,
    description:
      "sends per agent into one thread per rolling hour, so two programs cannot mail each other forever; `0`: no cap",
  }),
  sendPolicy: choice({
    name: "SEND_POLICY",
    choices: SEND_POLICIES,
    description:
      "which sends wait for a person's approval, for agents the operator set no policy for ([approval](docs/sending.md#approval-before-send))",
  }),
  approvalTimeoutHours: integer({
    name: "APPROVAL_TIMEOUT_HOURS",
    default: 72,
    min: 1,
    max: 24 * 365,
    description: "a held message nobody decides is rejected as `expired` after this many hours",
  }),
  reviewer,
  storageLimitBytes: integer({
    name: "STORAGE_LIMIT_BYTES",
    default: 52_428_800,
    min: 1,
    // Stored in a 32-bit integer column.
    max: 2_147_483_647,
    description: "storage per agent, in bytes",
  }),
  imap,
  imapPollIntervalMs: integer({
    name: "IMAP_POLL_INTERVAL_MS",
    default: 30_000,
    min: 100,
    max: 86_400_000,
    description: "how often the mailbox is checked besides IDLE",
  }),
  imapProcessed,
  inboundMaxBytes: integer({
    name: "INBOUND_MAX_BYTES",
    default: 25 * 1024 * 1024,
    min: 1,
    max: 2_147_483_647,
    description: "larger messages are not stored (logged, left on the server)",
  }),
  smtpIngress,
  inboundToken: token({
    name: "INBOUND_TOKEN",
    unset: "the route is off (404)",
    description: "the bearer token of `POST /inbound/raw`, where a provider hands over raw messages",
  }),
  smtp,
  smtpTimeoutMs: integer({
    name: "SMTP_TIMEOUT_MS",
    default: 20_000,
    min: 1_000,
    // Inside the spec's 30-second request timeout, with room to answer.
    max: 25_000,
    description:
      "how long a send waits for the provider before it answers, inside the 30-second request timeout; see [what a send's answer means](docs/sending.md#what-a-sends-answer-means)",
  }),
  eventRetentionHours: integer({
    name: "EVENT_RETENTION_HOURS",
    default: 72,
    min: 1,
    max: 24 * 365,
    description: "how long events are kept for long polls, subscriptions and webhooks",
  }),
  verificationMode: choice({
    name: "VERIFICATION_MODE",
    choices: VERIFICATION_MODES,
    description:
      "who verifies agents: `social` (the spec's post on X), `admin` (the operator, through the admin API or CLI) or `none` (verified at registration); see [verification modes](docs/verification.md#verification-modes)",
  }),
  adminToken: token({
    name: "ADMIN_TOKEN",
    unset: "the admin API is off (404)",
    description:
      "the operator's bearer token for `/admin` and GraphQL's `admin` fields; see [admin API](docs/operating.md#admin-api)",
  }),
  metricsToken: token({
    name: "METRICS_TOKEN",
    unset: "`/metrics` is open",
    description: "the bearer token `/metrics` asks for; see [metrics](docs/operating.md#metrics)",
  }),
  logLevel: choice({
    name: "LOG_LEVEL",
    choices: ["info", ...LOG_LEVELS.filter((level) => level !== "info")],
    description: "the least level logged; see [logs](docs/operating.md#logs)",
  }),
  rateLimitRequestsPerSecond: integer({
    name: "RATE_LIMIT_REQUESTS_PER_SECOND",
    default: 20,
    min: 0,
    max: 1_000_000,
    description:
      "requests a second per API key, bursts up to twice that (`0`: off); see [rate limits](docs/operating.md#rate-limits)",
  }),
  rateLimitRegistrationsPerHour: integer({
    name: "RATE_LIMIT_REGISTRATIONS_PER_HOUR",
    default: 10,
    min: 0,
    max: 1_000_000,
    description: "`POST /agents` (and GraphQL `createAgent`) per client address an hour (`0`: off)",
  }),
  trustProxy: boolean({
    name: "TRUST_PROXY",
    default: false,
    description:
      "`true` takes the client's address from `X-Forwarded-For` (its first entry): only behind a proxy you run, which sets it",
  }),
  shutdownGraceMs: integer({
    name: "SHUTDOWN_GRACE_MS",
    default: 10_000,
    min: 0,
    max: 600_000,
    description:
      "on SIGTERM or SIGINT, how long requests under way may take to finish; see [shutdown](docs/operating.md#shutdown)",
  }),
  trashRetentionDays: integer({
    name: "TRASH_RETENTION_DAYS",
    default: 30,
    min: 0,
    max: 36_500,
    description:
      "days mail stays in the trash before it is deleted for good (`0`: until the agent deletes it); see [retention](docs/operating.md#retention)",
  }),
  webhookAllowPrivate: boolean({
    name: "WEBHOOK_ALLOW_PRIVATE",
    default: false,
    description: "`true` lets webhooks use `http://` and private addresses; see [webhooks](docs/events.md#webhooks)",
  }),
  graphqlIntrospection: boolean({
    name: "GRAPHQL_INTROSPECTION",
    default: true,
    description: "`false` refuses schema introspection and turns GraphiQL off",
  }),
  dnsServers,
  corsOrigins,
  wireNames: choice({
    name: "WIRE_NAMES",
    choices: ["spec", "clawmail"] as const,
    description:
      "`clawmail` answers REST with ClawMail's names; see [coming from ClawMail](docs/integrations.md#coming-from-clawmail)",
  }),
  trustedAuthservId: mapped(
    optionalText({
      name: "TRUSTED_AUTHSERV_ID",
      unset: "the service checks mail itself",
      expected: "a server name",
      valid: (v) => HOSTNAME.test(v),
      description:
        "the server name whose `Authentication-Results` header is believed instead (your MX, which must remove such headers from incoming mail), in mail it handed over: the catch-all's, the LMTP door's, `/inbound/raw`'s; the SMTP door that is the MX checks its own",
    }),
    (id) => id?.toLowerCase() ?? null,
  ),
  trustedMxHosts: hostNames({
    name: "TRUSTED_MX_HOSTS",
    unset: "SPF is not checked for the catch-all's mail nor the LMTP door's (DKIM and DMARC still are)",
    description:
      "your receiving hosts' names, as they write themselves after `by` in `Received` lines (`mx.example.com,imap.example.com`): SPF checks the first hop from outside that they recorded, never a line the sender wrote ([which client SPF checks](docs/receiving.md#which-client-spf-checks))",
  }),
  rspamdUrl: optionalText({
    name: "RSPAMD_URL",
    unset: "mail is not scanned for spam",
    expected: "an http:// URL",
    valid: (v) => /^http:\/\/[^/\s]+\/?$/.test(v),
    description:
      "Rspamd's normal worker (`http://127.0.0.1:11333`): every inbound message is scanned before it is filed ([filtering](docs/filtering.md))",
  }),
  rspamdRequired: scannerRequired({
    name: "RSPAMD_REQUIRED",
    scanner: "RSPAMD_URL",
    description:
      "while Rspamd does not answer, the SMTP door answers 451 (the sender tries again) instead of filing mail unscanned (set with `RSPAMD_URL` only); see [when a scanner cannot answer](docs/filtering.md#when-a-scanner-cannot-answer)",
  }),
  clamavUrl: optionalText({
    name: "CLAMAV_URL",
    unset: "mail is not scanned for malware",
    expected: "tcp://host:port or unix:///path/to/clamd.ctl",
    valid: (v) => clamdAddress(v) !== null,
    description:
      "clamd (`unix:///run/clamav/clamd.ctl` or `tcp://127.0.0.1:3310`): infected mail is refused at the SMTP door, else quarantined ([filtering](docs/filtering.md))",
  }),
  clamavRequired: scannerRequired({
    name: "CLAMAV_REQUIRED",
    scanner: "CLAMAV_URL",
    description:
      "while clamd does not answer, the SMTP door answers 451 (the sender tries again) instead of filing mail unscanned (set with `CLAMAV_URL` only); see [when a scanner cannot answer](docs/filtering.md#when-a-scanner-cannot-answer)",
  }),
  feedbackLoopDomains: hostNames({
    name: "FEEDBACK_LOOP_DOMAINS",
    unset: "none",
    description:
      "domains of feedback loops you signed up to: a complaint (ARF) DKIM-signed by one of them is believed wherever it arrives ([delivery reports](docs/delivery.md#which-reports-are-believed))",
  }),
};

export type Config = ValuesOf<typeof SETTINGS>;
export type SmtpIngressConfig = NonNullable<Config["smtpIngress"]>;

export function loadConfig(env: Env): Config {
  return group(SETTINGS).read(env);
}

/** Every variable loadConfig reads, in the README's order. */
export const VARIABLES: readonly Variable[] = Object.values(SETTINGS).flatMap((setting) => setting.variables);

/** "NAME is not set: " and what that means, in plain words (for a terminal or a log). */
export function notSet(name: string): string {
  const { default: fallback } = variableNamed(name);
  const words = "unset" in fallback ? fallback.unset : `it is ${fallback.value}`;
  return `${name} is not set: ${words.replaceAll("`", "")}`;
}

/** Said by doctor and the start-up log when neither way in for outside mail is set. */
export const NO_WAY_IN =
  "neither IMAP_URL nor SMTP_INGRESS_PORT is set: only mail between this instance's agents is received";

/** The variable of this name; a name not declared is a fault of the caller. */
export function variableNamed(name: string): Variable {
  const found = VARIABLES.find((variable) => variable.name === name);
  if (!found) throw new Error(`no variable ${name}`);
  return found;
}

// ---- The README's table.

/** Text shown as it is in a table cell: no HTML tags, emphasis or cell breaks. */
const literal = (text: string) =>
  text
    .replaceAll("<", "&lt;")
    .replaceAll(">", "&gt;")
    .replace(/[*|]/g, (c) => `\\${c}`);

/** The README's configuration table, one row a variable. */
export function configurationTable(): string {
  const rows = VARIABLES.map((variable) => {
    const fallback = "unset" in variable.default ? `unset: ${variable.default.unset}` : `\`${variable.default.value}\``;
    return `| \`${variable.name}\` | ${fallback} | ${literal(variable.expected)} | ${variable.description} |`;
  });
  return ["| variable | default | takes | meaning |", "|---|---|---|---|", ...rows].join("\n");
}
