import { describe, expect, test } from "vitest";
import { Api, createAgent, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { CATCH_ALL } from "./support/dovecot.ts";
import { inboxOf } from "./support/inbox.ts";
import { messageId, multipartAlternative, rawMessage, withAttachment } from "./support/mail.ts";
import { served } from "./support/served.ts";
import { withService } from "./support/service.ts";
import { waitFor } from "./support/wait.ts";

const { svc, api, x, dovecot } = served({
  imap: true,
  env: {
    // Long enough that only IDLE can explain mail arriving within seconds.
    IMAP_POLL_INTERVAL_MS: "60000",
    INBOUND_MAX_BYTES: "100000",
  },
});

const address = (agent: TestAgent) => `${agent.id}@mail.example`;

/** Delivers one message and returns the agent's newest email once it is there. */
async function deliver(agent: TestAgent, raw: string) {
  const before = (await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.total;
  await dovecot.append(raw);
  return (await inboxOf(api, agent, before + 1)).body.data[0];
}

describe("the poller", () => {
  test("files a message into the verified agent's inbox within seconds, through IDLE", async () => {
    const agent = await createVerifiedAgent(api, x);
    const id = messageId();
    const started = Date.now();
    const email = await deliver(
      agent,
      rawMessage({ to: address(agent), id, subject: "Welcome", body: "Hello agent." }),
    );
    expect(Date.now() - started).toBeLessThan(10_000);
    expect(email).toEqual({
      id: expect.any(String),
      agentId: agent.id,
      messageId: id,
      from: { address: "alice@sender.example", name: "Alice" },
      to: address(agent),
      subject: "Welcome",
      bodyText: "Hello agent.\n",
      bodyHtml: null,
      receivedAt: expect.any(Number),
      isRead: false,
      labels: [],
      folder: "inbox",
      // Additions to the specification's fields.
      threadId: expect.any(String),
      attachments: [],
      text: "Hello agent.\n",
      preview: "Hello agent.",
      replyText: "Hello agent.",
      links: [],
      codes: [],
      // Unsigned, no Received hop, and sender.example publishes no DMARC policy.
      authentication: { spf: null, dkim: "none", dmarc: "none", arc: "none", verdict: "none" },
      autoSubmitted: null,
      reportIgnored: null,
      // No scanner runs here; the screening always does.
      spam: null,
      malware: null,
      screening: { verdict: "clear", signals: [] },
    });
    const viaGraphql = await api.graphql(
      `query($a: ID!, $e: ID!) { email(agentId: $a, emailId: $e) { id messageId subject folder from { address name } } }`,
      { a: agent.id, e: email.id },
      agent.apiKey,
    );
    expect(viaGraphql.body.data.email).toEqual({
      id: email.id,
      messageId: id,
      subject: "Welcome",
      folder: "inbox",
      from: email.from,
    });
    const client = await dovecot.client();
    try {
      await client.mailboxOpen("INBOX");
      const unseen = await client.search({ seen: false, header: { "message-id": id } }, { uid: true });
      expect(unseen).toEqual([]);
    } finally {
      await client.logout();
    }
  });

  test("counts the raw size against storage", async () => {
    const agent = await createVerifiedAgent(api, x);
    const raw = withAttachment(address(agent));
    await deliver(agent, raw);
    const me = await api.get(`/agents/${agent.id}`, { key: agent.apiKey });
    expect(me.body.storageUsed).toBe(Buffer.byteLength(raw));
  });

  test.each([
    [
      "HTML only",
      (to: string) => rawMessage({ to, contentType: "text/html; charset=utf-8", body: "<p>Hello <b>world</b></p>" }),
      { bodyText: null, bodyHtml: "<p>Hello <b>world</b></p>\n" },
    ],
    [
      "multipart/alternative",
      (to: string) => multipartAlternative(to, "Plain part", "<p>HTML part</p>"),
      { bodyText: "Plain part", bodyHtml: "<p>HTML part</p>" },
    ],
    [
      "an attachment in nested multiparts",
      withAttachment,
      { subject: "Report attached", bodyText: "See the attached report.", bodyHtml: "<p>See the attached report.</p>" },
    ],
    [
      "encoded words in Subject and From",
      (to: string) =>
        rawMessage({
          to,
          from: "=?ISO-8859-1?Q?Andr=E9_M=FCller?= <andre@sender.example>",
          subject: "=?UTF-8?B?w4ljaGFuZ2UgZOKAmWlkw6llcyDwn5Ko?=",
        }),
      { subject: "Échange d’idées 💨", from: { address: "andre@sender.example", name: "André Müller" } },
    ],
    [
      "an ISO-8859-1 body",
      (to: string) =>
        rawMessage({
          to,
          contentType: "text/plain; charset=ISO-8859-1\r\nContent-Transfer-Encoding: quoted-printable",
          body: "Caf=E9 cr=E8me br=FBl=E9e",
        }),
      { bodyText: "Café crème brûlée\n" },
    ],
    [
      "a Shift_JIS body",
      (to: string) =>
        rawMessage({
          to,
          contentType: "text/plain; charset=Shift_JIS\r\nContent-Transfer-Encoding: base64",
          body: Buffer.from([0x82, 0xb1, 0x82, 0xf1, 0x82, 0xc9, 0x82, 0xbf, 0x82, 0xcd]).toString("base64"),
        }),
      { bodyText: "こんにちは" },
    ],
    [
      "no Message-ID",
      (to: string) => rawMessage({ to, id: null, subject: "Anonymous" }),
      { messageId: null, subject: "Anonymous" },
    ],
    [
      "malformed MIME",
      (to: string) =>
        rawMessage({
          to,
          subject: "Broken",
          contentType: 'multipart/mixed; boundary="never-used"\r\nContent-Transfer-Encoding: base64',
          body: "this is not base64 !!! and the boundary never comes\r\n--wrong\r\nContent-Type: text/plain",
        }),
      { subject: "Broken" },
    ],
  ])("reads %s", async (_, build, expected) => {
    const agent = await createVerifiedAgent(api, x);
    const email = await deliver(agent, build(address(agent)));
    expect(email).toMatchObject(expected);
  });

  test("keeps going after malformed mail", async () => {
    const agent = await createVerifiedAgent(api, x);
    await dovecot.append([
      "no headers at all, just words\r\n",
      rawMessage({ to: address(agent), subject: "after the junk" }),
    ]);
    const reply = await inboxOf(api, agent, 1);
    expect(reply.body.data[0].subject).toBe("after the junk");
  });

  test("stores a message once however often it arrives, with or without a Message-ID", async () => {
    const agent = await createVerifiedAgent(api, x);
    const withId = rawMessage({ to: address(agent), subject: "twice" });
    const withoutId = rawMessage({ to: address(agent), id: null, subject: "twice, no id" });
    // Each delivery with a trace of its own on top, as the catch-all's server writes it.
    const traced = (n: number) =>
      `Return-Path: <alice@sender.example>\r\nReceived: from sender.example by mx.mail.example with ESMTP id ${n};\r\n\tSun, 22 Nov 2026 10:00:0${n} +0000\r\n${withoutId}`;
    await dovecot.append([withId, withId, traced(1), traced(2)]);
    await inboxOf(api, agent, 2);
    await dovecot.append(rawMessage({ to: address(agent), subject: "marker" }));
    const reply = await inboxOf(api, agent, 3);
    expect(reply.body.data.map((e: { subject: string }) => e.subject).sort()).toEqual([
      "marker",
      "twice",
      "twice, no id",
    ]);
  });

  test("a message to two agents is stored once for each, each with its own address", async () => {
    const [a, b] = [await createVerifiedAgent(api, x), await createVerifiedAgent(api, x)];
    const id = messageId();
    await dovecot.append(rawMessage({ to: `${address(a)}, "B" <${address(b).toUpperCase()}>`, id }));
    const [inA, inB] = [(await inboxOf(api, a, 1)).body.data, (await inboxOf(api, b, 1)).body.data];
    expect(inA).toHaveLength(1);
    expect(inB).toHaveLength(1);
    expect(inA[0]).toMatchObject({ messageId: id, to: address(a), agentId: a.id });
    expect(inB[0]).toMatchObject({ messageId: id, to: address(b), agentId: b.id });
    expect(inA[0].id).not.toBe(inB[0].id);
  });

  test("envelope headers route the message, except the catch-all's own Delivered-To", async () => {
    const [a, b, c] = [
      await createVerifiedAgent(api, x),
      await createVerifiedAgent(api, x),
      await createVerifiedAgent(api, x),
    ];
    // The To header names a, but the delivering server recorded b as the recipient.
    await dovecot.append(rawMessage({ to: address(a), headers: [`X-Original-To: ${address(b)}`], subject: "for b" }));
    // Delivered-To names only the catch-all itself, so To decides.
    await dovecot.append(rawMessage({ to: address(c), headers: [`Delivered-To: ${CATCH_ALL}`], subject: "for c" }));
    expect((await inboxOf(api, b, 1)).body.data[0].subject).toBe("for b");
    expect((await inboxOf(api, c, 1)).body.data[0].subject).toBe("for c");
    expect((await api.get(`/agents/${a.id}/emails`, { key: a.apiKey })).body.total).toBe(0);
  });

  test.each([
    ["Envelope-To", (to: string) => [`Envelope-To: ${to}`]],
    ["X-Envelope-To", (to: string) => [`X-Envelope-To: ${to}`]],
    ["a Delivered-To naming the agent", (to: string) => [`Delivered-To: ${CATCH_ALL}`, `Delivered-To: ${to}`]],
  ])("%s names the recipient over To", async (_, headers) => {
    const [named, other] = [await createVerifiedAgent(api, x), await createVerifiedAgent(api, x)];
    await dovecot.append(rawMessage({ to: address(other), headers: headers(address(named)), subject: "enveloped" }));
    expect((await inboxOf(api, named, 1)).body.data[0].subject).toBe("enveloped");
    expect((await api.get(`/agents/${other.id}/emails`, { key: other.apiKey })).body.total).toBe(0);
  });

  test("without envelope headers, To and Cc name the recipients", async () => {
    const [to, cc] = [await createVerifiedAgent(api, x), await createVerifiedAgent(api, x)];
    await dovecot.append(rawMessage({ to: address(to), headers: [`Cc: Someone <${address(cc)}>`], subject: "cc'd" }));
    expect((await inboxOf(api, to, 1)).body.data[0].subject).toBe("cc'd");
    expect((await inboxOf(api, cc, 1)).body.data[0].subject).toBe("cc'd");
  });

  test("without envelope headers, Bcc names recipients too", async () => {
    const hidden = await createVerifiedAgent(api, x);
    await dovecot.append(
      rawMessage({ to: "someone@elsewhere.example", headers: [`Bcc: ${address(hidden)}`], subject: "blind" }),
    );
    expect((await inboxOf(api, hidden, 1)).body.data[0].subject).toBe("blind");
  });

  test("NUL characters in a message are stored as U+FFFD, and the poller carries on", async () => {
    const agent = await createVerifiedAgent(api, x);
    await dovecot.append([
      rawMessage({
        to: address(agent),
        subject: "=?utf-8?Q?nul=00here?=",
        contentType: "text/plain; charset=utf-8\r\nContent-Transfer-Encoding: quoted-printable",
        body: "before=00after",
      }),
      rawMessage({ to: address(agent), subject: "next" }),
    ]);
    const emails = (await inboxOf(api, agent, 2)).body.data;
    const nul = emails.find((email: { subject: string }) => email.subject.startsWith("nul"));
    expect(nul.subject).toBe("nul\uFFFDhere");
    expect(nul.bodyText).toBe("before\uFFFDafter\n");
  });

  test("mail for an unknown or unverified agent is dropped, logged and counted", async () => {
    const unverified = await createAgent(api);
    const witness = await createVerifiedAgent(api, x);
    await dovecot.append([
      rawMessage({ to: "nobody-at-all@mail.example", subject: "lost" }),
      rawMessage({ to: address(unverified), subject: "too early" }),
      rawMessage({ to: "someone@elsewhere.example", subject: "not ours" }),
      rawMessage({ to: address(witness), subject: "witness" }),
    ]);
    await inboxOf(api, witness, 1);
    const drops = svc.logs.filter((line) => line.event === "inbound_dropped").map((line) => line.fields);
    expect(drops).toContainEqual(
      expect.objectContaining({ reason: "unknown_recipient", recipient: "nobody-at-all@mail.example" }),
    );
    expect(drops).toContainEqual(
      expect.objectContaining({ reason: "unverified", recipient: `${unverified.id.toLowerCase()}@mail.example` }),
    );
    expect(drops).toContainEqual(expect.objectContaining({ reason: "no_recipient" }));
    const batches = svc.logs.filter((line) => line.event === "imap_batch").map((line) => line.fields);
    expect(batches.some((b) => Number(b.unknown_recipient) >= 1)).toBe(true);
    expect(batches.some((b) => Number(b.unverified) >= 1)).toBe(true);
  });

  test("a message over INBOUND_MAX_BYTES is set aside: not stored, logged, flagged on the server", async () => {
    const agent = await createVerifiedAgent(api, x);
    await dovecot.append([
      rawMessage({ to: address(agent), subject: "huge", body: "x".repeat(150_000) }),
      rawMessage({ to: address(agent), subject: "small" }),
    ]);
    const reply = await inboxOf(api, agent, 1);
    expect(reply.body.data.map((e: { subject: string }) => e.subject)).toEqual(["small"]);
    expect(svc.logs).toContainEqual(
      expect.objectContaining({ event: "inbound_set_aside", fields: expect.objectContaining({ reason: "too_large" }) }),
    );
  });

  test("a burst of 500 messages: every one stored, none twice", async () => {
    const agent = await createVerifiedAgent(api, x);
    const ids = Array.from({ length: 500 }, messageId);
    const client = await dovecot.client();
    try {
      for (const [i, id] of ids.entries())
        await client.append("INBOX", rawMessage({ to: address(agent), id, subject: `n${i}` }));
    } finally {
      await client.logout();
    }
    await inboxOf(api, agent, 500, 60_000);
    const seen: string[] = [];
    for (let offset = 0; offset < 500; offset += 100) {
      const page = await api.get(`/agents/${agent.id}/emails?limit=100&offset=${offset}`, { key: agent.apiKey });
      seen.push(...page.body.data.map((e: { messageId: string }) => e.messageId));
    }
    expect(seen).toHaveLength(500);
    expect(new Set(seen)).toEqual(new Set(ids));
    const total = await waitFor(
      async () => (await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.total,
    );
    expect(total).toBe(500);
  }, 120_000);
});

describe("a catch-all whose login is not an address", () => {
  test("its own Delivered-To at the mail domain is not taken for a recipient", async () => {
    await withService(
      {
        SOCIAL_OEMBED_URL: x.url,
        MAIL_DOMAIN: "mail.example",
        IMAP_URL: dovecot.url("INBOX", "catchall"),
      },
      async (other) => {
        const otherApi = new Api(other.url);
        const agent = await createVerifiedAgent(otherApi, x);
        await dovecot.append(
          rawMessage({ to: address(agent), headers: ["Delivered-To: catchall@mail.example"], subject: "via login" }),
          "INBOX",
          "catchall",
        );
        expect((await inboxOf(otherApi, agent, 1)).body.data[0].subject).toBe("via login");
      },
    );
  });
});

describe("a batch's bytes", () => {
  test("a batch holds at most 16 MiB of mail: two messages of 9 MiB that arrive together are filed one a batch", async () => {
    const client = await dovecot.client();
    try {
      await client.mailboxCreate("Large");
      await client.mailboxCreate("Staged");
    } finally {
      await client.logout();
    }
    await withService(
      { SOCIAL_OEMBED_URL: x.url, MAIL_DOMAIN: "mail.example", IMAP_URL: dovecot.url("Large") },
      async (other) => {
        const otherApi = new Api(other.url);
        const agent = await createVerifiedAgent(otherApi, x);
        const body = `${"x".repeat(76)}\r\n`.repeat((9 * 1024 * 1024) / 78);
        const large = [1, 2].map((n) => rawMessage({ to: address(agent), subject: `large ${n}`, body }));
        await dovecot.append(large, "Staged");
        // Moved in one command, so that the poller finds both at once.
        const mover = await dovecot.client();
        try {
          await mover.mailboxOpen("Staged");
          await mover.messageMove("1:*", "Large");
        } finally {
          await mover.logout();
        }
        // Both filed (they are filed one at a time), then read one a page: together they would pass
        // what one answer may carry.
        const page = (offset: number) =>
          otherApi.get(`/agents/${agent.id}/emails?limit=1&offset=${offset}`, { key: agent.apiKey });
        await waitFor(async () => ((await page(0)).body.total === 2 ? true : null), 60_000);
        const pages = await Promise.all([page(0), page(1)]);
        const subjects = pages.flatMap(({ body }) => body.data.map((e: { subject: string }) => e.subject));
        expect(subjects.sort()).toEqual(["large 1", "large 2"]);
        const batches = other.logs.filter((line) => line.event === "imap_batch").map((line) => line.fields.messages);
        expect(batches).toEqual([1, 1]);
      },
    );
  }, 120_000);
});

describe("IMAP_URL unset", () => {
  test("no poller, and the start-up log says so in one line", async () => {
    await withService({ SOCIAL_OEMBED_URL: x.url }, async (off) => {
      expect(off.logs.filter((l) => l.event === "inbound_off")).toEqual([
        expect.objectContaining({ fields: { reason: expect.stringContaining("IMAP_URL") } }),
      ]);
      expect(off.logs.some((l) => l.event === "imap_connected")).toBe(false);
    });
  });
});
