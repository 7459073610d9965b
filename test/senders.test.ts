import { connect } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { inboxOf } from "./support/inbox.ts";
import { rawMessage } from "./support/mail.ts";
import { adminOf } from "./support/pods.ts";
import { Rspamd } from "./support/rspamd.ts";
import { served } from "./support/served.ts";
import { doorPort } from "./support/service.ts";
import { waitFor } from "./support/wait.ts";

// Allow and block lists: the agent's own, through the poller (addresses,
// @domains and @*.domains, without regard to case); the instance's, a
// domain's and an agent's, set by the operator, deciding at the SMTP door's
// RCPT TO (the narrowest scope naming a sender wins) and for sends; and on
// the paths without RCPT TO, before a message is read: a refused sender's
// mail is never put to the real Rspamd started for the file.

/** GTUBE (spamassassin.apache.org/gtube): the string every spam filter is meant to reject. */
const GTUBE = "XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X";

const ADMIN = "admin-token-senders-0123456789";
const INBOUND = "inbound-token-senders-0123456789";

let rspamd: Rspamd;
// Registered before served(): Rspamd answers before the service starts, and stops after it.
beforeAll(async () => {
  rspamd = await Rspamd.start();
});
afterAll(async () => {
  await rspamd?.stop();
});

const { svc, api, x, dovecot, provider } = served({
  imap: true,
  smtp: true,
  env: () => ({
    SMTP_INGRESS_PORT: "0",
    SMTP_INGRESS_HOST: "127.0.0.1",
    ADMIN_TOKEN: ADMIN,
    INBOUND_TOKEN: INBOUND,
    RSPAMD_URL: rspamd.url,
  }),
});

const admin = adminOf(api, ADMIN);

/** One SMTP dialogue on a raw socket: each command's reply, after the banner's. */
async function dialogue(commands: string[]): Promise<string[]> {
  const socket = connect(doorPort(svc), "127.0.0.1");
  let buffered = "";
  const waiting: ((reply: string) => void)[] = [];
  socket.on("data", (chunk) => {
    buffered += chunk.toString();
    // A reply ends with a line whose code is followed by a space.
    for (let match = /^\d{3} .*\r\n/m.exec(buffered); match; match = /^\d{3} .*\r\n/m.exec(buffered)) {
      const end = match.index + match[0].length;
      waiting.shift()?.(buffered.slice(0, end));
      buffered = buffered.slice(end);
    }
  });
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  await next();
  const replies: string[] = [];
  for (const command of commands) {
    const reply = next();
    socket.write(`${command}\r\n`);
    replies.push(await reply);
  }
  socket.end();
  return replies;
}

/** What RCPT TO for the agent is answered with mail from each sender: the reply's code and status. */
async function rcptAnswers(agent: TestAgent, senders: string[]): Promise<string[]> {
  // RSET between senders; of each, RCPT TO's reply: 250, or a refusal's code and status.
  const commands = senders.flatMap((from) => ["RSET", `MAIL FROM:<${from}>`, `RCPT TO:<${agent.id}@mail.example>`]);
  const replies = await dialogue(["EHLO client.example", ...commands, "QUIT"]);
  return replies
    .filter((_, n) => n > 0 && n % 3 === 0)
    .map((reply) => (reply.startsWith("250") ? "250" : reply.slice(0, 9)));
}

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
    body: { allow: ["boss@work.example", "@partner.example", "marker@always.example"], block: [], allowOnly: true },
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
  expect((await api.get(`/agents/${agent.id}/senders`, { key: agent.apiKey })).body).toEqual({
    allow: [],
    block: [],
    allowOnly: false,
  });
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

