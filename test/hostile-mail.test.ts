import { describe, expect, test } from "vitest";
import { SET_ASIDE_FLAGS } from "../src/inbound/server-marks.ts";
import { Api, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { refuseSubject } from "./support/faults.ts";
import { inboxOf } from "./support/inbox.ts";
import { longEnvelope, manyLines, oneLongWord, rawMessage } from "./support/mail.ts";
import { peersOf } from "./support/served.ts";
import { startTestService, type TestService } from "./support/service.ts";
import { waitFor } from "./support/wait.ts";

// Mail written to hurt: messages whose reading would take quadratic time,
// and a message the database refuses to store. None may hold up the
// mailbox, the other mail or the service's answers.

const { x, dovecot } = peersOf({ imap: true });

const address = (agent: TestAgent) => `${agent.id}@mail.example`;

async function serviceOn(mailbox: string, env: Record<string, string> = {}): Promise<TestService> {
  const client = await dovecot.client();
  await client.mailboxCreate(mailbox);
  await client.logout();
  return startTestService({
    SOCIAL_OEMBED_URL: x.url,
    MAIL_DOMAIN: "mail.example",
    IMAP_URL: dovecot.url(mailbox),
    IMAP_POLL_INTERVAL_MS: "1000",
    ...env,
  });
}

/** The flags of each message in a mailbox, by subject (but \\Recent, which only says a session first saw it). */
async function flagsBySubject(mailbox: string): Promise<Record<string, string[]>> {
  const client = await dovecot.client();
  try {
    await client.mailboxOpen(mailbox);
    const messages = await client.fetchAll("1:*", { envelope: true, flags: true });
    return Object.fromEntries(
      messages.map((m) => [
        m.envelope?.subject ?? "",
        [...(m.flags ?? [])].filter((flag) => flag !== "\\Recent").sort(),
      ]),
    );
  } finally {
    await client.logout();
  }
}

test("one 4 MB word, 150,000 lines and a 400 KB envelope header are filed with their reading help, and the service answers meanwhile", async () => {
  const svc = await serviceOn("Poison");
  try {
    const api = new Api(svc.url);
    const agent = await createVerifiedAgent(api, x);
    await dovecot.append(
      [
        oneLongWord(address(agent)),
        manyLines(address(agent)),
        longEnvelope(address(agent)),
        oneLongWord("nobody@mail.example"),
      ],
      "Poison",
    );
    await dovecot.append(rawMessage({ to: address(agent), subject: "after them" }), "Poison");
    // Requests are answered while the poison is read: its reading is not on the thread that answers.
    let answered = 0;
    const inbox = await waitFor(
      async () => {
        expect((await api.get("/healthz")).status).toBe(200);
        answered++;
        const reply = await api.get(`/agents/${agent.id}/emails?limit=10`, { key: agent.apiKey });
        return reply.body.total === 4 && reply.body.data.length === 4 ? reply.body.data : null;
      },
      40_000,
      "the four messages",
    );
    expect(answered).toBeGreaterThan(0);
    const subjects = inbox.map((email: { subject: string }) => email.subject).sort();
    expect(subjects).toEqual(["after them", "long envelope", "many lines", "one long word"]);
    const word = inbox.find((email: { subject: string }) => email.subject === "one long word");
    const read = await api.get(`/agents/${agent.id}/emails/${word.id}`, { key: agent.apiKey });
    expect(read.body.bodyText.length).toBeGreaterThanOrEqual(4 * 1024 * 1024);
    expect(read.body.preview).toBe("x".repeat(200));
    expect(read.body.codes).toEqual([]);
    const lines = inbox.find((email: { subject: string }) => email.subject === "many lines");
    expect(lines.preview.startsWith("line 0 line 1 line 2")).toBe(true);
  } finally {
    await svc.stop();
  }
}, 90_000);

describe("a message whose filing keeps failing", () => {
  test.each([
    ["seen", "SetAsideSeen", "SetAsideSeen"],
    ["move:Done", "SetAsideMove", "Done"],
  ])(
    "IMAP_PROCESSED=%s: set aside after 3 tries, flagged there, logged with its UID, counted; the rest filed",
    async (processed, mailbox, endsIn) => {
      if (processed.startsWith("move:")) {
        const client = await dovecot.client();
        await client.mailboxCreate(processed.slice(5)).catch(() => {});
        await client.logout();
      }
      const svc = await serviceOn(mailbox, { IMAP_PROCESSED: processed });
      try {
        const api = new Api(svc.url);
        const agent = await createVerifiedAgent(api, x);
        await refuseSubject(svc, "poison pill");
        const subjects = ["first", "second", "poison pill", "third", "fourth"];
        await dovecot.append(
          subjects.map((subject) => rawMessage({ to: address(agent), subject })),
          mailbox,
        );
        const inbox = (await inboxOf(api, agent, 4, 30_000)).body.data;
        expect(inbox.map((email: { subject: string }) => email.subject).sort()).toEqual([
          "first",
          "fourth",
          "second",
          "third",
        ]);
        const setAside = svc.logs.filter((line) => line.event === "inbound_set_aside");
        expect(setAside).toEqual([
          expect.objectContaining({ fields: expect.objectContaining({ reason: "failed", uid: 3 }) }),
        ]);
        expect(JSON.stringify(svc.logs)).not.toMatch(/INSERT|SELECT|\.ts:\d/);
        const metrics = await api.get("/metrics");
        expect(metrics.text).toMatch(/pigeonhole_inbound_messages_total\{outcome="failed"\} 1\b/);
        const flags = await waitFor(
          async () => {
            const found = await flagsBySubject(endsIn);
            return found["poison pill"]?.includes("$PigeonholeSetAside") ? found : null;
          },
          10_000,
          "the flags",
        );
        expect(flags["poison pill"]).toEqual([...SET_ASIDE_FLAGS].sort());
        if (processed === "seen") expect(flags.first).toEqual(["\\Seen"]);
        // The poller goes on: later mail is filed at once.
        await dovecot.append(rawMessage({ to: address(agent), subject: "later" }), mailbox);
        await inboxOf(api, agent, 5);
      } finally {
        await svc.stop();
      }
    },
    60_000,
  );
});
