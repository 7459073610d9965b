import { createHash, randomBytes } from "node:crypto";
import { copyFileSync, existsSync, mkdtempSync, renameSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll } from "vitest";
import { loadConfig } from "../config.ts";
import { openDatabase } from "../db/client.ts";
import { migrate, migrationsOf } from "../db/migrate.ts";
import { parseMessage, readHead } from "../inbound/parse.ts";
import type { Logger } from "../log.ts";
import { findAgent, sealReviewSecrets } from "../mailbox/admin.ts";
import { addressOf, type Creator, createAgent } from "../mailbox/agents.ts";
import { NOT_EVALUATED } from "../mailbox/authentication.ts";
import { ensureConfiguredDomains } from "../mailbox/domains.ts";
import { type DraftReader, isPending } from "../mailbox/drafts.ts";
import { agentEvents } from "../mailbox/events.ts";
import { type Filed, fileDelivered } from "../mailbox/filing.ts";
import { NOT_SCANNED, type Scans } from "../mailbox/inspection.ts";
import { attachmentContents } from "../mailbox/mime.ts";
import { type SendInput, sendEmail } from "../mailbox/outbox.ts";
import type { AgentRecord, SentRecord } from "../mailbox/records.ts";
import { ensureReturnPathKey } from "../mailbox/return-path.ts";
import type { Services } from "../mailbox/services.ts";
import { createMetrics } from "../metrics.ts";
import { type Delivery, type Envelope, type FinalOutcome, type Mailer, NotDelivered } from "../outbound/delivery.ts";
import { servicesFor } from "../services.ts";
import type { SocialPost } from "../social/posts.ts";

// The fast loop's harness: the domain's services as the service puts them
// together (servicesFor, the same start-up steps), over a SQLite database
// migrated with the committed migrations (once, then copied), in memory: a
// file on tmpfs (/dev/shm), since the store opens three connections to one
// database and SQLite's ":memory:" would give each its own. A clock the test
// moves, a provider that keeps what it is handed, a post lookup the test
// fills, messages read in the test's thread, and no network: no Dovecot,
// Chromium or PostgreSQL. Unit tests beside the code (src/**/*.test.ts) use
// it; each file opens one and closes it.

/** A clock that stands still until the test moves it. */
export class FakeClock {
  #now: Date;
  constructor(start = new Date("2026-11-20T10:00:00.000Z")) {
    this.#now = start;
  }
  now = (): Date => new Date(this.#now);
  advance(ms: number): void {
    this.#now = new Date(this.#now.getTime() + ms);
  }
}

/** A message the provider was handed. */
export interface Handed {
  envelope: Envelope;
  raw: string;
}

/** What the provider answers the next send; accepted unless the test says otherwise. */
export type ProviderAnswer = "accept" | "refuse" | "unreachable" | { unconfirmed: Promise<FinalOutcome> };

/** A provider that keeps every message and answers as the test says. */
export class FakeMailer implements Mailer {
  readonly handed: Handed[] = [];
  #answers: ProviderAnswer[] = [];

  /** The answers of the next sends, in order; after them, "accept". */
  answerNext(...answers: ProviderAnswer[]): void {
    this.#answers.push(...answers);
  }

  async send(envelope: Envelope, raw: Buffer): Promise<Delivery> {
    const answer = this.#answers.shift() ?? "accept";
    if (answer === "refuse") throw new NotDelivered("550 refused");
    if (answer === "unreachable") throw new NotDelivered("connection refused", true);
    this.handed.push({ envelope, raw: raw.toString("latin1") });
    if (answer === "accept") return { outcome: "accepted", queueId: `q${this.handed.length}` };
    return { outcome: "unconfirmed", final: answer.unconfirmed };
  }

