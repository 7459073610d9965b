// Speed and memory of the service against this machine's floor, in one run.
//   npm run bench                        SQLite in a temporary directory
//   npm run bench -- --db postgres       PostgreSQL at 127.0.0.1:5432, database test, a schema of its own
//   npm run bench -- --only "GET agent"  one scenario (and its setup); several, separated by commas
//   npm run bench -- --compare <dir>     another build (a checkout with node_modules and dist/) against
//                                        this one: CPU per request of each, interleaved (HTTP scenarios)
//   npm run bench -- --compare <dir> --slices 24   more turns each (6 unless given), for a smaller change
// Each HTTP scenario is measured against a floor server written for it alone
// (node:http and the database driver over the same database, answering the
// same bytes), with autocannon in a process of its own, service and floor
// alternating twice. Prints a table and writes bench/results.json. Asserts one
// thing only: mail that arrives while a scanner stops answering is filed once
// (said in the output; the run exits non-zero when it is not).

import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import type { AddressInfo } from "node:net";
import { cpus, tmpdir, totalmem } from "node:os";
import { join } from "node:path";
import nodemailer from "nodemailer";
import { SMTPServer } from "smtp-server";
import { openDatabase } from "../src/db/client.ts";
import { Clamd } from "../test/support/clamav.ts";
import { startDnsServer } from "../test/support/dns-server.ts";
import { Rspamd } from "../test/support/rspamd.ts";
import { bareIdler, bareIngest, benchMessage, Dovecot } from "./bench/mail.ts";
import {
  cpuMicros,
  type Load,
  type LoadResult,
  rssMiB,
  runLoad,
  runSends,
  type SendResult,
  type Started,
  seedIn,
  startFloor,
  startService,
} from "./bench/processes.ts";
import { seedSearch } from "./bench/search-seed.ts";
import { type Seeded, seed } from "./bench/seed.ts";
import { timedDelivery } from "./bench/smtp-probe.ts";
import { subscribe } from "./bench/streams.ts";

const args = process.argv.slice(2);
const postgres = args.includes("--db") && args[args.indexOf("--db") + 1]?.startsWith("postgres");
const only = args.includes("--only") ? args[args.indexOf("--only") + 1]?.split(",") : undefined;
const compared = args.includes("--compare") ? args[args.indexOf("--compare") + 1] : undefined;
const slices = args.includes("--slices") ? Number(args[args.indexOf("--slices") + 1]) : 6;
if (!Number.isInteger(slices) || slices < 1) {
  console.error("--slices takes a whole number of turns, 1 or more");
  process.exit(2);
}
const databaseName = postgres ? "postgresql" : "sqlite";
const SECONDS = 5;
/** How long the service is left alone after its start before its idle memory is read. */
const IDLE_SETTLE_MS = 3_000;
const CONNECTIONS = 16;
const DOMAIN = "bench.example";
const STORAGE_LIMIT = 2_147_483_647;
const EMAIL_FIELDS =
  "bodyText bodyHtml text replyText id agentId messageId from { address name } to subject receivedAt isRead folder labels threadId attachments { id filename contentType size inline contentId } preview links { url text } codes authentication { spf dkim dmarc arc verdict } autoSubmitted reportIgnored spam { status action score requiredScore symbols isSpam } malware { status } screening { verdict signals { excerpt } }";

const dir = mkdtempSync(join(tmpdir(), "pigeonhole-bench-"));
const cleanups: (() => Promise<unknown>)[] = [];
const results: Record<string, unknown> = {};
const wanted = (name: string) => only === undefined || only.includes(name);

/** A database of its own for each part of the run. */
function databaseUrl(name: string): string {
  if (!postgres) return `file:${join(dir, `${name}.db`)}`;
  const schema = `bench_${name}_${process.pid}`;
  cleanups.push(async () => {
    const { prisma } = await openDatabase("postgresql://postgres@127.0.0.1:5432/test");
    await prisma.$executeRawUnsafe(`DROP SCHEMA IF EXISTS "${schema}" CASCADE`);
    await prisma.$disconnect();
  });
  return `postgresql://postgres@127.0.0.1:5432/test?schema=${schema}`;
}

/** A DNS server on this machine with no records, closed at the end of the run: sender checks ask it. */
async function localDns() {
  const dns = await startDnsServer();
  cleanups.push(() => dns.close());
  return dns;
}

