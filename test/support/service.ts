import { randomBytes } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { loadConfig } from "../../src/config.ts";
import { openDatabase } from "../../src/db/client.ts";
import type { Logger } from "../../src/log.ts";
import { type RunningService, startService } from "../../src/server/service.ts";
import { emptyZone } from "./dns-server.ts";

// Starts the real service on a free port against a fresh database of the
// project's kind (TEST_DATABASE: sqlite or postgresql), with a clock the test
// moves and a log it can read. The cleanup job's minute timer is paused, since
// it would fire on the moved clock at random; tests run it with trigger().

export const POSTGRES_URL = "postgresql://postgres@127.0.0.1:5432/test";

export class ManualClock {
  #offset = 0;
  now = () => new Date(Date.now() + this.#offset);
  advance(ms: number): void {
    this.#offset += ms;
  }
}

export interface LogLine {
  level: string;
  event: string;
  fields: Record<string, unknown>;
  /** Which instance logged it: 0 the first, then in order of startAnother(). */
  instance: number;
}

export interface TestDatabase {
  url: string;
  drop(): Promise<void>;
}

/** A database no other test file sees: a new SQLite file or a new PostgreSQL schema. */
export function freshDatabase(): TestDatabase {
  if (process.env.TEST_DATABASE === "postgresql") {
    const schema = `t_${randomBytes(6).toString("hex")}`;
    return {
      url: `${POSTGRES_URL}?schema=${schema}`,
      drop: async () => {
        const { prisma } = await openDatabase(POSTGRES_URL);
        await prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
        await prisma.$disconnect();
      },
    };
  }
  const dir = mkdtempSync(join(tmpdir(), "pigeonhole-test-"));
  return { url: `file:${join(dir, "test.db")}`, drop: async () => rmSync(dir, { recursive: true, force: true }) };
}

export interface TestService {
  url: string;
  clock: ManualClock;
  logs: LogLine[];
  service: RunningService;
  /** Every instance started, the first one first. */
  instances: RunningService[];
  /** Another instance on the same database, as a second server would run. */
  startAnother(): Promise<RunningService>;
  stopInstance(index: number): Promise<void>;
  stop(): Promise<void>;
}

/**
 * The port an instance's SMTP door listens on, the first instance's unless told, read from its log: tests open
 * their doors with SMTP_INGRESS_PORT "0", and the system picks the port as the door binds it.
 */
export function doorPort(svc: Pick<TestService, "logs">, instance = 0): number {
  const listening = svc.logs.find((line) => line.event === "smtp_ingress_listening" && line.instance === instance);
  if (!listening) throw new Error(`instance ${instance} has no SMTP door`);
  return listening.fields.port as number;
}

export async function startTestService(
  env: Record<string, string> = {},
  database = freshDatabase(),
): Promise<TestService> {
  const clock = new ManualClock();
  const logs: LogLine[] = [];
  // Tests call fast with few keys from one address: the request limits are off unless a test sets them.
  const base = {
    PORT: "0",
    HOST: "127.0.0.1",
    DATABASE_URL: database.url,
    DNS_SERVERS: await emptyZone(),
    RATE_LIMIT_REQUESTS_PER_SECOND: "0",
    RATE_LIMIT_REGISTRATIONS_PER_HOUR: "0",
  };
  const config = loadConfig({ ...base, ...env });
  const instances: RunningService[] = [];
  const stopped = new Set<number>();
  let started = 0;
  const start = async () => {
    const index = started++;
    const log: Logger = (level, event, fields = {}) => logs.push({ level, event, fields, instance: index });
    const instance = await startService(config, clock, log);
    instance.cleanup.pause();
    instances[index] = instance;
    return instance;
  };
  const stopInstance = async (index: number) => {
    if (stopped.has(index)) return;
    stopped.add(index);
    await instances[index]?.stop();
  };
  const service = await start();
  return {
    url: service.url,
    clock,
    logs,
    service,
    instances,
    startAnother: start,
    stopInstance,
    async stop() {
      for (let index = instances.length - 1; index >= 0; index--) await stopInstance(index);
      await database.drop();
    },
  };
}

/** Runs `run` against a service of its own, stopped afterwards whatever happens. */
export async function withService<T>(env: Record<string, string>, run: (svc: TestService) => Promise<T>): Promise<T> {
  const svc = await startTestService(env);
  try {
    return await run(svc);
  } finally {
    await svc.stop();
  }
}
