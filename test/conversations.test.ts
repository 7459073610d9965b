import { createHash, randomBytes } from "node:crypto";
import { simpleParser } from "mailparser";
import MailComposer from "nodemailer/lib/mail-composer";
import { describe, expect, test } from "vitest";
import { Api, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { inboxOf } from "./support/inbox.ts";
import { served } from "./support/served.ts";
import { waitFor } from "./support/wait.ts";

// Conversations through real peers: MIME built by nodemailer and filed from
// Dovecot, replies and forwards handed to a real SMTP server which relays
// mail for the service's domain back into the catch-all, as an MX would.

const DOMAIN = "mail.example";

const { svc, api, x, dovecot, provider } = served({
  imap: true,
  smtp: true,
  env: { MAIL_DOMAIN: DOMAIN, DAILY_SEND_LIMIT: "1000" },
  wire: ({ provider, dovecot }) => {
    provider.relay = async ({ to, raw }) => {
      for (const rcpt of to.filter((address) => address.endsWith(`@${DOMAIN}`))) {
        await dovecot.append(`X-Original-To: ${rcpt}\r\n${raw.toString()}`);
      }
    };
  },
});

const sha256 = (bytes: Buffer | Uint8Array) => createHash("sha256").update(bytes).digest("hex");

function compose(options: ConstructorParameters<typeof MailComposer>[0]): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    new MailComposer(options).compile().build((error, raw) => (error ? reject(error) : resolve(raw))),
  );
}

/** A message from outside, delivered to the agent through the catch-all; the email as filed. */
async function deliver(agent: TestAgent, options: ConstructorParameters<typeof MailComposer>[0]) {
  const before = (await api.get(`/agents/${agent.id}/emails?limit=1`, { key: agent.apiKey })).body.total as number;
  const raw = await compose({ from: "Jordan <jordan@sender.example>", to: `${agent.id}@${DOMAIN}`, ...options });
  await dovecot.append(`X-Original-To: ${agent.id}@${DOMAIN}\r\n${raw.toString()}`);
  const inbox = await inboxOf(api, agent, before + 1);
  return { raw, email: inbox.body.data[0] };
}

async function download(agent: TestAgent, path: string, headers: Record<string, string> = {}) {
  const response = await fetch(svc.url + path, { headers: { authorization: `Bearer ${agent.apiKey}`, ...headers } });
  return { response, bytes: Buffer.from(await response.arrayBuffer()) };
}

async function threadsOf(agent: TestAgent, query = "") {
  return (await api.get(`/agents/${agent.id}/threads${query}`, { key: agent.apiKey })).body;
}