async function smtpSink(): Promise<string> {
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    logger: false,
    onData: (stream, _session, callback) => {
      stream.resume();
      stream.on("end", () => callback(null, "Message queued as BENCH"));
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  cleanups.push(() => new Promise<void>((resolve) => server.close(() => resolve())));
  return `smtp://127.0.0.1:${(server.server.address() as AddressInfo).port}`;
}

function line(label: string, ...cells: string[]): void {
  console.log(`${label.padEnd(28)} ${cells.map((c) => c.padStart(12)).join(" ")}`);
}

const fixed = (n: number, digits = 0) => n.toFixed(digits);

interface Scenario {
  name: string;
  load: Load;
  sameBytes: boolean;
}

function httpScenarios(seeded: Seeded): Scenario[] {
  const { agent, emailId } = seeded;
  const auth = { authorization: `Bearer ${agent.apiKey}` };
  const json = { ...auth, "content-type": "application/json" };
  const graphql = (query: string) => JSON.stringify({ query });
  return [
    { name: "GET agent", sameBytes: true, load: { method: "GET", path: `/agents/${agent.id}`, headers: auth } },
    {
      name: "GraphQL agent",
      sameBytes: true,
      load: {
        method: "POST",
        path: "/graphql",
        headers: json,
        body: graphql(
          `{ agent(id: "${agent.id}") { id email name createdAt verified verifiedAt storageUsed storageLimit } }`,
        ),
      },
    },
    {
      name: "list of 50",
      sameBytes: true,
      load: { method: "GET", path: `/agents/${agent.id}/emails?limit=50`, headers: auth },
    },
    {
      name: "GraphQL list of 50",
      sameBytes: true,
      load: {
        method: "POST",
        path: "/graphql",
        headers: json,
        body: graphql(
          `{ agent(id: "${agent.id}") { emails(limit: 50) { data { ${EMAIL_FIELDS} } total limit offset } } }`,
        ),
      },
    },
    {
      name: "one email",
      sameBytes: true,
      load: { method: "GET", path: `/agents/${agent.id}/emails/${emailId}`, headers: auth },
    },
    {
      name: "PATCH email",
      sameBytes: true,
      load: {
        method: "PATCH",
        path: `/agents/${agent.id}/emails/${emailId}`,
        headers: json,
        body: JSON.stringify({ isRead: true }),
      },
    },
    {
      name: "POST /send",
      sameBytes: false,
      load: {
        method: "POST",
        path: `/agents/${agent.id}/send`,
        headers: json,
        body: JSON.stringify({ to: "sink@example.com", subject: "Benchmark", text: "A short note." }),
      },
    },
  ];
}

async function answer(base: string, load: Load): Promise<{ status: number; text: string }> {
  const response = await fetch(base + load.path, { method: load.method, headers: load.headers, body: load.body });
  return { status: response.status, text: await response.text() };
}

/** The service must answer what the floor answers before either is measured. */
async function checkSameAnswer(name: string, service: Started, floor: Started, load: Load, sameBytes: boolean) {
  const [ours, theirs] = [await answer(service.url, load), await answer(floor.url, load)];
  const shape = (text: string) => Object.keys(JSON.parse(text)).join(",");
  const same = sameBytes ? ours.text === theirs.text : shape(ours.text) === shape(theirs.text);
  if (ours.status !== theirs.status || !same) {
    throw new Error(
      `${name}: service and floor answer differently:\n${ours.text.slice(0, 400)}\n${theirs.text.slice(0, 400)}`,
    );
  }
}

const pct = (values: number[], p: number) =>
  [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) * p)] ?? 0;

const mean = (values: number[]) => values.reduce((sum, v) => sum + v, 0) / values.length;

/** The service's resident memory, sampled every 200 ms while a load runs against it. */
async function sampledLoad(service: Started, load: Load, samples: number[]): Promise<LoadResult> {
  const sampler = setInterval(() => samples.push(rssMiB(service.child.pid)), 200);
  try {
    return await runLoad(service.url, load, CONNECTIONS, SECONDS);
  } finally {
    clearInterval(sampler);
  }
}

async function measureHttp(seeded: Seeded, service: Started, floor: Started, rssUnderLoad: number[]) {
  console.log(`\nHTTP, ${CONNECTIONS} connections, ${SECONDS} s per run, service and floor alternating twice`);
  line("scenario", "service/s", "floor/s", "ratio", "p50 ms", "p99 ms", "floor p99");
  for (const { name, load, sameBytes } of httpScenarios(seeded)) {
    if (!wanted(name)) continue;
    await checkSameAnswer(name, service, floor, load, sameBytes);
    const runs: { service: LoadResult[]; floor: LoadResult[] } = { service: [], floor: [] };
    for (let round = 0; round < 2; round++) {
      runs.service.push(await sampledLoad(service, load, rssUnderLoad));
      runs.floor.push(await runLoad(floor.url, load, CONNECTIONS, SECONDS));
    }
    const ours = mean(runs.service.map((r) => r.requestsPerSecond));
    const theirs = mean(runs.floor.map((r) => r.requestsPerSecond));
    const p50 = mean(runs.service.map((r) => r.p50));
    const p99 = mean(runs.service.map((r) => r.p99));
    const floorP99 = mean(runs.floor.map((r) => r.p99));
    const errors = runs.service.reduce((sum, r) => sum + r.errors, 0);
    line(name, fixed(ours), fixed(theirs), fixed(ours / theirs, 2), fixed(p50, 1), fixed(p99, 1), fixed(floorP99, 1));
    if (errors > 0) console.log(`  (${errors} service answers were errors)`);
    results[name] = { service: ours, floor: theirs, ratio: ours / theirs, p50, p99, floorP99, errors };
  }
}

async function measureStart(env: Record<string, string>) {
  const times: number[] = [];
  for (let i = 0; i < 3; i++) {
    const started = await startService(env);
    times.push(started.readyMs);
    await started.stop();
  }
  times.sort((a, b) => a - b);
  results["start to first /healthz 200"] = { ms: times[1] };
  line(`start to /healthz 200 (${databaseName})`, `${fixed(times[1] ?? 0)} ms`, "(median of 3)");
}

async function httpPart(): Promise<void> {
  const url = databaseUrl("main");
  const seeded = await seed(url, { agents: 200, mailboxes: 1, emailsPerMailbox: 10_000, domain: DOMAIN });
  const smtp = await smtpSink();
  const env = {
    DATABASE_URL: url,
    MAIL_DOMAIN: DOMAIN,
    STORAGE_LIMIT_BYTES: String(STORAGE_LIMIT),
    DAILY_SEND_LIMIT: "1000000",
    SMTP_URL: smtp,
  };
  if (wanted("start")) await measureStart(env);
  const service = await startService(env);
  const floor = await startFloor("floor.ts", [url, DOMAIN, String(STORAGE_LIMIT), smtp]);
  try {
    // Idle: over the seeded database, once what starting left behind has settled.
    await new Promise((resolve) => setTimeout(resolve, IDLE_SETTLE_MS));
    const idle = rssMiB(service.child.pid);
    const samples: number[] = [];
    await measureHttp(seeded, service, floor, samples);
    const [underLoad, peak] = samples.length > 0 ? [pct(samples, 0.5), Math.max(...samples)] : [idle, idle];
    results.rss = { database: databaseName, idleMiB: idle, underLoadMiB: underLoad, peakMiB: peak };
    console.log(
      `\nservice RSS (${databaseName}): ${fixed(idle)} MiB idle after the seed, ${fixed(underLoad)} MiB under load (median), ${fixed(peak)} MiB peak`,
    );
  } finally {
    await service.stop();
    await floor.stop();
  }
}

