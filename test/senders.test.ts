import { expect, test } from "vitest";
import { createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { inboxOf } from "./support/inbox.ts";
import { rawMessage } from "./support/mail.ts";
import { served } from "./support/served.ts";
import { waitFor } from "./support/wait.ts";

// Who may mail an agent, through the poller: allow and block lists of
// addresses and @domains, without regard to case.

const { svc, api, x, dovecot } = served({ imap: true });

const setLists = (agent: TestAgent, body: unknown) =>
  api.call("PUT", `/agents/${agent.id}/senders`, { key: agent.apiKey, body });

/** Mails the agent from each sender, then a marker from a sender every test lets through; the subjects filed. */
async function receive(agent: TestAgent, senders: string[]): Promise<string[]> {
  const before = (await api.get(`/agents/${agent.id}/emails?limit=1`, { key: agent.apiKey })).body.total as number;
  const marker = `marker ${Math.random()}`;
  for (const from of [...senders, "marker@always.example"]) {
    const subject = from === "marker@always.example" ? marker : `from ${from}`;
    await dovecot.append(
      `X-Original-To: ${agent.id}@mail.example\r\n${rawMessage({ to: `${agent.id}@mail.example`, from, subject })}`,
    );
  }
  // The marker came last: once it is filed, everything before it was filed or dropped.
  const subjects = await waitFor(
    async () => {
      const inbox = await inboxOf(api, agent, before + 1);
      const filed: string[] = inbox.body.data.map((e: { subject: string }) => e.subject);
      return filed.includes(marker) ? filed : null;
    },
    15_000,
    "the marker",
  );
  const sent = new Set(senders.map((from) => `from ${from}`));
  return subjects.filter((subject: string) => sent.has(subject)).sort();
}

test("allow only: only the listed addresses and domains, without case", async () => {
  const agent = await createVerifiedAgent(api, x);
  const set = await setLists(agent, { allow: ["Boss@Work.example", "@Partner.example", "marker@always.example"] });
  expect(set).toMatchObject({
    status: 200,
    body: { allow: ["boss@work.example", "@partner.example", "marker@always.example"], block: [] },
  });
  const filed = await receive(agent, [
    "boss@work.example",
    "BOSS@WORK.EXAMPLE",
    "anyone@partner.example",
    "stranger@else.example",
    "boss@work.example.evil",
  ]);
  expect(filed).toEqual(["from BOSS@WORK.EXAMPLE", "from anyone@partner.example", "from boss@work.example"]);
  const dropped = svc.logs.filter((l) => l.event === "inbound_dropped" && l.fields.reason === "sender_refused");
  expect(dropped.length).toBeGreaterThanOrEqual(2);
});

test("block: never those; both lists: blocked wins over allowed", async () => {
  const agent = await createVerifiedAgent(api, x);
  await setLists(agent, { block: ["@spam.example", "pest@nuisance.example"] });
  expect(await receive(agent, ["a@spam.example", "PEST@nuisance.example", "friend@nuisance.example"])).toEqual([
    "from friend@nuisance.example",
  ]);
  await setLists(agent, { allow: ["@corp.example", "marker@always.example"], block: ["intern@corp.example"] });
  expect(await receive(agent, ["ceo@corp.example", "intern@corp.example", "x@other.example"])).toEqual([
    "from ceo@corp.example",
  ]);
});

test("GET, GraphQL, and refusals in the spec's shape", async () => {
  const agent = await createVerifiedAgent(api, x);
  expect((await api.get(`/agents/${agent.id}/senders`, { key: agent.apiKey })).body).toEqual({ allow: [], block: [] });
  await setLists(agent, { block: ["@x.example"] });
  const graphql = await api.graphql(
    `query($a: ID!) { agent(id: $a) { senders { allow block } } }`,
    { a: agent.id },
    agent.apiKey,
  );
  expect(graphql.body.data.agent.senders).toEqual({ allow: [], block: ["@x.example"] });
  for (const [body, message] of [
    [{ allow: ["not an address"] }, "allow:"],
    [{ block: ["@"] }, "block:"],
    [{ allow: Array.from({ length: 1001 }, (_, n) => `a${n}@example.com`) }, "at most 1000"],
    [{ allow: "a@example.com" }, null],
  ] as const) {
    const reply = await setLists(agent, body);
    if (message === null) {
      expect(reply.body.allow).toEqual(["a@example.com"]);
      continue;
    }
    expect(reply.status).toBe(400);
    expect(reply.body).toMatchObject({ error: "Bad Request", message: expect.stringContaining(message) });
  }
  const other = await createVerifiedAgent(api, x);
  expect((await api.get(`/agents/${agent.id}/senders`, { key: other.apiKey })).status).toBe(403);
});
