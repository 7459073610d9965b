import { expect, test } from "vitest";
import { emptyTrash } from "../src/mailbox/cleanup.ts";
import { createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { inboxOf } from "./support/inbox.ts";
import { messageId, rawMessage } from "./support/mail.ts";
import { served } from "./support/served.ts";
import { waitFor } from "./support/wait.ts";

// TRASH_RETENTION_DAYS: mail in the trash is deleted for good that many days
// after it went in, its bytes freed, and the message never comes back from
// the catch-all. Mail filed through Dovecot; the clock is the test's.

const DAY = 86_400_000;

const { svc, api, x, dovecot } = served({ imap: true, env: { TRASH_RETENTION_DAYS: "30" } });

async function receive(agent: TestAgent, count: number) {
  const raws = Array.from({ length: count }, (_, n) =>
    rawMessage({ to: `${agent.id}@mail.example`, id: messageId(), subject: `Message ${n}` }),
  );
  for (const raw of raws) await dovecot.append(raw);
  const emails = (await inboxOf(api, agent, count)).body.data as { id: string; subject: string }[];
  return { raws, ids: raws.map((_, n) => emails.find((email) => email.subject === `Message ${n}`)?.id as string) };
}

const agentOf = async (agent: TestAgent) => (await api.get(`/agents/${agent.id}`, { key: agent.apiKey })).body;
const folderOf = async (agent: TestAgent, id: string) =>
  (await api.get(`/agents/${agent.id}/emails/${id}`, { key: agent.apiKey })).body.folder;

test("mail goes TRASH_RETENTION_DAYS after it was trashed, freeing its bytes, and never comes back", async () => {
  const agent = await createVerifiedAgent(api, x);
  const { raws, ids } = await receive(agent, 3);
  const [deleted, moved, kept] = ids as [string, string, string];
  const full = (await agentOf(agent)).storageUsed;

  await api.delete(`/agents/${agent.id}/emails/${deleted}`, { key: agent.apiKey });
  svc.clock.advance(10 * DAY);
  await api.call("PATCH", `/agents/${agent.id}/emails/${moved}`, { key: agent.apiKey, body: { folder: "trash" } });
  // Marking it read in the trash does not restart its time.
  await api.call("PATCH", `/agents/${agent.id}/emails/${deleted}`, { key: agent.apiKey, body: { isRead: true } });

  svc.clock.advance(20 * DAY - 60_000);
  expect(await emptyTrash(svc.service.services)).toBe(0);
  svc.clock.advance(60_000);
  expect(await emptyTrash(svc.service.services)).toBe(1);
  expect((await api.get(`/agents/${agent.id}/emails/${deleted}`, { key: agent.apiKey })).status).toBe(404);
  expect(await folderOf(agent, moved)).toBe("trash");
  expect(await folderOf(agent, kept)).toBe("inbox");
  expect((await agentOf(agent)).storageUsed).toBe(full - Buffer.byteLength(raws[0] as string));

  // Taken out of the trash and put back: its time starts again.
  svc.clock.advance(5 * DAY);
  await api.call("PATCH", `/agents/${agent.id}/emails/${moved}`, { key: agent.apiKey, body: { folder: "archive" } });
  await api.call("PATCH", `/agents/${agent.id}/emails/${moved}`, { key: agent.apiKey, body: { folder: "trash" } });
  svc.clock.advance(29 * DAY);
  expect(await emptyTrash(svc.service.services)).toBe(0);
  svc.clock.advance(DAY);
  expect(await emptyTrash(svc.service.services)).toBe(1);

  const events = (await api.get(`/agents/${agent.id}/events?types=email.deleted`, { key: agent.apiKey })).body.data;
  expect(events.filter((event: { data: { permanent: boolean } }) => event.data.permanent)).toHaveLength(2);
  expect(svc.logs).toContainEqual({ level: "info", event: "trash_emptied", fields: { count: 1 }, instance: 0 });

  // The catch-all still holds the message: read again, it is not filed twice.
  await dovecot.append(raws[0] as string);
  await dovecot.append(rawMessage({ to: `${agent.id}@mail.example`, subject: "After" }));
  const subjects = async () =>
    (await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.data.map(
      (e: { subject: string }) => e.subject,
    );
  await waitFor(async () => (await subjects()).includes("After"), 15_000, "the later message");
  expect((await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.total).toBe(2);
});

test("several runs (instances on PostgreSQL) empty the trash at once: each email deleted once, storage exact", async () => {
  const agent = await createVerifiedAgent(api, x);
  const { ids } = await receive(agent, 30);
  await api.post(`/agents/${agent.id}/emails/batch`, { key: agent.apiKey, body: { emailIds: ids, folder: "trash" } });
  svc.clock.advance(31 * DAY);
  // Instances in one process cannot share a SQLite file's writer (one would block the thread the other needs).
  const instances =
    process.env.TEST_DATABASE === "postgresql"
      ? [svc.service, await svc.startAnother(), await svc.startAnother()]
      : [svc.service, svc.service, svc.service];
  const counts = await Promise.all(instances.map((instance) => emptyTrash(instance.services)));
  expect(counts.reduce((a, b) => a + b, 0)).toBe(30);
  expect((await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.total).toBe(0);
  expect((await agentOf(agent)).storageUsed).toBe(0);
});

test("TRASH_RETENTION_DAYS=0 keeps the trash until the agent empties it", async () => {
  const agent = await createVerifiedAgent(api, x);
  const { ids } = await receive(agent, 1);
  await api.delete(`/agents/${agent.id}/emails/${ids[0]}`, { key: agent.apiKey });
  svc.clock.advance(3650 * DAY);
  const { services } = svc.service;
  expect(await emptyTrash({ ...services, config: { ...services.config, trashRetentionDays: 0 } })).toBe(0);
  expect(await folderOf(agent, ids[0] as string)).toBe("trash");
});