/** Whether an answer is one to measure: a success, and over GraphQL without errors. */
async function measurable(url: string, load: Load): Promise<string | null> {
  const { status, text } = await answer(url, load);
  if (status >= 300 || text.includes('"errors":[')) return `${status} ${text.slice(0, 160)}`;
  return null;
}

/**
 * Another build against this one, both serving at once, each over a database
 * its own seed made: each scenario loads them in turn, 2 s at a time, six
 * times each (--slices) after a warm-up, so that both meet the machine as it
 * is then (its speed drifts by a fifth over minutes, more than most changes). What is
 * compared is CPU time per request, read from /proc: it does not depend on how
 * busy the load generator keeps the cores.
 */
const SLICE_SECONDS = 2;

async function comparePart(other: string): Promise<void> {
  const smtp = await smtpSink();
  const sides = [];
  for (const [name, checkout] of [
    ["other", other],
    ["this", "."],
  ] as const) {
    const url = databaseUrl(`compare_${name}`);
    const seeded = await seedIn(checkout, url, { agents: 200, mailboxes: 1, emailsPerMailbox: 10_000, domain: DOMAIN });
    const env = { DATABASE_URL: url, MAIL_DOMAIN: DOMAIN, STORAGE_LIMIT_BYTES: String(STORAGE_LIMIT), SMTP_URL: smtp };
    const service = await startService({ ...env, DAILY_SEND_LIMIT: "1000000" }, checkout);
    cleanups.push(() => service.stop());
    sides.push({ service, scenarios: httpScenarios(seeded) });
  }
  console.log(`\nCPU per request, ${other} against this build, interleaved, ${CONNECTIONS} connections`);
  line("scenario", "other µs", "this µs", "this/other", "other/s", "this/s");
  const names = sides[0]?.scenarios.map((scenario) => scenario.name) ?? [];
  for (const [index, name] of names.entries()) {
    if (!wanted(name)) continue;
    const loads = sides.map(({ service, scenarios }) => ({ service, load: (scenarios[index] as Scenario).load }));
    const refused = await Promise.all(loads.map(({ service, load }) => measurable(service.url, load)));
    if (refused.some((why) => why !== null)) {
      console.log(`${name}: not compared, an answer was refused: ${refused.filter(Boolean).join("; ")}`);
      continue;
    }
    const totals = loads.map(() => ({ micros: 0, requests: 0 }));
    for (let slice = 0; slice <= slices; slice++) {
      for (const [side, { service, load }] of loads.entries()) {
        const before = cpuMicros(service.child.pid);
        const { requests } = await runLoad(service.url, load, CONNECTIONS, SLICE_SECONDS);
        const total = totals[side];
        if (slice === 0 || !total) continue; // the first slice warms each up
        total.micros += cpuMicros(service.child.pid) - before;
        total.requests += requests;
      }
    }
    const [theirs, ours] = totals.map(({ micros, requests }) => ({
      perRequest: micros / requests,
      rate: requests / (slices * SLICE_SECONDS),
    }));
    if (!theirs || !ours) continue;
    const ratio = ours.perRequest / theirs.perRequest;
    line(name, fixed(theirs.perRequest), fixed(ours.perRequest), fixed(ratio, 2), fixed(theirs.rate), fixed(ours.rate));
    results[`compare: ${name}`] = { otherMicros: theirs.perRequest, thisMicros: ours.perRequest, ratio };
  }
}

