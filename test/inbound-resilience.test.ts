import { describe, expect, test } from "vitest";
import { openDatabase } from "../src/db/client.ts";
import { Api, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { inboxOf } from "./support/inbox.ts";
import { messageId, rawMessage } from "./support/mail.ts";
import { spawnService } from "./support/process.ts";
import { peersOf } from "./support/served.ts";
import { freshDatabase, startTestService } from "./support/service.ts";
import { waitFor } from "./support/wait.ts";

// Nothing lost, nothing twice: through server restarts, a killed service,
// a UIDVALIDITY change and several instances.

const { x, dovecot } = peersOf({ imap: true });

const env = (mailbox: string) => ({
  SOCIAL_OEMBED_URL: x.url,
  MAIL_DOMAIN: "mail.example",
  IMAP_URL: dovecot.url(mailbox),
  IMAP_POLL_INTERVAL_MS: "1000",
});

async function createMailbox(name: string): Promise<void> {
  const client = await dovecot.client();
  await client.mailboxCreate(name);
  await client.logout();
}

function messagesFor(agent: TestAgent, count: number): { ids: string[]; raws: string[] } {
  const ids = Array.from({ length: count }, messageId);
  return { ids, raws: ids.map((id, i) => rawMessage({ to: `${agent.id}@mail.example`, id, subject: `n${i}` })) };
}

/** Every Message-ID the agent holds, read page by page. */
async function storedIds(api: Api, agent: TestAgent): Promise<string[]> {
  const ids: string[] = [];
  for (let offset = 0; ; offset += 100) {
    const page = await api.get(`/agents/${agent.id}/emails?limit=100&offset=${offset}`, { key: agent.apiKey });
    ids.push(...page.body.data.map((e: { messageId: string }) => e.messageId));
    if (page.body.data.length < 100) return ids;
  }
}

async function total(api: Api, agent: TestAgent): Promise<number> {
  return (await api.get(`/agents/${agent.id}/emails?limit=1`, { key: agent.apiKey })).body.total;
}

test("Dovecot stopped and restarted mid-batch", async () => {
  await createMailbox("Restart");
  const svc = await startTestService(env("Restart"));
  try {
    const agent = await createVerifiedAgent(new Api(svc.url), x);
    const { ids, raws } = messagesFor(agent, 600);
    // Delivered while no poller reads the mailbox, so that the poller meets one long run of work.
    await svc.stopInstance(0);
    await dovecot.append(raws, "Restart");
    const api = new Api((await svc.startAnother()).url);
    await waitFor(async () => (await total(api, agent)) > 0, 15_000, "the first messages");
    await dovecot.halt();
    expect(await total(api, agent)).toBeLessThan(600);
    await new Promise((r) => setTimeout(r, 1500));
    await dovecot.resume();
    await inboxOf(api, agent, 600, 60_000);
    const stored = await storedIds(api, agent);
    expect(stored).toHaveLength(600);
    expect(new Set(stored)).toEqual(new Set(ids));
    expect(duplicates(svc.logs)).toBe(0);
    expect(svc.logs.some((l) => l.event === "imap_disconnected")).toBe(true);
    expect(svc.logs.filter((l) => l.event === "imap_connected").length).toBeGreaterThanOrEqual(2);
  } finally {
    await svc.stop();
  }
}, 90_000);

test("the service killed mid-batch: the next one finishes, each message once", async () => {
  await createMailbox("Killed");
  const database = freshDatabase();
  const processEnv = { ...env("Killed"), DATABASE_URL: database.url };
  // No poller yet: the agent is made, its mail delivered, then the first poller starts on it.
  const setup = await spawnService({ ...processEnv, IMAP_URL: "" });
  const agent = await createVerifiedAgent(new Api(setup.url), x);
  await setup.kill();
  const { ids, raws } = messagesFor(agent, 600);
  await dovecot.append(raws, "Killed");
  const first = await spawnService(processEnv);
  let second: Awaited<ReturnType<typeof spawnService>> | null = null;
  try {
    await waitFor(async () => (await total(new Api(first.url), agent)) > 0, 15_000, "the first messages");
    await first.kill();
    second = await spawnService(processEnv);
    const api = new Api(second.url);
    expect(await total(api, agent)).toBeLessThan(600);
    // The killed instance never released its lease: the next sees it gone and takes over at once.
    await inboxOf(api, agent, 600, 80_000);
    const stored = await storedIds(api, agent);
    expect(stored).toHaveLength(600);
    expect(new Set(stored)).toEqual(new Set(ids));
    // The killed batch never committed, so the next poller met no message twice.
    expect(`${first.output()}${second.output()}`).not.toMatch(/"duplicate":/);
  } finally {
    await first.kill();
    await second?.kill();
    await database.drop();
  }
}, 120_000);

test("a killed service's successor polls at once, not once the 30-second lease runs out", async () => {
  await createMailbox("Successor");
  const database = freshDatabase();
  const processEnv = { ...env("Successor"), DATABASE_URL: database.url, IMAP_POLL_INTERVAL_MS: "60000" };
  const first = await spawnService(processEnv);
  let second: Awaited<ReturnType<typeof spawnService>> | null = null;
  try {
    const agent = await createVerifiedAgent(new Api(first.url), x);
    await dovecot.append(rawMessage({ to: `${agent.id}@mail.example`, subject: "before" }), "Successor");
    await inboxOf(new Api(first.url), agent, 1);
    await first.kill();
    second = await spawnService(processEnv);
    const started = Date.now();
    await dovecot.append(rawMessage({ to: `${agent.id}@mail.example`, subject: "after" }), "Successor");
    await inboxOf(new Api(second.url), agent, 2, 25_000);
    expect(Date.now() - started).toBeLessThan(15_000);
  } finally {
    await first.kill();
    await second?.kill();
    await database.drop();
  }
}, 60_000);

test("an instance that stops hands the lease back: the one waiting polls within seconds, not at its next look", async () => {
  await createMailbox("Handover");
  const database = freshDatabase();
  const processEnv = { ...env("Handover"), DATABASE_URL: database.url, IMAP_POLL_INTERVAL_MS: "60000" };
  const first = await spawnService(processEnv);
  let second: Awaited<ReturnType<typeof spawnService>> | null = null;
  try {
    const agent = await createVerifiedAgent(new Api(first.url), x);
    await dovecot.append(rawMessage({ to: `${agent.id}@mail.example`, subject: "before" }), "Handover");
    await inboxOf(new Api(first.url), agent, 1);
    // The second asks for the lease as it starts, and is refused: the first holds it.
    second = await spawnService(processEnv);
    await new Promise((r) => setTimeout(r, 500));
    const store = await openDatabase(database.url);
    try {
      const [held] = await store.prisma.lease.findMany();
      first.terminate();
      expect(await first.exited).toBe(0);
      // Handed back as it stopped: gone, or already the second's; never still the first's.
      expect((await store.prisma.lease.findMany()).map((lease) => lease.holder)).not.toContain(held?.holder);
      await dovecot.append(rawMessage({ to: `${agent.id}@mail.example`, subject: "after" }), "Handover");
      await inboxOf(new Api(second.url), agent, 2, 25_000);
      // Polled by the second before the first's lease (renewed every 10 s, for 30 s) would have run out.
      expect(Date.now()).toBeLessThan(held?.expiresAt.getTime() ?? 0);
    } finally {
      await store.close();
    }
  } finally {
    await first.kill();
    await second?.kill();
    await database.drop();
  }
}, 60_000);

/** How often the poller met a message it had filed before. */
function duplicates(logs: { event: string; fields: Record<string, unknown> }[]): number {
  return logs.filter((l) => l.event === "imap_batch").reduce((sum, l) => sum + Number(l.fields.duplicate ?? 0), 0);
}

test("a UIDVALIDITY change: new mail under reused UIDs is read, nothing comes back twice or after deletion", async () => {
  await createMailbox("Validity");
  const svc = await startTestService(env("Validity"));
  try {
    const api = new Api(svc.url);
    const agent = await createVerifiedAgent(api, x);
    const { ids, raws } = messagesFor(agent, 5);
    const [a, b, c, d, e] = ids as [string, string, string, string, string];
    await dovecot.append(raws.slice(0, 3), "Validity");
    const first = (await inboxOf(api, agent, 3)).body.data as { id: string; messageId: string }[];
    const deleted = first.find((email) => email.messageId === a);
    await api.delete(`/agents/${agent.id}/emails/${deleted?.id}?permanent=true`, { key: agent.apiKey });
    // The server loses its index, as after a rebuild or a move to another server, and C
    // is gone from it: A and B come back under a new UIDVALIDITY as UIDs 1 and 2, so D
    // and E get UIDs 3 and 4, the first of them no higher than the old cursor.
    await dovecot.halt();
    await new Promise((r) => setTimeout(r, 1100));
    dovecot.rebuild("Validity", [c]);
    await dovecot.resume();
    await dovecot.append(raws.slice(3), "Validity");
    await waitFor(async () => (await storedIds(api, agent)).length >= 4, 30_000, "D and E");
    await waitFor(() => duplicates(svc.logs) >= 2, 15_000, "A and B met again");
    const stored = await storedIds(api, agent);
    expect(new Set(stored)).toEqual(new Set([b, c, d, e]));
    expect(stored).toHaveLength(4);
    expect(svc.logs.some((l) => l.event === "imap_uidvalidity_changed")).toBe(true);
  } finally {
    await svc.stop();
  }
}, 60_000);

describe("IMAP_PROCESSED", () => {
  test.each([
    ["delete", "Deleted", null],
    ["move:Processed", "Moved", "Processed"],
  ])("%s takes stored messages out of the catch-all", async (processed, mailbox, target) => {
    await createMailbox(mailbox);
    if (target) await createMailbox(target).catch(() => {});
    const svc = await startTestService({ ...env(mailbox), IMAP_PROCESSED: processed });
    try {
      const api = new Api(svc.url);
      const agent = await createVerifiedAgent(api, x);
      const id = messageId();
      await dovecot.append(rawMessage({ to: `${agent.id}@mail.example`, id }), mailbox);
      await inboxOf(api, agent, 1);
      const client = await dovecot.client();
      try {
        const left = await waitFor(async () => {
          const status = await client.status(mailbox, { messages: true });
          return status && status.messages === 0 ? status : null;
        });
        expect(left.messages).toBe(0);
        if (target) {
          await client.mailboxOpen(target);
          expect(await client.search({ header: { "message-id": id } })).toHaveLength(1);
        }
      } finally {
        await client.logout();
      }
    } finally {
      await svc.stop();
    }
  });
});

describe("IMAP_PROCESSED refused by the server", () => {
  test("is logged and tried again on the next pass", async () => {
    await createMailbox("MoveLater");
    const svc = await startTestService({ ...env("MoveLater"), IMAP_PROCESSED: "move:NotYet" });
    const client = await dovecot.client();
    try {
      const api = new Api(svc.url);
      const agent = await createVerifiedAgent(api, x);
      const id = messageId();
      await dovecot.append(rawMessage({ to: `${agent.id}@mail.example`, id }), "MoveLater");
      await inboxOf(api, agent, 1);
      await waitFor(() => svc.logs.find((l) => l.event === "imap_mark_failed"), 5_000, "the failed move");
      const waiting = async () => {
        const status = await client.status("MoveLater", { messages: true });
        return status ? status.messages : null;
      };
      expect(await waiting()).toBe(1);
      await client.mailboxCreate("NotYet");
      await waitFor(async () => (await waiting()) === 0, 10_000, "the retried move");
      await client.mailboxOpen("NotYet");
      expect(await client.search({ header: { "message-id": id } })).toHaveLength(1);
      expect(await total(api, agent)).toBe(1);
    } finally {
      await client.logout();
      await svc.stop();
    }
  });
});

describe.runIf(process.env.TEST_DATABASE === "postgresql")("several instances on one PostgreSQL", () => {
  test("start together, migrate once, poll one at a time, and hand over", async () => {
    await createMailbox("Shared");
    const svc = await startTestService(env("Shared"));
    try {
      await Promise.all([svc.startAnother(), svc.startAnother()]);
      const api = new Api(svc.url);
      const agent = await createVerifiedAgent(api, x);
      const { ids, raws } = messagesFor(agent, 100);
      await dovecot.append(raws, "Shared");
      await inboxOf(api, agent, 100, 30_000);
      expect(svc.logs.filter((l) => l.event === "migrations_applied")).toHaveLength(1);
      const pollers = () => svc.logs.filter((l) => l.event === "imap_connected").map((l) => l.instance);
      expect(new Set(pollers()).size).toBe(1);
      const [holder = 0] = pollers();
      await svc.stopInstance(holder);
      const survivor = new Api(svc.instances[(holder + 1) % 3]?.url ?? "");
      await dovecot.append(rawMessage({ to: `${agent.id}@mail.example`, subject: "after the handover" }), "Shared");
      await inboxOf(survivor, agent, 101, 40_000);
      expect(pollers().filter((instance) => instance !== holder).length).toBe(1);
      expect(duplicates(svc.logs)).toBe(0);
      const stored = await storedIds(survivor, agent);
      expect(stored).toHaveLength(101);
      expect(new Set(stored.slice(1))).toEqual(new Set(ids));
    } finally {
      await svc.stop();
    }
  }, 90_000);
});
