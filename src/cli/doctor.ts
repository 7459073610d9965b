import { existsSync } from "node:fs";
import { connect } from "node:net";
import { systemClock } from "../clock.ts";
import { type Config, NO_WAY_IN, notSet } from "../config.ts";
import { openDatabase, providerOf, type Store } from "../db/client.ts";
import { pingDatabase } from "../db/health.ts";
import { pendingMigrations } from "../db/migrate.ts";
import { pingClamd } from "../inbound/scanners/clamav.ts";
import { pingRspamd } from "../inbound/scanners/rspamd.ts";
import { keyCounts, reviewerCoverage } from "../mailbox/admin.ts";
import { selfRegisteredReserved } from "../mailbox/agents.ts";
import { publishedRecords, type RecordCheck, recordsToPublish } from "../mailbox/domains.ts";

// `pigeonhole doctor`: what would keep this instance from working, checked
// against the real database, IMAP server, SMTP provider, the service's own
// SMTP door, DNS and the scanners (Rspamd, clamd) when configured, each said
// in a sentence. Never a password in what it says.

export interface Finding {
  check: string;
  status: "ok" | "warn" | "fail";
  detail: string;
}

const TIMEOUT_MS = 10_000;

/** The gist of a failure, as the server worded it when it did. */
function reasonOf(error: unknown): string {
  const { responseText, response, message } = error as { responseText?: string; response?: string; message?: string };
  return (responseText ?? response ?? message ?? String(error)).trim();
}

function configuration(config: Config): Finding[] {
  const notes: Finding[] = [];
  const warn = (detail: string) => notes.push({ check: "configuration", status: "warn", detail });
  if (/^http:\/\/localhost:/.test(config.publicUrl))
    warn(`PUBLIC_URL is ${config.publicUrl}: links shown to people point at this machine`);
  if (config.verificationMode === "none") warn("VERIFICATION_MODE=none: every agent is verified as it registers");
  if (!config.imap && !config.smtpIngress) warn(NO_WAY_IN);
  else if (config.imap && config.trustedMxHosts.length === 0 && config.trustedAuthservId === null)
    warn(notSet("TRUSTED_MX_HOSTS"));
  if (!config.smtp) warn(notSet("SMTP_URL"));
  if (!config.adminToken) warn(notSet("ADMIN_TOKEN"));
  return notes.length > 0 ? notes : [{ check: "configuration", status: "ok", detail: "loaded" }];
}

/**
 * Why the CLI must not open the database, or null: it never makes one, and
 * SQLite would make the file it is pointed at. The service's default file is
 * relative to where it runs: the CLI run from another directory would make a
 * new, empty database there.
 */
export function databaseNotChosen(config: Config, env: NodeJS.ProcessEnv): string | null {
  const file = config.databaseUrl.slice("file:".length);
  if (providerOf(config.databaseUrl) !== "sqlite" || existsSync(file)) return null;
  if (env.DATABASE_URL === undefined) {
    return `No database at ${file} (the default, relative to this directory): run pigeonhole where the service runs, or set DATABASE_URL`;
  }
  return `No database at ${file} (DATABASE_URL): pigeonhole never makes one; check the path, or start the service once to make it`;
}

async function database(config: Config): Promise<Finding[]> {
  const check = "database";
  const notChosen = databaseNotChosen(config, process.env);
  if (notChosen) return [{ check, status: "fail", detail: notChosen }];
  try {
    const db = await openDatabase(config.databaseUrl);
    try {
      await pingDatabase(db);
      const pending = await pendingMigrations(db);
      const kind = db.provider === "sqlite" ? "SQLite" : "PostgreSQL";
      if (pending.length > 0) {
        const detail = `${kind} answers, but ${pending.length} migrations are pending: run pigeonhole migrate`;
        return [{ check, status: "fail", detail }];
      }
      const answers: Finding = { check, status: "ok", detail: `${kind} answers and every migration is applied` };
      return [
        answers,
        await reservedNames(db, config),
        await dkimRecords(db),
        ...(await dnsRecords(db, config)),
        await agentReviewers(db, config),
        await keys(db),
      ];
    } finally {
      await db.close();
    }
  } catch (error) {
    return [{ check, status: "fail", detail: `the database does not answer: ${reasonOf(error)}` }];
  }
}

/** Agents that registered with an id reserved since: listed for the operator, never deleted. */
async function reservedNames(store: Store, config: Config): Promise<Finding> {
  const check = "reserved names";
  const holders = await selfRegisteredReserved(store, config);
  if (holders.length === 0) return { check, status: "ok", detail: "no agent registered itself with a reserved id" };
  const listed = holders.map((agent) => `${agent.email} (${agent.reason})`).join("; ");
  return {
    check,
    status: "warn",
    detail: `${holders.length} agents registered themselves with an id reserved for the domain's operator, and receive its mail: ${listed}. Delete them (pigeonhole agents delete <id>) unless you know whose they are`,
  };
}