  close(): void {}
}

export interface LogLine {
  level: string;
  event: string;
  fields: Record<string, unknown>;
}

export interface Memory {
  services: Services;
  clock: FakeClock;
  mailer: FakeMailer;
  logs: LogLine[];
  /** Posts the verification lookup finds, by canonical URL. */
  posts: Map<string, SocialPost>;
  /** Files a message to the agent, its To its address; headers given replace rawMessage's. */
  mailTo(agent: AgentRecord, headers?: Record<string, string>, body?: string): Promise<Filed[]>;
  /** Sends as sendEmail does, a send that goes at once: its sent record (a send that waits fails the test). */
  sendNow(agent: AgentRecord, input: SendInput, idempotencyKey?: string): Promise<SentRecord>;
  /** The types of the agent's events, oldest first. */
  eventTypes(agent: AgentRecord): Promise<string[]>;
  /** An agent of the default domain; verified unless made by "self" on an instance that verifies. */
  agent(id: string, by?: Creator): Promise<AgentRecord>;
  /** An agent as its primary key acts on its drafts: shown each of them. */
  writer(id: string): Promise<AgentRecord & DraftReader>;
  /** The agent as it is stored now. */
  reload(agent: AgentRecord): Promise<AgentRecord>;
  /** Files a raw message for its recipients, as the SMTP door does after reading it; MAIL FROM is its From unless given ("" for a report's <>). */
  receive(raw: string, recipients: string[], mailFrom?: string, scans?: Scans): Promise<Filed[]>;
  close(): Promise<void>;
}

/** tmpfs where there is one: the database stays in memory. */
const MEMORY_DIR = existsSync("/dev/shm") ? "/dev/shm" : tmpdir();

/** The environment every memory starts from: request limits off. */
const BASE_ENV = {
  MAIL_DOMAIN: "agents.example",
  PUBLIC_URL: "https://mail.agents.example",
  RATE_LIMIT_REQUESTS_PER_SECOND: "0",
  RATE_LIMIT_REGISTRATIONS_PER_HOUR: "0",
};

interface Started {
  services: Services;
  clock: FakeClock;
  mailer: FakeMailer;
  logs: LogLine[];
  posts: Map<string, SocialPost>;
  close(): Promise<void>;
}

/** The domain's services over a database file, put together and started as startService does. */
async function startServices(file: string, env: Record<string, string>): Promise<Started> {
  const config = loadConfig({ ...BASE_ENV, DATABASE_URL: `file:${file}`, ...env });
  const database = await openDatabase(config.databaseUrl);
  const clock = new FakeClock();
  const mailer = new FakeMailer();
  const logs: LogLine[] = [];
  const log: Logger = (level, event, fields = {}) => logs.push({ level, event, fields });
  const posts = new Map<string, SocialPost>();
  const parts = { config, clock, log, mailer, inbound: null, outbound: null, metrics: createMetrics(null) };
  const services: Services = {
    ...servicesFor(database, parts),
    posts: { find: async (url) => posts.get(url.canonical) ?? null },
    // Mail between agents here is read in this thread, as the reader threads would read it.
    reader: { read: (raw) => parseMessage(raw, { derive: true }), attachments: attachmentContents, head: readHead },
  };
  await ensureConfiguredDomains(services);
  await sealReviewSecrets(services);
  await ensureReturnPathKey(services);
  const close = async () => {
    await services.wakeups.close();
    await services.takeover.close();
    await database.close();
  };
  return { services, clock, mailer, logs, posts, close };
}

/**
 * A database with every migration applied and the default domain made (its
 * DKIM key takes a second to generate), named by the migrations' text: made
 * once (by whichever process comes first, then renamed into place whole),
 * kept in MEMORY_DIR for later runs, and copied for each memory.
 */
let template: Promise<string> | null = null;

function startedTemplate(): Promise<string> {
  template ??= (async () => {
    const text = JSON.stringify([BASE_ENV, migrationsOf("sqlite")]);
    const file = join(MEMORY_DIR, `pigeonhole-unit-${createHash("sha256").update(text).digest("hex").slice(0, 16)}.db`);
    if (existsSync(file)) return file;
    const dir = mkdtempSync(join(MEMORY_DIR, "pigeonhole-template-"));
    const database = await openDatabase(`file:${join(dir, "template.db")}`);
    await migrate(database);
    await database.close();
    // Closing its last connection checkpoints the write-ahead log into the file: one file to copy.
    await (await startServices(join(dir, "template.db"), {})).close();
    renameSync(join(dir, "template.db"), file);
    rmSync(dir, { recursive: true, force: true });
    return file;
  })();
  return template;
}

/**
 * Services over a new, migrated database of their own. The environment is
 * the service's (loadConfig), with request limits off and mail sent through
 * the fake provider unless `env` says otherwise.
 */
export async function openMemory(env: Record<string, string> = {}): Promise<Memory> {
  const dir = mkdtempSync(join(MEMORY_DIR, "pigeonhole-unit-"));
  copyFileSync(await startedTemplate(), join(dir, "unit.db"));
  const { services, clock, mailer, logs, posts, close } = await startServices(join(dir, "unit.db"), env);
  const memory: Memory = {
    services,
    clock,
    mailer,
    logs,
    posts,
    mailTo: (agent, headers = {}, body = undefined) => {
      const address = addressOf(agent, services.config);
      return memory.receive(rawMessage({ To: address, ...headers }, body), [address]);
    },
    sendNow: async (agent, input, idempotencyKey) => {
      const result = await sendEmail(services, agent, input, idempotencyKey);
      if (isPending(result)) throw new Error("the send waits");
      return result;
    },
    eventTypes: async (agent) => (await agentEvents(services, agent, {})).data.map((event) => event.type),
    agent: async (id, by = "operator") => (await createAgent(services, { id, name: `Agent ${id}` }, by)).agent,
    writer: async (id) => ({ ...(await memory.agent(id)), readsMail: true }),
    reload: (agent) => findAgent(services, agent.id),
    receive: async (raw, recipients, mailFrom, scans = NOT_SCANNED) => {
      const bytes = Buffer.from(raw.replace(/\r?\n/g, "\r\n"));
      const message = await parseMessage(bytes, { derive: true });
      return fileDelivered(services, {
        uid: 0n,
        raw: bytes,
        message,
        authentication: NOT_EVALUATED,
        scans,
        recipients,
        envelope: { from: mailFrom ?? message.from.address, to: recipients },
      });
    },
    close: async () => {
      await close();
      rmSync(dir, { recursive: true, force: true });
    },
  };
  return memory;
}

/**
 * The memory a test file's tests share, opened (with `env`, as openMemory
 * takes it) before the first and closed after the last. Its members are there
 * once the tests run.
 */
export function memoryOfFile(env: Record<string, string> = {}): Memory {
  const memory = {} as Memory;
  beforeAll(async () => {
    Object.assign(memory, await openMemory(env));
  });
  afterAll(() => memory.close());
  return memory;
}

/** A message as a sender's server would hand it over; headers given replace the defaults. */
export function rawMessage(headers: Record<string, string>, body = "Hello."): string {
  const all = {
    From: "Pat <pat@sender.example>",
    To: "scout@agents.example",
    Subject: "Hello",
    Date: "Fri, 20 Nov 2026 09:00:00 +0000",
    "Message-ID": `<${randomBytes(8).toString("hex")}@sender.example>`,
    ...headers,
  };
  const lines = Object.entries(all).map(([name, value]) => `${name}: ${value}`);
  return `${lines.join("\r\n")}\r\n\r\n${body}\r\n`;
}