/** Polls the list until it holds `count` emails; milliseconds it took. */
async function untilListed(service: Started, seeded: Seeded, count: number, started: number): Promise<number> {
  const { agent } = seeded;
  // Mail lost never comes: a run that waits this long has lost some.
  const deadline = started + 300_000;
  for (;;) {
    if (performance.now() > deadline) throw new Error(`fewer than ${count} emails were listed within 300 s`);
    const response = await fetch(`${service.url}/agents/${agent.id}/emails?limit=1`, {
      headers: { authorization: `Bearer ${agent.apiKey}` },
    });
    const { total } = (await response.json()) as { total: number };
    if (total >= count) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}

async function mailPart(): Promise<void> {
  const dovecot = await Dovecot.start();
  cleanups.push(() => dovecot.stop());
  const url = databaseUrl("mail");
  const seeded = await seed(url, { agents: 2, mailboxes: 0, emailsPerMailbox: 0, domain: DOMAIN });
  const to = `${seeded.agent.id}@${DOMAIN}`;
  const client = await dovecot.client();
  for (const box of ["Floor", "Ingest", "Live"]) await client.mailboxCreate(box);
  await client.logout();
  const imap = (box: string) => dovecot.url(box);
  // Sender authentication asks a DNS server on this machine, as the floor does.
  const dns = await localDns();
  const env = {
    DATABASE_URL: url,
    MAIL_DOMAIN: DOMAIN,
    STORAGE_LIMIT_BYTES: String(STORAGE_LIMIT),
    DNS_SERVERS: dns.address,
  };
  console.log("\nInbound through Dovecot");
  line("scenario", "service", "floor", "ratio");

  if (wanted("ingestion")) {
    const messages = Array.from({ length: 2000 }, (_, n) => benchMessage(to, n));
    await dovecot.append(messages, "Floor");
    await dovecot.append(messages, "Ingest");
    const floor = await bareIngest(dovecot, "Floor", dns.address);
    const service = await startService({ ...env, IMAP_URL: imap("Ingest"), IMAP_POLL_INTERVAL_MS: "600000" });
    // From the moment the service answers: its poller connects and reads from there.
    const ms = await untilListed(service, seeded, 2000, performance.now());
    await service.stop();
    const ours = (2000 / ms) * 1000;
    const theirs = (floor.messages / floor.ms) * 1000;
    line("ingestion msg/s", fixed(ours), fixed(theirs), fixed(ours / theirs, 2));
    results.ingestion = { service: ours, floor: theirs, ratio: ours / theirs };
  }

  if (wanted("APPEND to listed")) {
    const service = await startService({ ...env, IMAP_URL: imap("Live"), IMAP_POLL_INTERVAL_MS: "600000" });
    const idler = await bareIdler(dovecot, "Live");
    const base = (await (
      await fetch(`${service.url}/agents/${seeded.agent.id}/emails?limit=1`, {
        headers: { authorization: `Bearer ${seeded.agent.apiKey}` },
      })
    ).json()) as { total: number };
    const ours: number[] = [];
    const theirs: number[] = [];
    for (let n = 0; n < 30; n++) {
      const announced = idler.nextExists();
      const started = performance.now();
      await dovecot.append(benchMessage(to, 10_000 + n), "Live");
      const [listed] = await Promise.all([
        untilListed(service, seeded, base.total + n + 1, started),
        announced.then(() => theirs.push(performance.now() - started)),
      ]);
      ours.push(listed);
      // Past the 0.5 s Dovecot waits after a change (the poller marking the last message) before it tells IDLE clients.
      await new Promise((resolve) => setTimeout(resolve, 1200));
    }
    await idler.close();
    await service.stop();
    line("APPEND to listed p50 ms", fixed(pct(ours, 0.5)), fixed(pct(theirs, 0.5)));
    line("APPEND to listed p99 ms", fixed(pct(ours, 0.99)), fixed(pct(theirs, 0.99)));
    results["APPEND to listed"] = {
      p50: pct(ours, 0.5),
      p99: pct(ours, 0.99),
      floorP50: pct(theirs, 0.5),
      floorP99: pct(theirs, 0.99),
    };
  }
}

const pause = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/**
 * Subscriptions over Server-Sent Events, the poller on IDLE: APPEND to the
 * event at one subscriber against a bare IDLE client, then 1,000 subscribers
 * (20, the most one agent may open, for each of 50 agents, all named in one
 * message) against a bare SSE server writing one event to as many streams.
 */
async function streamsPart(): Promise<void> {
  const dovecot = await Dovecot.start();
  cleanups.push(() => dovecot.stop());
  const url = databaseUrl("streams");
  const seeded = await seed(url, { agents: 50, mailboxes: 50, emailsPerMailbox: 0, domain: DOMAIN });
  const client = await dovecot.client();
  await client.mailboxCreate("Streams");
  await client.logout();
  const service = await startService({
    DATABASE_URL: url,
    MAIL_DOMAIN: DOMAIN,
    STORAGE_LIMIT_BYTES: String(STORAGE_LIMIT),
    IMAP_URL: dovecot.url("Streams"),
    IMAP_POLL_INTERVAL_MS: "600000",
    DNS_SERVERS: (await localDns()).address,
  });
  const floor = await startFloor("sse-floor.ts");
  cleanups.push(
    () => service.stop(),
    () => floor.stop(),
  );
  console.log("\nSubscriptions over Server-Sent Events, poller on IDLE");
  line("scenario", "service", "floor", "ratio");

  const idler = await bareIdler(dovecot, "Streams");
  const one = await subscribe(service.url, [seeded.agent], 1);
  const ours: number[] = [];
  const theirs: number[] = [];
  for (let n = 0; n < 30; n++) {
    const [heard, announced] = [one.nextEvent(), idler.nextExists()];
    const started = performance.now();
    await dovecot.append(benchMessage(`${seeded.agent.id}@${DOMAIN}`, n), "Streams");
    await Promise.all([
      heard.then(([at = 0]) => ours.push(at - started)),
      announced.then(() => theirs.push(performance.now() - started)),
    ]);
    await pause(1200);
  }
  one.close();
  line(
    "APPEND to event p50 ms",
    fixed(pct(ours, 0.5)),
    fixed(pct(theirs, 0.5)),
    fixed(pct(ours, 0.5) / pct(theirs, 0.5), 2),
  );
  line(
    "APPEND to event p99 ms",
    fixed(pct(ours, 0.99)),
    fixed(pct(theirs, 0.99)),
    fixed(pct(ours, 0.99) / pct(theirs, 0.99), 2),
  );

  await pause(1000);
  const [serviceIdle, floorIdle] = [rssMiB(service.child.pid), rssMiB(floor.child.pid)];
  const many = await subscribe(service.url, seeded.owners, 20);
  const bare = await subscribe(
    floor.url,
    Array.from({ length: 50 }, () => seeded.agent),
    20,
  );
  const perStream = (idle: number, pid: number | undefined) => ((rssMiB(pid) - idle) * 1024) / 1000;
  const [serviceKiB, floorKiB] = [perStream(serviceIdle, service.child.pid), perStream(floorIdle, floor.child.pid)];

  const [heard, announced] = [many.nextEvent(), idler.nextExists()];
  const started = performance.now();
  await dovecot.append(benchMessage(seeded.owners.map((o) => `${o.id}@${DOMAIN}`).join(", "), 100), "Streams");
  const [times, announcedAt] = await Promise.all([heard, announced.then(() => performance.now())]);
  const serviceSpread = Math.max(...times) - Math.min(...times);
  const fired = bare.nextEvent();
  await fetch(`${floor.url}/fire`, { method: "POST" });
  const floorTimes = await fired;
  const floorSpread = Math.max(...floorTimes) - Math.min(...floorTimes);
  many.close();
  bare.close();
  await idler.close();
  line("1,000: APPEND to last ms", fixed(Math.max(...times) - started), fixed(announcedAt - started));
  line(
    "1,000: first to last ms",
    fixed(serviceSpread, 1),
    fixed(floorSpread, 1),
    fixed(serviceSpread / floorSpread, 2),
  );
  line("memory per stream KiB", fixed(serviceKiB, 1), fixed(floorKiB, 1), fixed(serviceKiB / floorKiB, 2));
  results.streams = {
    appendToEvent: {
      p50: pct(ours, 0.5),
      p99: pct(ours, 0.99),
      floorP50: pct(theirs, 0.5),
      floorP99: pct(theirs, 0.99),
    },
    fanOut1000: {
      appendToLastMs: Math.max(...times) - started,
      idleAnnouncedMs: announcedAt - started,
      firstToLastMs: serviceSpread,
      floorFirstToLastMs: floorSpread,
    },
    memoryPerStreamKiB: { service: serviceKiB, floor: floorKiB },
  };
}

/**
 * The SMTP door: messages a second filed by nodemailer clients, against a
 * bare smtp-server keeping each message with one INSERT into the same
 * database, with one instance and with two on one database; DATA's end to
 * the 250 under that load (a raw-socket probe beside the clients); then, one
 * message at a time, DATA's end to the event at a subscriber.
 */
async function smtpPart(): Promise<void> {
  const url = databaseUrl("door");
  const seeded = await seed(url, { agents: 50, mailboxes: 50, emailsPerMailbox: 0, domain: DOMAIN });
  const to = seeded.owners.map((owner) => `${owner.id}@${DOMAIN}`);
  const dns = (await localDns()).address;
  const env = {
    DATABASE_URL: url,
    MAIL_DOMAIN: DOMAIN,
    STORAGE_LIMIT_BYTES: String(STORAGE_LIMIT),
    DNS_SERVERS: dns,
    SMTP_INGRESS_PORT: "0",
    SMTP_INGRESS_HOST: "127.0.0.1",
    // Every client connects from 127.0.0.1.
    SMTP_INGRESS_MAX_CONNECTIONS_PER_IP: "100",
  };
  // The floor reads and checks each message as the door does; the store-only floor keeps it unread.
  const floor = await startFloor("smtp-floor.ts", [url, dns]);
  const storeOnly = await startFloor("smtp-floor.ts", [url]);
  const first = await startService(env);
  const second = await startService(env);
  cleanups.push(
    () => floor.stop(),
    () => storeOnly.stop(),
    () => first.stop(),
    () => second.stop(),
  );
  const doors = [first, second].map((instance) => instance.smtpPort as number);
  console.log(`\nSMTP door, ${CONNECTIONS} nodemailer clients, ${SECONDS} s per run, alternating twice`);
  line("scenario", "msg/s", "floor msg/s", "ratio", "p50 ms", "p99 ms", "floor p99", "cores busy", "store-only");
  const runs: Record<"floor" | "storeOnly" | "one" | "two", SendResult[]> = {
    floor: [],
    storeOnly: [],
    one: [],
    two: [],
  };
  const portOf = (started: Started) => [Number(new URL(started.url).port)];
  for (let round = 0; round < 2; round++) {
    runs.floor.push(await runSends(portOf(floor), to, CONNECTIONS, SECONDS));
    runs.storeOnly.push(await runSends(portOf(storeOnly), to, CONNECTIONS, SECONDS));
    runs.one.push(await runSends(doors.slice(0, 1), to, CONNECTIONS, SECONDS));
    runs.two.push(await runSends(doors, to, CONNECTIONS, SECONDS));
  }
  const rate = (of: SendResult[]) => mean(of.map((run) => run.messagesPerSecond));
  const latencies = (of: SendResult[]) => of.flatMap((run) => run.dataEndTo250);
  const floorRate = rate(runs.floor);
  const floorP99 = pct(latencies(runs.floor), 0.99);
  const busy = (of: SendResult[]) => mean(of.map((run) => run.busy));
  const storeOnlyRate = rate(runs.storeOnly);
  const door: Record<string, unknown> = {
    floor: floorRate,
    storeOnlyFloor: storeOnlyRate,
    floorP50: pct(latencies(runs.floor), 0.5),
    floorP99,
    floorBusy: busy(runs.floor),
  };
  for (const [label, key] of [
    ["door, 1 instance", "one"],
    ["door, 2 instances", "two"],
  ] as const) {
    const [ours, times] = [rate(runs[key]), latencies(runs[key])];
    const errors = runs[key].reduce((sum, run) => sum + run.errors, 0);
    const cells = [fixed(ours), fixed(floorRate), fixed(ours / floorRate, 2), fixed(pct(times, 0.5), 1)];
    const busyCell = `${fixed(busy(runs[key]) * 100)} %`;
    line(label, ...cells, fixed(pct(times, 0.99), 1), fixed(floorP99, 1), busyCell, fixed(ours / storeOnlyRate, 2));
    if (errors > 0) console.log(`  (${errors} messages were refused)`);
    door[key] = {
      service: ours,
      ratio: ours / floorRate,
      storeOnlyRatio: ours / storeOnlyRate,
      p50: pct(times, 0.5),
      p99: pct(times, 0.99),
      errors,
      busy: busy(runs[key]),
    };
  }
  line("store-only floor", fixed(storeOnlyRate), "", "", "", "", "", `${fixed(busy(runs.storeOnly) * 100)} %`);
  const scaling = rate(runs.two) / rate(runs.one);
  line(
    "2 instances / 1",
    fixed(scaling, 2),
    "",
    "(target 1.6)",
    "",
    "",
    "floor:",
    `${fixed(busy(runs.floor) * 100)} %`,
  );
  door.twoOverOne = scaling;

  const subscriber = await subscribe(first.url, [seeded.agent], 1);
  const answered: number[] = [];
  const heard: number[] = [];
  for (let n = 0; n < 30; n++) {
    const event = subscriber.nextEvent();
    const address = `${seeded.agent.id}@${DOMAIN}`;
    const timed = await timedDelivery(doors[0] as number, "jordan@sender.example", address, benchMessage(address, n));
    const [at = 0] = await event;
    answered.push(timed.answered - timed.dataEnd);
    heard.push(at - timed.dataEnd);
  }
  subscriber.close();
  line("DATA end to 250 p50 ms", fixed(pct(answered, 0.5), 1), "", "", "(one at a time)");
  line("DATA end to event p50 ms", fixed(pct(heard, 0.5), 1), "", "", "(target: 250 + 50)");
  door.oneAtATime = { dataEndTo250P50: pct(answered, 0.5), dataEndToEventP50: pct(heard, 0.5) };
  results["SMTP door"] = door;
}

/**
 * What scanning costs per message at the SMTP door: one instance with Rspamd
 * and clamd (the tests' throwaway daemons, on loopback) against one with
 * neither, alternating twice; the prompt-injection screening runs in both.
 * Then each scanner stopped while mail arrives, Rspamd and clamd at the door
 * and Rspamd under the poller: every message taken is filed once, scanned or not.
 */
async function scanningPart(): Promise<void> {
  const [rspamd, clamd] = await Promise.all([Rspamd.start(), Clamd.start()]);
  cleanups.push(
    () => rspamd.stop(),
    () => clamd.stop(),
  );
  const env = async (name: string, scanners: Record<string, string>) => {
    const url = databaseUrl(name);
    const seeded = await seed(url, { agents: 50, mailboxes: 50, emailsPerMailbox: 0, domain: DOMAIN });
    const service = await startService({
      DATABASE_URL: url,
      MAIL_DOMAIN: DOMAIN,
      STORAGE_LIMIT_BYTES: String(STORAGE_LIMIT),
      DNS_SERVERS: (await localDns()).address,
      SMTP_INGRESS_PORT: "0",
      SMTP_INGRESS_HOST: "127.0.0.1",
      SMTP_INGRESS_MAX_CONNECTIONS_PER_IP: "100",
      ...scanners,
    });
    cleanups.push(() => service.stop());
    return { url, service, to: seeded.owners.map((owner) => `${owner.id}@${DOMAIN}`) };
  };
  const plain = await env("scan_off", {});
  const scanned = await env("scan_on", { RSPAMD_URL: rspamd.url, CLAMAV_URL: clamd.url });
  console.log(
    `\nScanning at the SMTP door, ${CONNECTIONS} nodemailer clients, ${SECONDS} s per run, alternating twice`,
  );
  line("scenario", "msg/s", "CPU ms/msg", "p50 ms", "p99 ms");
  const runs = { plain: [] as SendResult[], scanned: [] as SendResult[] };
  const cpu = { plain: 0, scanned: 0 };
  for (let round = 0; round < 2; round++) {
    for (const key of ["plain", "scanned"] as const) {
      const { service, to } = key === "plain" ? plain : scanned;
      const before = cpuMicros(service.child.pid);
      const run = await runSends([service.smtpPort as number], to, CONNECTIONS, SECONDS);
      cpu[key] += cpuMicros(service.child.pid) - before;
      runs[key].push(run);
    }
  }
  const scanning: Record<string, unknown> = {};
  for (const [label, key] of [
    ["no scanners", "plain"],
    ["Rspamd + clamd", "scanned"],
  ] as const) {
    const messages = runs[key].reduce((sum, run) => sum + run.messages, 0);
    const times = runs[key].flatMap((run) => run.dataEndTo250);
    const perMessage = cpu[key] / 1000 / messages;
    const rate = mean(runs[key].map((run) => run.messagesPerSecond));
    line(label, fixed(rate), fixed(perMessage, 2), fixed(pct(times, 0.5), 1), fixed(pct(times, 0.99), 1));
    scanning[key] = { rate, cpuMsPerMessage: perMessage, p50: pct(times, 0.5), p99: pct(times, 0.99) };
  }
  scanning.poller = await pollerScanning({ RSPAMD_URL: rspamd.url, CLAMAV_URL: clamd.url });
  scanning.stopped = await scannerStopped(await env("scan_stop", { RSPAMD_URL: rspamd.url }), rspamd, "spamStatus");
  const clamdStopped = await env("scan_stop_clamd", { CLAMAV_URL: clamd.url });
  scanning.clamdStopped = await scannerStopped(clamdStopped, clamd, "malwareStatus");
  scanning.pollerStopped = await pollerScannerStopped();
  results.scanning = scanning;
}

/** The emails a database holds, and how many distinct messages they are. */
async function filedIn(url: string, status: "spamStatus" | "malwareStatus") {
  const { prisma } = await openDatabase(url);
  const filed = await prisma.email.count();
  const distinct = (await prisma.email.groupBy({ by: ["messageId"] })).length;
  const unscanned = await prisma.email.count({ where: { [status]: "unscanned" } });
  await prisma.$disconnect();
  return { filed, distinct, unscanned };
}

/** Says whether every message taken was filed, and none twice; a run where one was not exits non-zero. */
function filedOnce(label: string, taken: number, { filed, distinct }: { filed: number; distinct: number }): boolean {
  const once = filed === taken && distinct === taken;
  line(label, once ? "filed once: yes" : "filed once: NO");
  if (!once) process.exitCode = 1;
  return once;
}

/** The poller filing 1,000 messages from Dovecot, without scanners and with them: messages a second each way. */
async function pollerScanning(scanners: Record<string, string>): Promise<Record<string, number>> {
  const dovecot = await Dovecot.start();
  cleanups.push(() => dovecot.stop());
  const dns = await localDns();
  const COUNT = 1000;
  const rates: Record<string, number> = {};
  for (const [label, key, extra] of [
    ["poller, no scanners", "plain", {}],
    ["poller, Rspamd + clamd", "scanned", scanners],
  ] as const) {
    const url = databaseUrl(`poll_${key}`);
    const seeded = await seed(url, { agents: 2, mailboxes: 0, emailsPerMailbox: 0, domain: DOMAIN });
    const client = await dovecot.client();
    await client.mailboxCreate(key);
    await client.logout();
    const to = `${seeded.agent.id}@${DOMAIN}`;
    await dovecot.append(
      Array.from({ length: COUNT }, (_, n) => benchMessage(to, n)),
      key,
    );
    const service = await startService({
      DATABASE_URL: url,
      MAIL_DOMAIN: DOMAIN,
      STORAGE_LIMIT_BYTES: String(STORAGE_LIMIT),
      DNS_SERVERS: dns.address,
      IMAP_URL: dovecot.url(key),
      IMAP_POLL_INTERVAL_MS: "600000",
      ...extra,
    });
    const ms = await untilListed(service, seeded, COUNT, performance.now());
    await service.stop();
    rates[key] = (COUNT / ms) * 1000;
    line(label, fixed(rates[key] as number), "msg/s");
  }
  return rates;
}

/** Mail sent one after another while a scanner is stopped halfway: the 250s against the emails filed. */
async function scannerStopped(
  { url, service, to }: { url: string; service: Started; to: string[] },
  scanner: Rspamd | Clamd,
  status: "spamStatus" | "malwareStatus",
): Promise<Record<string, number | boolean>> {
  const transport = nodemailer.createTransport({ host: "127.0.0.1", port: service.smtpPort, ignoreTLS: true });
  const MESSAGES = 200;
  let accepted = 0;
  for (let n = 0; n < MESSAGES; n++) {
    if (n === MESSAGES / 2) await scanner.stop();
    const recipient = to[n % to.length] as string;
    const sent = await transport
      .sendMail({ envelope: { from: "jordan@sender.example", to: [recipient] }, raw: benchMessage(recipient, n) })
      .then(
        () => true,
        () => false,
      );
    if (sent) accepted++;
  }
  transport.close();
  const { filed, distinct, unscanned } = await filedIn(url, status);
  const label = `${scanner instanceof Rspamd ? "Rspamd" : "clamd"} stopped halfway`;
  line(label, `${accepted} answered 250`, `${filed} filed`, `${unscanned} unscanned`);
  const once = filedOnce(`  door, ${MESSAGES} sent`, accepted, { filed, distinct });
  return { sent: MESSAGES, accepted, filed, unscanned, filedOnce: once };
}

/**
 * The poller filing 1,000 messages from Dovecot with a Rspamd of its own that
 * is stopped once a quarter of them are listed, its batches under way: every
 * message is filed once, those after it unscanned.
 */
async function pollerScannerStopped(): Promise<Record<string, number | boolean>> {
  const [rspamd, dovecot] = await Promise.all([Rspamd.start(), Dovecot.start()]);
  cleanups.push(
    () => rspamd.stop(),
    () => dovecot.stop(),
  );
  const COUNT = 1000;
  const url = databaseUrl("poll_stop");
  const seeded = await seed(url, { agents: 2, mailboxes: 0, emailsPerMailbox: 0, domain: DOMAIN });
  const client = await dovecot.client();
  await client.mailboxCreate("stop");
  await client.logout();
  const to = `${seeded.agent.id}@${DOMAIN}`;
  await dovecot.append(
    Array.from({ length: COUNT }, (_, n) => benchMessage(to, n)),
    "stop",
  );
  const service = await startService({
    DATABASE_URL: url,
    MAIL_DOMAIN: DOMAIN,
    STORAGE_LIMIT_BYTES: String(STORAGE_LIMIT),
    DNS_SERVERS: (await localDns()).address,
    IMAP_URL: dovecot.url("stop"),
    IMAP_POLL_INTERVAL_MS: "600000",
    RSPAMD_URL: rspamd.url,
  });
  const started = performance.now();
  await untilListed(service, seeded, COUNT / 4, started);
  await rspamd.stop();
  const ms = await untilListed(service, seeded, COUNT, started);
  // Stopped, it files nothing more: what is filed now is all it will file.
  await service.stop();
  const { filed, distinct, unscanned } = await filedIn(url, "spamStatus");
  line("poller, Rspamd stopped", `${COUNT} in the box`, `${filed} filed`, `${unscanned} unscanned`);
  const once = filedOnce("  poller", COUNT, { filed, distinct });
  return { messages: COUNT, filed, unscanned, ms, filedOnce: once };
}

const SEARCHES = ["refund", "invoice", "quarterly", "meeting", "invoice meeting", "inv", "meeting -quarterly", "kalo"];

/** Search latency, one request at a time, service and floor in turn: every query 20 times each, after a warm-up. */
async function searchLatency(label: string, perAgent: number[]): Promise<void> {
  const url = databaseUrl(`search${perAgent.length}`);
  const agent = await seedSearch(url, perAgent, DOMAIN);
  const service = await startService({ DATABASE_URL: url, MAIL_DOMAIN: DOMAIN });
  const floor = await startFloor("floor.ts", [url, DOMAIN, String(STORAGE_LIMIT)]);
  const headers = { authorization: `Bearer ${agent.apiKey}` };
  const timed = async (base: string, q: string) => {
    const started = performance.now();
    const response = await fetch(`${base}/agents/${agent.id}/emails?limit=50&q=${encodeURIComponent(q)}`, { headers });
    const body = (await response.json()) as { total: number };
    return { ms: performance.now() - started, total: body.total };
  };
  const times = { service: [] as number[], floor: [] as number[] };
  try {
    for (const q of SEARCHES) {
      const [mine, bare] = [await timed(service.url, q), await timed(floor.url, q)];
      if (mine.total !== bare.total)
        throw new Error(`"${q}": the service found ${mine.total}, the floor ${bare.total}`);
      for (let round = 0; round < 20; round++) {
        times.service.push((await timed(service.url, q)).ms);
        times.floor.push((await timed(floor.url, q)).ms);
      }
    }
  } finally {
    await service.stop();
    await floor.stop();
  }
  const [s50, f50] = [pct(times.service, 0.5), pct(times.floor, 0.5)];
  line(label, fixed(s50, 1), fixed(pct(times.service, 0.99), 1), fixed(f50, 1), fixed(pct(times.floor, 0.99), 1));
  results[`search, ${label}`] = {
    p50: s50,
    p99: pct(times.service, 0.99),
    floorP50: f50,
    floorP99: pct(times.floor, 0.99),
  };
}

/** Page latency one request at a time: offset pages and a cursor walk over one agent's 1,000 emails. */
async function pageLatency(label: string, agents: number): Promise<void> {
  const url = databaseUrl(`pages${agents}`);
  const seeded = await seed(url, { agents, mailboxes: agents, emailsPerMailbox: 1000, domain: DOMAIN, small: true });
  const service = await startService({
    DATABASE_URL: url,
    MAIL_DOMAIN: DOMAIN,
    STORAGE_LIMIT_BYTES: String(STORAGE_LIMIT),
  });
  const { agent } = seeded;
  const headers = { authorization: `Bearer ${agent.apiKey}`, "content-type": "application/json" };
  const timed = async (request: () => Promise<Response>) => {
    const started = performance.now();
    const response = await request();
    const body = await response.json();
    return { ms: performance.now() - started, body };
  };
  const offset: number[] = [];
  const cursor: number[] = [];
  for (let round = 0; round < 5; round++) {
    for (let page = 0; page < 20; page++) {
      const path = `/agents/${agent.id}/emails?limit=50&offset=${page * 50}`;
      offset.push((await timed(() => fetch(service.url + path, { headers }))).ms);
    }
    let after: string | null = null;
    for (let page = 0; page < 20; page++) {
      const query = `query($id: ID!, $after: String) { agent(id: $id) { emailConnection(first: 50, after: $after) { edges { node { id subject receivedAt } } pageInfo { endCursor } } } }`;
      const body = JSON.stringify({ query, variables: { id: agent.id, after } });
      const { ms, body: result } = await timed(() =>
        fetch(`${service.url}/graphql`, { method: "POST", headers, body }),
      );
      after = result.data.agent.emailConnection.pageInfo.endCursor;
      cursor.push(ms);
    }
  }
  await service.stop();
  line(`${label} offset p50/p99`, fixed(pct(offset, 0.5), 1), fixed(pct(offset, 0.99), 1));
  line(`${label} cursor p50/p99`, fixed(pct(cursor, 0.5), 1), fixed(pct(cursor, 0.99), 1));
  results[`pages, ${label}`] = {
    offsetP50: pct(offset, 0.5),
    offsetP99: pct(offset, 0.99),
    cursorP50: pct(cursor, 0.5),
    cursorP99: pct(cursor, 0.99),
  };
}

console.log(
  `database: ${databaseName}; ${cpus().length} cores (${cpus()[0]?.model}), ${fixed(totalmem() / 2 ** 30)} GiB; node ${process.version}`,
);
/** The parts after the HTTP one, by the names --only gives them. */
const LATER_PARTS = ["ingestion", "APPEND to listed", "streams", "smtp", "scanning", "search", "pages"];

/** Every part --only names (all without it), each against its floor. */
async function measureAll(): Promise<void> {
  if (only?.every((name) => LATER_PARTS.includes(name)) !== true) await httpPart();
  if (wanted("ingestion") || wanted("APPEND to listed")) await mailPart();
  if (wanted("streams")) await streamsPart();
  if (wanted("smtp")) await smtpPart();
  if (wanted("scanning")) await scanningPart();
  if (wanted("search")) {
    console.log(`\nSearch, one request at a time: ${SEARCHES.length} queries from rare to common, page of 50`);
    line("mail stored", "p50 ms", "p99 ms", "floor p50", "floor p99");
    await searchLatency("100,000 of one agent", [100_000]);
    await searchLatency("+ 1,000,000 of 10 others", [100_000, ...Array.from({ length: 10 }, () => 100_000)]);
  }
  if (wanted("pages")) {
    console.log("\nPage latency, one request at a time, 1,000 emails of one agent");
    line("stored emails", "p50 ms", "p99 ms");
    await pageLatency("1,000 stored", 1);
    await pageLatency("1,000,000 stored", 1000);
  }
}

try {
  if (compared) await comparePart(compared);
  else await measureAll();
  mkdirSync("bench", { recursive: true });
  writeFileSync("bench/results.json", `${JSON.stringify({ database: databaseName, results }, null, 2)}\n`);
} finally {
  for (const cleanup of cleanups.reverse()) await cleanup().catch(() => {});
  rmSync(dir, { recursive: true, force: true });
}
// The tests' empty DNS zone, Rspamd's resolver, stays open for the process's life: the run ends here.
process.exit();