describe("attachments", () => {
  test("every part of a real MIME message is recorded and downloads byte for byte", async () => {
    const agent = await createVerifiedAgent(api, x);
    const inner = await compose({ from: "pat@example.com", to: "jordan@sender.example", subject: "inner", text: "x" });
    const parts = {
      pdf: randomBytes(3000),
      png: randomBytes(400),
      big: randomBytes(5 * 1024 * 1024),
      umlaut: randomBytes(1000),
      page: Buffer.from("<script>alert(document.cookie)</script>"),
    };
    const { raw, email } = await deliver(agent, {
      subject: "Documents",
      text: "See attached.",
      html: '<p>Logo: <img src="cid:logo@sender.example"></p>',
      attachments: [
        { filename: "invoice.pdf", content: parts.pdf, contentType: "application/pdf" },
        { filename: "logo.png", content: parts.png, cid: "logo@sender.example" },
        { filename: "Übersicht März.pdf", content: parts.umlaut, contentType: "application/pdf" },
        // As mail clients forward as an attachment; an inline message/rfc822 is read as part of the body.
        { filename: "forwarded.eml", content: inner, contentType: "message/rfc822", contentDisposition: "attachment" },
        { filename: "big.bin", content: parts.big, contentType: "application/octet-stream" },
        { filename: "page.html", content: parts.page, contentType: "text/html" },
      ],
    });
    // nodemailer writes the non-ASCII name as RFC 2231 parameters.
    expect(raw.toString()).toMatch(/filename\*0\*=utf-8''/i);
    expect(email.bodyText).toBe("See attached.");
    const by = Object.fromEntries(email.attachments.map((a: { filename: string }) => [a.filename, a]));
    // In the order of the MIME tree: the inline image sits with the HTML, before the attached files.
    expect(email.attachments.map((a: { filename: string }) => a.filename)).toEqual([
      "logo.png",
      "invoice.pdf",
      "Übersicht März.pdf",
      "forwarded.eml",
      "big.bin",
      "page.html",
    ]);
    expect(by["invoice.pdf"]).toEqual({
      id: expect.any(String),
      filename: "invoice.pdf",
      contentType: "application/pdf",
      size: 3000,
      inline: false,
      contentId: null,
    });
    expect(by["logo.png"]).toMatchObject({
      contentType: "image/png",
      inline: true,
      contentId: "<logo@sender.example>",
    });
    expect(by["forwarded.eml"]).toMatchObject({ contentType: "message/rfc822", inline: false });

    const path = (a: { id: string }) => `/agents/${agent.id}/emails/${email.id}/attachments/${a.id}`;
    for (const [name, bytes] of [
      ["invoice.pdf", parts.pdf],
      ["logo.png", parts.png],
      ["Übersicht März.pdf", parts.umlaut],
      ["big.bin", parts.big],
      ["page.html", parts.page],
    ] as const) {
      const { response, bytes: got } = await download(agent, path(by[name]));
      expect(response.status, name).toBe(200);
      expect(sha256(got), name).toBe(sha256(bytes));
      expect(response.headers.get("content-length")).toBe(String(bytes.length));
      expect(response.headers.get("x-content-type-options")).toBe("nosniff");
      expect(response.headers.get("etag")).toBe(`"${sha256(bytes)}"`);
    }
    const pdf = await download(agent, path(by["invoice.pdf"]));
    expect(pdf.response.headers.get("content-type")).toBe("application/pdf");
    expect(pdf.response.headers.get("content-disposition")).toBe('attachment; filename="invoice.pdf"');
    const umlaut = await download(agent, path(by["Übersicht März.pdf"]));
    expect(umlaut.response.headers.get("content-disposition")).toBe(
      `attachment; filename="_bersicht M_rz.pdf"; filename*=UTF-8''%C3%9Cbersicht%20M%C3%A4rz.pdf`,
    );
    // HTML from a stranger is never served as a page of this origin.
    const page = await download(agent, path(by["page.html"]));
    expect(page.response.headers.get("content-type")).toBe("application/octet-stream");
    const message = await download(agent, path(by["forwarded.eml"]));
    expect((await simpleParser(message.bytes)).subject).toBe("inner");
    const again = await download(agent, path(by["invoice.pdf"]), { "if-none-match": `"${sha256(parts.pdf)}"` });
    expect(again.response.status).toBe(304);

    // The bytes count once: the raw message is all the storage used.
    const me = await api.get(`/agents/${agent.id}`, { key: agent.apiKey });
    expect(me.body.storageUsed).toBe(email.size ?? raw.length + `X-Original-To: ${agent.id}@${DOMAIN}\r\n`.length);

    const graphql = await api.graphql(
      `query($agent: ID!, $email: ID!) { email(agentId: $agent, emailId: $email) { attachments { filename sha256 downloadPath content } } }`,
      { agent: agent.id, email: email.id },
      agent.apiKey,
    );
    const [, second] = graphql.body.data.email.attachments;
    expect(second).toEqual({
      filename: "invoice.pdf",
      sha256: sha256(parts.pdf),
      downloadPath: path(by["invoice.pdf"]),
      content: parts.pdf.toString("base64"),
    });
  });

  test("another agent's attachment, a wrong email or an unknown id: 404 in the spec's shape", async () => {
    const [owner, stranger] = [await createVerifiedAgent(api, x), await createVerifiedAgent(api, x)];
    const { email } = await deliver(owner, {
      subject: "One file",
      text: "x",
      attachments: [{ filename: "a.txt", content: "hello" }],
    });
    const [attachment] = email.attachments;
    const own = `/agents/${owner.id}/emails/${email.id}/attachments/${attachment.id}`;
    expect((await download(owner, own)).bytes.toString()).toBe("hello");
    for (const [agent, path] of [
      [stranger, `/agents/${stranger.id}/emails/${email.id}/attachments/${attachment.id}`],
      [owner, `/agents/${owner.id}/emails/${email.id}/attachments/nope`],
      [owner, `/agents/${owner.id}/emails/nope/attachments/${attachment.id}`],
    ] as const) {
      const reply = await api.get(path, { key: agent.apiKey });
      expect(reply.status).toBe(404);
      expect(reply.body).toMatchObject({ error: "Not Found", message: expect.any(String) });
    }
    expect((await api.get(own, { key: stranger.apiKey })).status).toBe(403);
  });

  test("Attachment.content refuses over 10 MiB and points to the download", async () => {
    const agent = await createVerifiedAgent(api, x);
    const big = randomBytes(10 * 1024 * 1024 + 1);
    const { email } = await deliver(agent, {
      subject: "Huge",
      text: "x",
      attachments: [{ filename: "h.bin", content: big }],
    });
    const reply = await api.graphql(
      `query($a: ID!, $e: ID!) { email(agentId: $a, emailId: $e) { attachments { size content } } }`,
      { a: agent.id, e: email.id },
      agent.apiKey,
    );
    expect(reply.body.errors[0].message).toContain("download it from downloadPath");
    const { bytes } = await download(
      agent,
      `/agents/${agent.id}/emails/${email.id}/attachments/${email.attachments[0].id}`,
    );
    expect(sha256(bytes)).toBe(sha256(big));
  });

  test("sent attachments: the provider gets the bytes, storage counts them, bad ones are refused", async () => {
    const agent = await createVerifiedAgent(api, x);
    const file = randomBytes(50_000);
    const before = (await api.get(`/agents/${agent.id}`, { key: agent.apiKey })).body.storageUsed;
    const sent = await api.post(`/agents/${agent.id}/send`, {
      key: agent.apiKey,
      body: {
        to: "pat@example.com",
        subject: "Report",
        text: "Attached.",
        attachments: [{ filename: "report.bin", content: file.toString("base64") }],
      },
    });
    expect(sent.status).toBe(201);
    const delivered = provider.deliveries.at(-1)?.parsed;
    expect(delivered?.attachments.map((a) => [a.filename, sha256(a.content)])).toEqual([["report.bin", sha256(file)]]);
    const after = (await api.get(`/agents/${agent.id}`, { key: agent.apiKey })).body.storageUsed;
    expect(after - before).toBeGreaterThan(file.length);

    const count = provider.deliveries.length;
    for (const [attachment, message] of [
      [{ filename: "a.bin", content: "not base64!" }, "attachments[0].content must be base64"],
      [{ content: "aGVsbG8=" }, "attachments[0].filename is required"],
      [{ filename: "../etc/passwd", content: "aGVsbG8=" }, "attachments[0].filename must be"],
      [{ filename: "a\u0007.txt", content: "aGVsbG8=" }, "attachments[0].filename must be"],
      [{ filename: "dir\\a.txt", content: "aGVsbG8=" }, "attachments[0].filename must be"],
      [{ filename: "a.txt", content: "aGVsbG8=", contentType: "text" }, "attachments[0].contentType"],
    ] as const) {
      const reply = await api.post(`/agents/${agent.id}/send`, {
        key: agent.apiKey,
        body: { to: "pat@example.com", subject: "Bad", text: "x", attachments: [attachment] },
      });
      expect(reply.status, message).toBe(400);
      expect(reply.body).toMatchObject({ error: "Bad Request", message: expect.stringContaining(message) });
    }
    expect(provider.deliveries.length).toBe(count);
  });
});