/** How many messages the service has put to Rspamd, by its metrics. */
async function scannedByRspamd(): Promise<number> {
  const metrics = await (await fetch(`${svc.url}/metrics`)).text();
  const lines = metrics.split("\n").filter((line) => /^pigeonhole_inbound_scans_total\{.*scanner="rspamd"/.test(line));
  return lines.reduce((sum, line) => sum + Number(line.split(" ").at(-1)), 0);
}

/** Hands a message to POST /inbound/raw as a provider would; each recipient's outcome. */
async function postRaw(to: string, raw: string): Promise<string[]> {
  const reply = await fetch(`${svc.url}/inbound/raw`, {
    method: "POST",
    body: raw,
    headers: { Authorization: `Bearer ${INBOUND}`, "Content-Type": "message/rfc822", "X-Envelope-To": to },
  });
  expect(reply.status).toBe(200);
  return ((await reply.json()) as { recipients: { outcome: string }[] }).recipients.map(({ outcome }) => outcome);
}

describe("before the message is read", () => {
  test("a blocked From's GTUBE is never scanned, through /inbound/raw or the catch-all: nothing filed, nothing held", async () => {
    const agent = await createVerifiedAgent(api, x);
    const to = `${agent.id}@mail.example`;
    try {
      await admin("PUT", "/lists", { receive: { block: ["@blocked.example"] } });
      const spam = (subject: string) =>
        rawMessage({ to, from: "Spammer <spammer@blocked.example>", subject, body: GTUBE });
      const before = await scannedByRspamd();
      expect(await postRaw(to, spam("raw spam"))).toEqual(["refused"]);
      expect(await scannedByRspamd()).toBe(before);
      // Through the catch-all, then a marker that is scanned: once it is filed, the spam was read off the server.
      expect(await receive(agent, [])).toEqual([]);
      const marked = await scannedByRspamd();
      await dovecot.append(`X-Original-To: ${to}\r\n${spam("caught spam")}`);
      expect(await receive(agent, [])).toEqual([]);
      // The marker alone was scanned.
      expect(await scannedByRspamd()).toBe(marked + 1);
      const dropped = svc.logs.filter((l) => l.event === "inbound_dropped" && l.fields.reason === "sender_refused");
      expect(dropped.filter((l) => l.fields.recipient === to)).toHaveLength(2);
      const held = await admin("GET", `/quarantine?agentId=${agent.id}`);
      expect(held.body.data).toEqual([]);
      const filed = (await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.data;
      expect(filed.map((email: { subject: string }) => email.subject)).not.toContain("caught spam");
      expect(filed.map((email: { subject: string }) => email.subject)).not.toContain("raw spam");
      // Not blocked, the same GTUBE is scanned, and held as spam.
      await dovecot.append(`X-Original-To: ${to}\r\n${rawMessage({ to, subject: "open spam", body: GTUBE })}`);
      await waitFor(async () => (await admin("GET", `/quarantine?agentId=${agent.id}`)).body.data[0], 15_000, "held");
    } finally {
      await admin("PUT", "/lists", { receive: {} });
    }
  });

  test("allow only: a stranger's message is refused unscanned; a listed one is scanned and filed", async () => {
    const agent = await createVerifiedAgent(api, x);
    const to = `${agent.id}@mail.example`;
    await setLists(agent, { allow: ["boss@work.example"], allowOnly: true });
    const before = await scannedByRspamd();
    expect(await postRaw(to, rawMessage({ to, from: "stranger@else.example", subject: "who" }))).toEqual(["refused"]);
    expect(await scannedByRspamd()).toBe(before);
    expect(await postRaw(to, rawMessage({ to, from: "Boss@Work.example", subject: "boss" }))).toEqual(["filed"]);
    expect(await scannedByRspamd()).toBe(before + 1);
    const inbox = await inboxOf(api, agent, 1);
    expect(inbox.body.data.map((email: { subject: string }) => email.subject)).toEqual(["boss"]);
  });
});

describe("three scopes", () => {
  test("the SMTP door refuses at RCPT TO by the instance's, the domain's and the agent's lists; the narrowest wins", async () => {
    const agent = await createVerifiedAgent(api, x);
    const other = await createVerifiedAgent(api, x);
    try {
      await admin("PUT", "/lists", { receive: { block: ["@inst.example", "@*.bulk.example"] } });
      await admin("PUT", "/domains/mail.example/lists", {
        receive: { allow: ["friend@inst.example"], block: ["@dom.example"] },
      });
      const own = await api.call("PUT", `/agents/${agent.id}/senders`, {
        key: agent.apiKey,
        body: { allow: ["pal@dom.example"], block: ["friend@inst.example"], allowOnly: false },
      });
      expect(own.body).toEqual({ allow: ["pal@dom.example"], block: ["friend@inst.example"], allowOnly: false });
      const senders = [
        "x@inst.example",
        "x@mx.bulk.example",
        "friend@inst.example",
        "x@dom.example",
        "pal@dom.example",
        "anyone@else.example",
      ];
      expect(await rcptAnswers(agent, senders)).toEqual([
        "550 5.7.1",
        "550 5.7.1",
        "550 5.7.1",
        "550 5.7.1",
        "250",
        "250",
      ]);
      expect(await rcptAnswers(other, senders)).toEqual([
        "550 5.7.1",
        "550 5.7.1",
        "250",
        "550 5.7.1",
        "550 5.7.1",
        "250",
      ]);
      // The header From is not the envelope's: the poller, which reads it, files nothing from a blocked one.
      expect(await receive(agent, ["x@inst.example", "pal@dom.example"])).toEqual(["from pal@dom.example"]);
    } finally {
      await admin("PUT", "/lists", { receive: {} });
      await admin("PUT", "/domains/mail.example/lists", { receive: {} });
    }
  });

  test("a send to a recipient a list blocks is refused, naming it; an agent's allow wins over the instance's block", async () => {
    const agent = await createVerifiedAgent(api, x);
    const send = (to: string[]) =>
      api.post(`/agents/${agent.id}/send`, { key: agent.apiKey, body: { to, subject: "Hi", text: "Hello" } });
    try {
      await admin("PUT", "/lists", { send: { block: ["@rival.example"] } });
      const before = provider.deliveries.length;
      const refused = await send(["ceo@rival.example", "pat@elsewhere.example"]);
      expect(refused.status).toBe(400);
      expect(refused.body).toMatchObject({
        error: "Bad Request",
        code: "RECIPIENT_BLOCKED",
        recipients: ["ceo@rival.example"],
        message: "Sending to ceo@rival.example (the instance's send list) is blocked",
      });
      expect(provider.deliveries.length).toBe(before);
      await admin("PUT", `/agents/${agent.id}/lists`, { send: { allow: ["ceo@rival.example"] } });
      expect((await send(["ceo@rival.example"])).status).toBe(201);
      expect((await send(["cfo@rival.example"])).body.code).toBe("RECIPIENT_BLOCKED");
    } finally {
      await admin("PUT", "/lists", { send: {} });
    }
  });

  test("the operator's routes and GraphQL; an agent's key opens none of them", async () => {
    const agent = await createVerifiedAgent(api, x);
    const empty = { allow: [], block: [] };
    expect((await admin("GET", "/lists")).body).toEqual({ receive: empty, send: empty });
    const set = await admin("PUT", `/agents/${agent.id}/lists`, {
      receive: { allow: ["Boss@Work.example"] },
      allowOnly: true,
    });
    expect(set.body).toEqual({ receive: { allow: ["boss@work.example"], block: [] }, send: empty, allowOnly: true });
    // Allow only, set by the operator: decided at RCPT TO, before the message is sent.
    expect(await rcptAnswers(agent, ["boss@work.example", "x@else.example"])).toEqual(["250", "550 5.7.1"]);
    expect((await api.get(`/agents/${agent.id}/senders`, { key: agent.apiKey })).body).toEqual({
      allow: ["boss@work.example"],
      block: [],
      allowOnly: true,
    });
    expect((await admin("GET", "/domains/nowhere.example/lists")).status).toBe(404);
    expect((await admin("PUT", "/lists", { allowOnly: true })).body).toMatchObject({
      statusCode: 400,
      message: "allowOnly: only an agent's lists have an allow-only mode",
    });
    expect((await admin("PUT", "/lists", { send: { block: ["not an address"] } })).body.message).toMatch(
      /^send\.block: "not an address" is not an address, @domain or @\*\.domain$/,
    );
    const graphql = await api.graphql(
      `query($a: ID!) { admin { lists(agentId: $a) { receive { allow } allowOnly } } }`,
      { a: agent.id },
      ADMIN,
    );
    expect(graphql.body.data.admin.lists).toEqual({ receive: { allow: ["boss@work.example"] }, allowOnly: true });
    for (const [method, path] of [
      ["GET", "/admin/lists"],
      ["PUT", "/admin/lists"],
      ["GET", "/admin/domains/mail.example/lists"],
      ["PUT", "/admin/domains/mail.example/lists"],
      ["GET", `/admin/agents/${agent.id}/lists`],
      ["PUT", `/admin/agents/${agent.id}/lists`],
    ] as const) {
      const body = method === "PUT" ? { receive: { allow: ["me@x.example"] } } : undefined;
      expect((await api.call(method, path, { key: agent.apiKey, body })).status, path).toBe(403);
      expect((await api.call(method, path, { body })).status, path).toBe(401);
    }
    const viaGraphql = await api.graphql(
      `mutation { admin { setLists(change: { receive: { allow: ["me@x.example"] } }) { allowOnly } } }`,
      {},
      agent.apiKey,
    );
    expect(viaGraphql.body.errors[0].extensions).toMatchObject({ code: "FORBIDDEN", status: 403 });
    expect((await admin("GET", "/lists")).body).toEqual({ receive: empty, send: empty });
  });
});
