import { randomBytes } from "node:crypto";
import { openDatabase } from "../../src/db/client.ts";
import { migrate } from "../../src/db/migrate.ts";
import { hashKey, type SeedAgent, stamp, writerFor } from "./seed.ts";

// Mail to search: words drawn from a vocabulary of 20,000 with a long tail
// (a few words in most mail, most words in little), from 500 senders, plus
// marker words at known rates, so queries range from rare to common.

/** Marker words and the share of mail that holds each. */
export const MARKERS = { refund: 0.001, invoice: 0.01, quarterly: 0.1, meeting: 0.3 } as const;

/** A small deterministic generator, so every run searches the same mail. */
function random(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

const SYLLABLES = [
  "ka",
  "lo",
  "mi",
  "ren",
  "tu",
  "sa",
  "vel",
  "no",
  "pri",
  "da",
  "gor",
  "li",
  "ben",
  "cho",
  "ex",
  "ul",
];

function vocabulary(next: () => number): string[] {
  const words = new Set<string>();
  while (words.size < 20_000) {
    const length = 2 + Math.floor(next() * 3);
    words.add(Array.from({ length }, () => SYLLABLES[Math.floor(next() * SYLLABLES.length)]).join(""));
  }
  return [...words];
}

export function mailWriter(seed: number) {
  const next = random(seed);
  const words = vocabulary(next);
  // Log-uniform ranks: the first words are in most mail, the last ones in few.
  const word = () => words[Math.floor(words.length ** next()) - 1] as string;
  const sentence = (count: number) => Array.from({ length: count }, word).join(" ");
  return (n: number) => {
    const markers = Object.entries(MARKERS)
      .filter(([, share]) => next() < share)
      .map(([marker]) => marker);
    const sender = Math.floor(next() * 500);
    const text = `${sentence(30)} ${markers.join(" ")} ${sentence(40)}.\n`;
    return {
      subject: `${sentence(3)} ${markers[0] ?? ""} ${n}`.trim(),
      fromAddress: `sender${sender}@${sender % 5 === 0 ? "vendor" : "mail"}.example`,
      fromName: `Sender ${sender}`,
      text,
    };
  };
}

const AGENT_SQL = `INSERT INTO "Agent" ("id","idKey","name","apiKeyHash","createdAt","verifiedAt","storageUsed") VALUES (?,?,?,?,?,?,?)`;
const THREAD_SQL = `INSERT INTO "Thread" ("id","agentId","subject","startedAt","lastMessageAt") VALUES (?,?,?,?,?)`;
const EMAIL_SQL = `INSERT INTO "Email" ("id","agentId","fromAddress","fromName","to","subject","bodyText","size","receivedAt","isRead","folder","threadId","text","preview") VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?)`;
const SOURCE_SQL = `INSERT INTO "EmailSource" ("emailId","raw") VALUES (?,?)`;

/** Agents `search-0` … each with `perAgent[i]` emails; the first is the one searched. */
export async function seedSearch(url: string, perAgent: number[], domain: string): Promise<SeedAgent> {
  process.env.BENCH_DATABASE_URL = url;
  const database = await openDatabase(url);
  await migrate(database);
  await database.prisma.$disconnect();
  const writer = await writerFor(database);
  const now = Date.now();
  const agents = perAgent.map((_, i) => ({ id: `search-${i}`, apiKey: `ph_${randomBytes(32).toString("base64url")}` }));
  await writer.run(
    AGENT_SQL,
    agents.map((a, i) => [a.id, a.id, `Search ${i}`, hashKey(a.apiKey), stamp(database, now), stamp(database, now), 0]),
  );
  for (const [i, count] of perAgent.entries()) {
    const write = mailWriter(i);
    const agentId = agents[i]?.id as string;
    for (let start = 0; start < count; start += 10_000) {
      const emails: unknown[][] = [];
      const sources: unknown[][] = [];
      const threads: unknown[][] = [];
      for (let n = start; n < Math.min(count, start + 10_000); n++) {
        const mail = write(n);
        const id = `s${i}x${n}`;
        const at = stamp(database, now - n * 1000);
        const raw = Buffer.from(`From: ${mail.fromAddress}\r\nSubject: ${mail.subject}\r\n\r\n${mail.text}`);
        const preview = mail.text.slice(0, 200);
        const isRead = database.provider === "postgresql" ? n % 2 === 0 : n % 2;
        const to = `${agentId}@${domain}`;
        const { fromAddress, fromName, subject, text } = mail;
        emails.push([
          ...[id, agentId, fromAddress, fromName, to, subject, text, raw.length, at, isRead, "inbox"],
          ...[id, text, preview],
        ]);
        sources.push([id, raw]);
        threads.push([id, agentId, mail.subject, at, at]);
      }
      await writer.run(THREAD_SQL, threads);
      await writer.run(EMAIL_SQL, emails);
      await writer.run(SOURCE_SQL, sources);
    }
  }
  await writer.close();
  return agents[0] as SeedAgent;
}