describe("threads", () => {
  test("A writes, B replies, A replies: one thread of three on each side, filed here at once", async () => {
    const [a, b] = [await createVerifiedAgent(api, x), await createVerifiedAgent(api, x)];
    const first = await api.post(`/agents/${a.id}/send`, {
      key: a.apiKey,
      body: { to: `${b.id}@${DOMAIN}`, subject: "Plans for Friday", text: "Lunch?" },
    });
    expect(first.status).toBe(201);
    const firstSent = (await api.get(`/agents/${a.id}/sent`, { key: a.apiKey })).body.data[0];
    const [atB] = (await inboxOf(api, b, 1)).body.data;
    const reply = await api.post(`/agents/${b.id}/emails/${atB.id}/reply`, { key: b.apiKey, body: { text: "Yes!" } });
    expect(reply.status).toBe(201);
    expect(reply.body).toEqual({
      id: expect.any(String),
      to: [`${a.id}@${DOMAIN}`],
      subject: "Re: Plans for Friday",
      sentAt: expect.any(Number),
      threadId: atB.threadId,
    });
    const [atA] = (await inboxOf(api, a, 1)).body.data;
    expect(atA.threadId).toBe(firstSent.threadId);
    const last = await api.post(`/agents/${a.id}/emails/${atA.id}/reply`, { key: a.apiKey, body: { text: "Great." } });
    expect(last.body.subject).toBe("Re: Plans for Friday");
    await inboxOf(api, b, 2);

    for (const [agent, directions] of [
      [a, ["sent", "received", "sent"]],
      [b, ["received", "sent", "received"]],
    ] as const) {
      const list = await threadsOf(agent);
      expect(list.total).toBe(1);
      expect(list.data[0]).toEqual({
        id: expect.any(String),
        subject: "Plans for Friday",
        participants: expect.arrayContaining([`${a.id}@${DOMAIN}`, `${b.id}@${DOMAIN}`]),
        messageCount: 3,
        unreadCount: agent === a ? 1 : 2,
        lastMessageAt: expect.any(Number),
        labels: [],
      });
      expect(list.data[0].participants).toHaveLength(2);
      const thread = (await api.get(`/agents/${agent.id}/threads/${list.data[0].id}`, { key: agent.apiKey })).body;
      expect(thread.messages.map((m: { direction: string }) => m.direction)).toEqual(directions);
      expect(thread.messages.map((m: { bodyText: string }) => m.bodyText.trim())).toEqual(["Lunch?", "Yes!", "Great."]);
    }
    // Between agents here, nothing went through the provider: In-Reply-To and References threaded it as filed.
    const ours = [`${a.id}@${DOMAIN}`, `${b.id}@${DOMAIN}`];
    expect(provider.deliveries.filter((d) => d.to.some((to) => ours.includes(to)))).toEqual([]);
  });

  test("out of order: children first, then the parent; a late link merges two threads; a subject alone joins nothing", async () => {
    const agent = await createVerifiedAgent(api, x);
    const id = (name: string) => `<${name}-${agent.id}@sender.example>`;
    const grandchild = { messageId: id("c2"), inReplyTo: id("c1"), references: [id("p"), id("c1")] };
    await deliver(agent, { subject: "Re: Re: Budget", text: "third", ...grandchild });
    await deliver(agent, { subject: "Re: Budget", text: "second", messageId: id("c1"), inReplyTo: id("p") });
    await deliver(agent, { subject: "Budget", text: "first", messageId: id("p") });
    await deliver(agent, { subject: "Re: Budget", text: "unrelated", messageId: id("other") });
    // Two children of different unknown parents, then a message that is one parent's child and the other's parent.
    await deliver(agent, { subject: "Re: Trip", text: "x1", messageId: id("x1"), inReplyTo: id("r1") });
    await deliver(agent, { subject: "Re: Trip", text: "x2", messageId: id("x2"), inReplyTo: id("r2") });
    await deliver(agent, { subject: "Trip", text: "r2", messageId: id("r2"), inReplyTo: id("r1") });

    const list = await threadsOf(agent);
    const summary = list.data.map((t: { subject: string; messageCount: number }) => [t.subject, t.messageCount]);
    expect(summary.sort()).toEqual([
      ["Budget", 1],
      ["Budget", 3],
      ["Trip", 3],
    ]);
    const budget = list.data.find(
      (t: { messageCount: number; subject: string }) => t.subject === "Budget" && t.messageCount === 3,
    );
    const thread = (await api.get(`/agents/${agent.id}/threads/${budget.id}`, { key: agent.apiKey })).body;
    expect(thread.messages.map((m: { bodyText: string }) => m.bodyText.trim()).sort()).toEqual([
      "first",
      "second",
      "third",
    ]);
    const emails = (await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.data;
    const threadOf = (text: string) => emails.find((e: { bodyText: string }) => e.bodyText.trim() === text).threadId;
    expect(threadOf("first")).toBe(threadOf("third"));
    expect(threadOf("unrelated")).not.toBe(threadOf("first"));
    expect(threadOf("x1")).toBe(threadOf("x2"));
  });

  test("a message naming messages of two threads joins its parent's, and moves nothing of the other", async () => {
    const agent = await createVerifiedAgent(api, x);
    const id = (name: string) => `<${name}-${agent.id}@sender.example>`;
    await deliver(agent, { subject: "Invoice", text: "a1", messageId: id("a1") });
    await deliver(agent, { subject: "Contract", text: "b1", messageId: id("b1") });
    await deliver(agent, { subject: "Re: Contract", text: "b2", messageId: id("b2"), inReplyTo: id("b1") });
    await deliver(agent, {
      subject: "Re: Invoice",
      text: "m",
      messageId: id("m"),
      inReplyTo: id("a1"),
      references: [id("b1"), id("b2"), id("a1")],
    });
    const emails = (await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.data;
    const threadOf = (text: string) => emails.find((e: { bodyText: string }) => e.bodyText.trim() === text).threadId;
    expect(threadOf("m")).toBe(threadOf("a1"));
    expect(threadOf("b1")).toBe(threadOf("b2"));
    expect(threadOf("b1")).not.toBe(threadOf("a1"));
    const summary = (await threadsOf(agent)).data.map((t: { subject: string; messageCount: number }) => [
      t.subject,
      t.messageCount,
    ]);
    expect(summary.sort()).toEqual([
      ["Contract", 2],
      ["Invoice", 2],
    ]);
  });

  test("1,000 messages in 100 threads list correctly, by page and by cursor", async () => {
    const agent = await createVerifiedAgent(api, x);
    const messages: string[] = [];
    for (let t = 0; t < 100; t++) {
      for (let n = 0; n < 10; n++) {
        const own = `<t${t}-m${n}-${agent.id}@sender.example>`;
        const parent = n === 0 ? [] : [`In-Reply-To: <t${t}-m${n - 1}-${agent.id}@sender.example>`];
        messages.push(
          [
            `X-Original-To: ${agent.id}@${DOMAIN}`,
            "From: jordan@sender.example",
            `To: ${agent.id}@${DOMAIN}`,
            `Subject: ${n === 0 ? "" : "Re: "}Topic ${t}`,
            `Message-ID: ${own}`,
            ...parent,
            "",
            `message ${n} of topic ${t}`,
          ].join("\r\n"),
        );
      }
    }
    await dovecot.append(messages);
    await inboxOf(api, agent, 1000, 60_000);
    const pages = [await threadsOf(agent, "?limit=100"), await threadsOf(agent, "?limit=50&offset=50")];
    expect(pages[0].total).toBe(100);
    expect(pages[0].data).toHaveLength(100);
    expect(new Set(pages[0].data.map((t: { subject: string }) => t.subject)).size).toBe(100);
    expect(
      pages[0].data.every(
        (t: { messageCount: number; unreadCount: number }) => t.messageCount === 10 && t.unreadCount === 10,
      ),
    ).toBe(true);
    expect(pages[1].data).toEqual(pages[0].data.slice(50));
    const times = pages[0].data.map((t: { lastMessageAt: number }) => t.lastMessageAt);
    expect(times).toEqual([...times].sort((p, q) => q - p));

    const seen: string[] = [];
    let after: string | null = null;
    do {
      const reply: {
        body: {
          data: {
            agent: {
              threadConnection: {
                edges: { node: { id: string } }[];
                pageInfo: { endCursor: string; hasNextPage: boolean };
              };
            };
          };
        };
      } = await api.graphql(
        `query($a: ID!, $after: String) { agent(id: $a) { threadConnection(first: 30, after: $after) { edges { node { id } } pageInfo { endCursor hasNextPage } } } }`,
        { a: agent.id, after },
        agent.apiKey,
      );
      const connection = reply.body.data.agent.threadConnection;
      seen.push(...connection.edges.map((e) => e.node.id));
      after = connection.pageInfo.hasNextPage ? connection.pageInfo.endCursor : null;
    } while (after);
    expect(seen).toEqual(pages[0].data.map((t: { id: string }) => t.id));
  });
});

describe("reply, reply-all and forward", () => {
  test("a send naming junk by its Message-ID carries the junk's References only for a key that sees junk", async () => {
    const agent = await createVerifiedAgent(api, x);
    const junk = { messageId: "<prize-1@sender.example>", references: ["<prize-0@sender.example>"] };
    const { email } = await deliver(agent, { subject: "Prize", text: "Claim it.", ...junk });
    await api.call("PATCH", `/agents/${agent.id}/emails/${email.id}`, { key: agent.apiKey, body: { folder: "junk" } });
    const barred = await api.post(`/agents/${agent.id}/keys`, {
      key: agent.apiKey,
      body: { name: "no junk", permissions: ["send"], hideJunk: true },
    });
    const referencesSentBy = async (key: string, subject: string) => {
      const body = { to: "pat@example.com", subject, text: ".", inReplyTo: junk.messageId };
      expect((await api.post(`/agents/${agent.id}/send`, { key, body })).status).toBe(201);
      return provider.deliveries.find((out) => out.parsed.subject === subject)?.parsed.references;
    };
    expect(await referencesSentBy(barred.body.key, "As barred")).toBe(junk.messageId);
    expect(await referencesSentBy(agent.apiKey, "As owner")).toEqual([...junk.references, junk.messageId]);
  });

  test("reply-all: Reply-To first, To and Cc without the agent's address or repeats; References carried", async () => {
    const agent = await createVerifiedAgent(api, x);
    const own = `${agent.id}@${DOMAIN}`;
    const { email } = await deliver(agent, {
      subject: "RE: Aw: Offer",
      text: "Our offer.",
      replyTo: "sales@sender.example",
      to: [own, "Pat@Example.com"],
      cc: ["pat@example.com", "finance@example.com", own.toUpperCase()],
      messageId: "<offer-2@sender.example>",
      references: ["<offer-0@sender.example>", "<offer-1@sender.example>"],
    });
    const reply = await api.post(`/agents/${agent.id}/emails/${email.id}/reply`, {
      key: agent.apiKey,
      body: { text: "Accepted.", replyAll: true },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.subject).toBe("Re: Offer");
    const out = provider.deliveries.at(-1);
    expect(out?.to.map((a) => a.toLowerCase())).toEqual([
      "sales@sender.example",
      "pat@example.com",
      "finance@example.com",
    ]);
    expect(out?.parsed.cc).toMatchObject({ text: expect.stringMatching(/^Pat@example\.com, finance@example\.com$/i) });
    expect(out?.parsed.inReplyTo).toBe("<offer-2@sender.example>");
    expect(out?.parsed.references).toEqual([
      "<offer-0@sender.example>",
      "<offer-1@sender.example>",
      "<offer-2@sender.example>",
    ]);
    const sent = (await api.get(`/agents/${agent.id}/sent`, { key: agent.apiKey })).body.data[0];
    expect(sent).toMatchObject({ id: reply.body.id, subject: "Re: Offer", threadId: email.threadId });
    const quota = await api.graphql(
      `query($a: ID!) { agent(id: $a) { sendQuota { used } } }`,
      { a: agent.id },
      agent.apiKey,
    );
    expect(quota.body.data.agent.sendQuota.used).toBe(1);
  });

  test("a reply to another agent's email is 404; unverified, 403; no SMTP, 503", async () => {
    const [owner, other] = [await createVerifiedAgent(api, x), await createVerifiedAgent(api, x)];
    const { email } = await deliver(owner, { subject: "Mine", text: "x" });
    const count = provider.deliveries.length;
    const reply = await api.post(`/agents/${other.id}/emails/${email.id}/reply`, {
      key: other.apiKey,
      body: { text: "Hi" },
    });
    expect(reply.status).toBe(404);
    const forward = await api.post(`/agents/${other.id}/emails/${email.id}/forward`, {
      key: other.apiKey,
      body: { to: "pat@example.com" },
    });
    expect(forward.status).toBe(404);
    expect(provider.deliveries.length).toBe(count);
  });

  test("forward: Fwd:, the original quoted below the new text, its attachments and new ones carried along", async () => {
    const agent = await createVerifiedAgent(api, x);
    const pdf = randomBytes(2000);
    const { email } = await deliver(agent, {
      subject: "Contract",
      date: new Date("2020-01-06T10:00:00Z"),
      text: "Please sign.",
      html: "<p>Please <b>sign</b>.</p>",
      attachments: [{ filename: "contract.pdf", content: pdf, contentType: "application/pdf" }],
    });
    const note = Buffer.from("signed by scout");
    const forward = await api.post(`/agents/${agent.id}/emails/${email.id}/forward`, {
      key: agent.apiKey,
      body: {
        to: ["legal@example.com"],
        text: "For your files.",
        attachments: [{ filename: "note.txt", content: note.toString("base64"), contentType: "text/plain" }],
      },
    });
    expect(forward.status).toBe(201);
    expect(forward.body).toMatchObject({
      to: ["legal@example.com"],
      subject: "Fwd: Contract",
      threadId: email.threadId,
    });
    const out = provider.deliveries.at(-1)?.parsed;
    expect(out?.subject).toBe("Fwd: Contract");
    expect(out?.text).toContain("For your files.");
    expect(out?.text).toContain("---------- Forwarded message ---------");
    expect(out?.text).toContain("From: Jordan <jordan@sender.example>");
    expect(out?.text).toContain("Subject: Contract");
    // The original's own Date, not when it arrived.
    expect(out?.text).toContain("Date: Mon, 06 Jan 2020 10:00:00 GMT");
    expect(out?.text).toContain("Please sign.");
    expect(out?.html).toContain("<p>Please <b>sign</b>.</p>");
    expect(out?.attachments.map((a) => [a.filename, sha256(a.content)])).toEqual([
      ["contract.pdf", sha256(pdf)],
      ["note.txt", sha256(note)],
    ]);
  });

  test("a reply and a forward keep /send's rules: the subject on one line, attachment names without paths", async () => {
    const agent = await createVerifiedAgent(api, x);
    const raw = [
      `To: ${agent.id}@${DOMAIN}`,
      "From: Mallory <mallory@sender.example>",
      // Decodes to "Invoice\r\nBcc: victim@example.com".
      "Subject: =?utf-8?B?SW52b2ljZQ0KQmNjOiB2aWN0aW1AZXhhbXBsZS5jb20=?=",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="b"',
      "",
      "--b",
      "Content-Type: text/plain",
      "",
      "Pay now.",
      // Quoted strings escape a backslash with one: the second name arrives as ..\..\win.ini.
      ...["../../../etc/passwd", "..\\\\..\\\\win.ini", "/", "\u0007bell"].flatMap((name, n) => [
        "--b",
        `Content-Type: text/plain; name="${name}"`,
        `Content-Disposition: attachment; filename="${name}"`,
        "",
        `part ${n}`,
      ]),
      "--b--",
      "",
    ].join("\r\n");
    await dovecot.append(`X-Original-To: ${agent.id}@${DOMAIN}\r\n${raw}`);
    const [email] = (await inboxOf(api, agent, 1)).body.data;
    expect(email.subject).toBe("Invoice\r\nBcc: victim@example.com");
    const received = (await api.get(`/agents/${agent.id}/emails/${email.id}`, { key: agent.apiKey })).body;
    expect(received.attachments.map((a: { filename: string }) => a.filename).slice(0, 2)).toEqual([
      "../../../etc/passwd",
      "..\\..\\win.ini",
    ]);
    const reply = await api.post(`/agents/${agent.id}/emails/${email.id}/reply`, {
      key: agent.apiKey,
      body: { text: "Which invoice?" },
    });
    expect(reply.status).toBe(201);
    expect(reply.body.subject).toBe("Re: Invoice Bcc: victim@example.com");
    expect(provider.deliveries.at(-1)?.to).toEqual(["mallory@sender.example"]);
    const forward = await api.post(`/agents/${agent.id}/emails/${email.id}/forward`, {
      key: agent.apiKey,
      body: { to: ["audit@example.com"], text: "Suspicious." },
    });
    expect(forward.status).toBe(201);
    expect(forward.body.subject).toBe("Fwd: Invoice Bcc: victim@example.com");
    const out = provider.deliveries.at(-1)?.parsed;
    expect(out?.attachments.map((a) => a.filename)).toEqual(["passwd", "win.ini", "attachment-3", "bell"]);
    const sent = (await api.get(`/agents/${agent.id}/sent?limit=2`, { key: agent.apiKey })).body.data;
    for (const record of sent) expect(record.subject).not.toMatch(/[\r\n]/);
  });

  test("send with cc, bcc and inReplyTo: everyone gets it, Bcc stays hidden, and it joins the named message's thread", async () => {
    const agent = await createVerifiedAgent(api, x);
    const { email } = await deliver(agent, { subject: "Question", text: "?", messageId: "<q-1@sender.example>" });
    const sent = await api.post(`/agents/${agent.id}/send`, {
      key: agent.apiKey,
      body: {
        to: "jordan@sender.example",
        cc: ["pat@example.com"],
        bcc: "boss@example.com",
        subject: "Answer",
        text: "!",
        inReplyTo: "q-1@sender.example",
      },
    });
    expect(sent.status).toBe(201);
    const record = (await api.get(`/agents/${agent.id}/sent`, { key: agent.apiKey })).body.data[0];
    expect(record).toMatchObject({ id: sent.body.id, threadId: email.threadId });
    const out = provider.deliveries.at(-1);
    expect(out?.to).toEqual(["jordan@sender.example", "pat@example.com", "boss@example.com"]);
    expect(out?.raw.toString()).not.toMatch(/^bcc:/im);
    expect(out?.parsed.inReplyTo).toBe("<q-1@sender.example>");
    for (const [body, message] of [
      [
        {
          cc: Array.from({ length: 40 }, (_, n) => `c${n}@example.com`),
          bcc: Array.from({ length: 10 }, (_, n) => `b${n}@example.com`),
        },
        "together may name at most 50",
      ],
      [{ cc: ["not an address"] }, "cc:"],
      [{ inReplyTo: "no id here" }, "inReplyTo must be a Message-ID"],
    ] as const) {
      const reply = await api.post(`/agents/${agent.id}/send`, {
        key: agent.apiKey,
        body: { to: "jordan@sender.example", subject: "x", text: "x", ...body },
      });
      expect(reply.status).toBe(400);
      expect(reply.body.message).toContain(message);
    }
  });

  test("GraphQL: replyToEmail and thread answer as REST does", async () => {
    const agent = await createVerifiedAgent(api, x);
    const { email } = await deliver(agent, { subject: "Hello", text: "Hi there" });
    const replied = await api.graphql(
      `mutation($a: ID!, $e: ID!) { replyToEmail(agentId: $a, emailId: $e, input: { text: "Hi back" }) { ... on SentEmail { id subject threadId to } } }`,
      { a: agent.id, e: email.id },
      agent.apiKey,
    );
    expect(replied.body.data.replyToEmail).toMatchObject({
      subject: "Re: Hello",
      threadId: email.threadId,
      to: ["jordan@sender.example"],
    });
    const viaGraphql = await api.graphql(
      `query($a: ID!, $t: ID!) { thread(agentId: $a, threadId: $t) { id subject messageCount messages { direction email { id } sent { id } } } }`,
      { a: agent.id, t: email.threadId },
      agent.apiKey,
    );
    const viaRest = (await api.get(`/agents/${agent.id}/threads/${email.threadId}`, { key: agent.apiKey })).body;
    const thread = viaGraphql.body.data.thread;
    expect(thread).toMatchObject({ id: viaRest.id, subject: viaRest.subject, messageCount: 2 });
    type Message = { direction: string; email: { id: string } | null; sent: { id: string } | null };
    expect(thread.messages.map((m: Message) => (m.email ?? m.sent)?.id)).toEqual(
      viaRest.messages.map((m: { id: string }) => m.id),
    );
    expect(thread.messages.map((m: Message) => m.direction)).toEqual(["received", "sent"]);
    const emailThread = await api.graphql(
      `query($a: ID!, $e: ID!) { email(agentId: $a, emailId: $e) { thread { messageCount } } }`,
      { a: agent.id, e: email.id },
      agent.apiKey,
    );
    expect(emailThread.body.data.email.thread.messageCount).toBe(2);
  });
});

describe("Idempotency-Key", () => {
  const send = (agent: TestAgent, key: string, subject = "Once") =>
    api.post(`/agents/${agent.id}/send`, {
      key: agent.apiKey,
      headers: { "idempotency-key": key },
      body: { to: "pat@example.com", subject, text: "Only once, please." },
    });

  test("a retry gets the first answer and nothing goes out twice; another body with the key is 422", async () => {
    const agent = await createVerifiedAgent(api, x);
    const count = provider.deliveries.length;
    const first = await send(agent, "order-42");
    const second = await send(agent, "order-42");
    expect(first.status).toBe(201);
    expect(second.status).toBe(201);
    expect(second.body).toEqual(first.body);
    expect(provider.deliveries.length).toBe(count + 1);
    const changed = await send(agent, "order-42", "Another subject");
    expect(changed.status).toBe(422);
    expect(changed.body).toMatchObject({ error: "Unprocessable Content", code: "IDEMPOTENCY_KEY_REUSED" });
    const graphql = await api.graphql(
      `mutation($a: ID!) { sendEmail(agentId: $a, idempotencyKey: "order-42", input: { to: ["pat@example.com"], subject: "Once", text: "Only once, please." }) { ... on SentEmail { id } } }`,
      { a: agent.id },
      agent.apiKey,
    );
    expect(graphql.body.data.sendEmail.id).toBe(first.body.id);
    const quota = await api.graphql(
      `query($a: ID!) { agent(id: $a) { sendQuota { used } } }`,
      { a: agent.id },
      agent.apiKey,
    );
    expect(quota.body.data.agent.sendQuota.used).toBe(1);
    // The same key from another agent is that agent's own.
    const other = await createVerifiedAgent(api, x);
    expect((await send(other, "order-42")).body.id).not.toBe(first.body.id);
    const bad = await send(agent, "x".repeat(256));
    expect(bad.status).toBe(400);
    expect(bad.body.message).toContain("Idempotency-Key");
  });

  test("an error is kept as the answer too: a retry does not try again", async () => {
    const agent = await createVerifiedAgent(api, x);
    const body = { to: "pat@example.com", subject: "x", text: "x", attachments: [{ filename: "a", content: "%%" }] };
    const options = { key: agent.apiKey, headers: { "idempotency-key": "bad-1" }, body };
    const first = await api.post(`/agents/${agent.id}/send`, options);
    const second = await api.post(`/agents/${agent.id}/send`, options);
    expect(first.status).toBe(400);
    expect(second.status).toBe(400);
    expect(second.body).toEqual(first.body);
  });

  test("20 parallel requests with one key: one message goes out; the rest get it again or 409", async () => {
    const agent = await createVerifiedAgent(api, x);
    provider.delayMs = 300;
    const count = provider.deliveries.length;
    try {
      const replies = await Promise.all(Array.from({ length: 20 }, () => send(agent, "parallel-1")));
      const statuses = replies.map((r) => r.status);
      expect(statuses.every((s) => s === 201 || s === 409)).toBe(true);
      expect(statuses.filter((s) => s === 409).length).toBeGreaterThan(0);
      const ids = new Set(replies.filter((r) => r.status === 201).map((r) => r.body.id));
      expect(ids.size).toBe(1);
      expect(replies.find((r) => r.status === 409)?.body.code).toBe("IDEMPOTENCY_KEY_IN_USE");
    } finally {
      provider.delayMs = 0;
    }
    expect(provider.deliveries.length).toBe(count + 1);
    expect((await send(agent, "parallel-1")).status).toBe(201);
    expect(provider.deliveries.length).toBe(count + 1);
  });

  describe.runIf(process.env.TEST_DATABASE === "postgresql")("two instances on one PostgreSQL", () => {
    test("the same key on both at once: one message goes out", async () => {
      const agent = await createVerifiedAgent(api, x);
      const other = new Api((await svc.startAnother()).url);
      const count = provider.deliveries.length;
      const request = (on: Api) =>
        on.post(`/agents/${agent.id}/send`, {
          key: agent.apiKey,
          headers: { "idempotency-key": "cross-1" },
          body: { to: "pat@example.com", subject: "Once", text: "x" },
        });
      const replies = await Promise.all([api, other, api, other, api, other].map(request));
      expect(replies.every((r) => r.status === 201 || r.status === 409)).toBe(true);
      await waitFor(async () => ((await request(other)).status === 201 ? true : null), 10_000, "the kept answer");
      expect(provider.deliveries.length).toBe(count + 1);
    });
  });
});

describe("batch changes", () => {
  test("one change to many emails; a foreign id makes it 404 with nothing changed", async () => {
    const [agent, other] = [await createVerifiedAgent(api, x), await createVerifiedAgent(api, x)];
    await deliver(agent, { subject: "1", text: "x" });
    await deliver(agent, { subject: "2", text: "x" });
    await deliver(agent, { subject: "3", text: "x" });
    const { email: foreign } = await deliver(other, { subject: "not yours", text: "x" });
    const ids = (await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.data.map(
      (e: { id: string }) => e.id,
    );
    const refused = await api.post(`/agents/${agent.id}/emails/batch`, {
      key: agent.apiKey,
      body: { emailIds: [...ids, foreign.id], folder: "archive", isRead: true },
    });
    expect(refused.status).toBe(404);
    const unchanged = (await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.data;
    expect(unchanged.every((e: { folder: string; isRead: boolean }) => e.folder === "inbox" && !e.isRead)).toBe(true);

    const done = await api.post(`/agents/${agent.id}/emails/batch`, {
      key: agent.apiKey,
      body: { emailIds: ids, folder: "Archive", isRead: true },
    });
    expect(done).toMatchObject({ status: 200, body: { updated: 3 } });
    const after = (await api.get(`/agents/${agent.id}/emails?folder=archive`, { key: agent.apiKey })).body;
    expect(after.total).toBe(3);
    expect(after.data.every((e: { isRead: boolean }) => e.isRead)).toBe(true);
    const again = await api.post(`/agents/${agent.id}/emails/batch`, {
      key: agent.apiKey,
      body: { emailIds: ids, isRead: true },
    });
    expect(again.body).toEqual({ updated: 0 });
    for (const body of [
      { emailIds: [], isRead: true },
      { emailIds: Array.from({ length: 101 }, (_, n) => `e${n}`), isRead: true },
      { emailIds: ids },
    ]) {
      const reply = await api.post(`/agents/${agent.id}/emails/batch`, { key: agent.apiKey, body });
      expect(reply.status).toBe(400);
      expect(reply.body.error).toBe("Bad Request");
    }
  });
});