/** Agents' own reviewers, and agents whose held mail reaches nobody (no reviewer of theirs nor of the instance). */
async function agentReviewers(store: Store, config: Config): Promise<Finding> {
  const check = "agents' reviewers";
  const { own, untold } = await reviewerCoverage(store, config);
  const mine = `${own} agents have a reviewer of their own`;
  if (untold.total === 0) return { check, status: "ok", detail: mine };
  const some = untold.total > untold.ids.length ? `${untold.ids.join(", ")} and others` : untold.ids.join(", ");
  return {
    check,
    status: "warn",
    detail: `${mine}; ${untold.total} agents' held mail reaches nobody (${some}): pigeonhole reviewer set <id>, or set REVIEWER_EMAIL`,
  };
}

/**
 * The keys besides each agent's primary one, agents' and pods': the operator's count of what was handed out, and of
 * expired keys (refused as wrong ones, kept until revoked).
 */
async function keys(store: Store): Promise<Finding> {
  const check = "keys";
  const { agents, pods, expired } = await keyCounts(store, systemClock.now());
  const held = `${agents} agents' keys and ${pods} pods' keys besides each agent's primary one`;
  const lapsed = `; ${expired} of them expired: refused, and listed until revoked (pigeonhole keys list, keys revoke)`;
  return { check, status: "ok", detail: expired === 0 ? held : held + lapsed };
}

/** DKIM keys that wait for their record: signing stays with the old key until then. */
async function dkimRecords(store: Store): Promise<Finding> {
  const check = "dkim";
  const waiting = await recordsToPublish(store);
  if (waiting.length === 0) return { check, status: "ok", detail: "no DKIM key waits to be published" };
  const listed = waiting.map((record) => record.name).join(", ");
  return {
    check,
    status: "warn",
    detail: `${waiting.length} new DKIM keys wait for their record: ${listed}. Publish each (pigeonhole domains show <domain> lists it), then run pigeonhole domains verify <domain>: signing moves to the new key once its record is found`,
  };
}

/** What a record is, in the words of the sentence about it. */
const kindOf = (check: RecordCheck) =>
  check.type === "MX" ? "MX" : check.name.includes("._domainkey.") ? `DKIM (${check.name})` : "SPF";

/** Each served domain's MX, SPF and DKIM records, as DNS_SERVERS (or the system's resolvers) answer now. */
async function dnsRecords(store: Store, config: Config): Promise<Finding[]> {
  const check = "dns";
  let domains: Awaited<ReturnType<typeof publishedRecords>>;
  try {
    domains = await publishedRecords(store, config);
  } catch (error) {
    return [{ check, status: "warn", detail: `DNS could not be asked: ${reasonOf(error)}` }];
  }
  return domains.map(({ domain, checks }): Finding => {
    if (checks === null) {
      return { check, status: "warn", detail: `${domain} is no name in DNS: only agents here can write to it` };
    }
    const wrong = checks.filter((record) => record.status !== "ok");
    if (wrong.length === 0) return { check, status: "ok", detail: `${domain}: MX, SPF and DKIM are published` };
    const listed = wrong.map((record) => `${kindOf(record)} ${record.status}`).join(", ");
    return {
      check,
      status: "warn",
      detail: `${domain}: ${listed}; pigeonhole domains show ${domain} lists what to publish`,
    };
  });
}

/** The first line a server greets a connection with. */
function greetingAt(host: string, port: number): Promise<string> {
  return new Promise((resolve, reject) => {
    const socket = connect({ host, port });
    let text = "";
    socket.setTimeout(TIMEOUT_MS, () => socket.destroy(new Error(`no greeting within ${TIMEOUT_MS / 1000} s`)));
    socket.on("data", (chunk: Buffer) => {
      text += chunk.toString("latin1");
      const end = text.indexOf("\r\n");
      if (end < 0) return;
      resolve(text.slice(0, end));
      socket.end("QUIT\r\n");
    });
    socket.once("error", reject);
    socket.once("close", () => reject(new Error("the connection closed before a greeting")));
  });
}

/** The service's own SMTP door, as a sending server meets it: listening, and greeting with 220. */
async function smtpDoor({ smtpIngress: door }: Config): Promise<Finding | null> {
  if (!door) return null;
  const check = "smtp door";
  const host = door.host === "0.0.0.0" ? "127.0.0.1" : door.host === "::" ? "::1" : door.host;
  const where = `${host}:${door.port}`;
  try {
    const greeting = await greetingAt(host, door.port);
    if (/^220[ -]/.test(greeting)) return { check, status: "ok", detail: `${where} greets: ${greeting}` };
    return { check, status: "fail", detail: `${where} greets with ${JSON.stringify(greeting)}, not 220` };
  } catch (error) {
    return {
      check,
      status: "fail",
      detail: `nothing greets at ${where} (SMTP_INGRESS_PORT): is the service running? ${reasonOf(error)}`,
    };
  }
}

async function imap({ imap: settings }: Config): Promise<Finding | null> {
  if (!settings) return null;
  const check = "imap";
  const where = `${settings.host}:${settings.port} as ${settings.user}`;
  // Loaded by the check that uses it: every other command of the CLI starts without it.
  const { ImapFlow } = await import("imapflow");
  const client = new ImapFlow({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: { user: settings.user, pass: settings.password },
    logger: false,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
  });
  client.on("error", () => {});
  try {
    await client.connect();
  } catch (error) {
    return { check, status: "fail", detail: `could not log in to ${where}: ${reasonOf(error)}` };
  }
  try {
    const status = await client.status(settings.mailbox, { messages: true });
    if (!status) throw new Error("the server gave no status");
    return {
      check,
      status: "ok",
      detail: `logged in to ${where}; ${settings.mailbox} holds ${status.messages} messages`,
    };
  } catch (error) {
    return {
      check,
      status: "fail",
      detail: `logged in to ${where}, but mailbox ${settings.mailbox} cannot be read: ${reasonOf(error)}`,
    };
  } finally {
    await client.logout().catch(() => {});
  }
}

async function smtp({ smtp: settings }: Config): Promise<Finding | null> {
  if (!settings) return null;
  const check = "smtp";
  const where = `${settings.host}:${settings.port}`;
  const { default: nodemailer } = await import("nodemailer");
  const transport = nodemailer.createTransport({
    host: settings.host,
    port: settings.port,
    secure: settings.secure,
    auth: settings.user ? { user: settings.user, pass: settings.password } : undefined,
    connectionTimeout: TIMEOUT_MS,
    greetingTimeout: TIMEOUT_MS,
  });
  try {
    await transport.verify();
    const as = settings.user ? ` and authenticated as ${settings.user}` : " (no AUTH configured)";
    return { check, status: "ok", detail: `connected to ${where}${as}` };
  } catch (error) {
    return { check, status: "fail", detail: `the provider at ${where} refused or did not answer: ${reasonOf(error)}` };
  } finally {
    transport.close();
  }
}

/** What becomes of inbound mail while a scanner does not answer: filed unscanned, or 451 where it is required. */
const meanwhile = (required: boolean, variable: string, unscanned: string) =>
  required ? `the SMTP door answers 451 until it does (${variable})` : unscanned;

/** Rspamd, when RSPAMD_URL is set: its ping answers pong. */
async function rspamd({ rspamdUrl: url, rspamdRequired }: Config): Promise<Finding | null> {
  if (!url) return null;
  const check = "rspamd";
  const why = await pingRspamd(url, { timeoutMs: TIMEOUT_MS });
  if (why === null) return { check, status: "ok", detail: `${url} answers: inbound mail is scanned for spam` };
  const then = meanwhile(rspamdRequired, "RSPAMD_REQUIRED", "mail is filed unscanned until it does");
  return { check, status: "fail", detail: `${url} (RSPAMD_URL) does not answer: ${why} Meanwhile ${then}` };
}

/** clamd, when CLAMAV_URL is set: it answers PING with PONG. */
async function clamav({ clamavUrl: url, clamavRequired }: Config): Promise<Finding | null> {
  if (!url) return null;
  const check = "clamav";
  const why = await pingClamd(url, { timeoutMs: TIMEOUT_MS });
  if (why === null)
    return { check, status: "ok", detail: `clamd at ${url} answers: inbound mail is scanned for malware` };
  const then = meanwhile(clamavRequired, "CLAMAV_REQUIRED", "mail is filed unscanned for malware");
  return { check, status: "fail", detail: `clamd at ${url} (CLAMAV_URL) does not answer: ${why} Meanwhile ${then}` };
}

/** Where held mail's review links go for agents without a reviewer of their own, and whether they can get there. */
function reviewer(config: Config): Finding {
  const check = "reviewer";
  const { email, webhook } = config.reviewer;
  const told = [email, webhook && new URL(webhook.url).origin].filter((to) => to !== null);
  if (email !== null && !config.smtp) {
    return {
      check,
      status: "warn",
      detail: "REVIEWER_EMAIL is set but SMTP_URL is not: the reviewer cannot be mailed",
    };
  }
  if (told.length > 0) return { check, status: "ok", detail: `held mail's review links go to ${told.join(" and ")}` };
  const held = config.sendPolicy !== "open" ? `SEND_POLICY=${config.sendPolicy} holds mail, but ` : "";
  return {
    check,
    status: held ? "warn" : "ok",
    detail: `${held}no reviewer is set (REVIEWER_EMAIL, REVIEWER_WEBHOOK_URL): nobody is told of held mail, unless the operator gave its agent a reviewer; decide it with GET /admin/held or pigeonhole held`,
  };
}

export async function doctor(config: Config): Promise<Finding[]> {
  const [db, inbound, door, outbound, spam, malware] = await Promise.all([
    database(config),
    imap(config),
    smtpDoor(config),
    smtp(config),
    rspamd(config),
    clamav(config),
  ]);
  const reached = [inbound, door, outbound, spam, malware].filter((f): f is Finding => f !== null);
  return [...configuration(config), ...db, ...reached, reviewer(config)];
}
