import { Resolver } from "node:dns/promises";
import { connect } from "node:net";
import { type ARCSealOptions, authenticate, sealMessage } from "mailauth";
import nodemailer from "nodemailer";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Api, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { dkimKey, dkimSigned } from "./support/dkim.ts";
import { type DnsServer, startDnsServer } from "./support/dns-server.ts";
import { inboxOf } from "./support/inbox.ts";
import { rawMessage } from "./support/mail.ts";
import { served } from "./support/served.ts";
import { doorPort, startTestService, type TestService, withService } from "./support/service.ts";

// Who sent it: SPF, DKIM, DMARC and ARC verdicts on mail signed for real
// with mailauth's own signer, against keys and policies a real DNS server
// publishes; SPF for the client that really handed the message over (the
// SMTP door's peer or the one its PROXY header names, /inbound/raw's
// X-Client-Ip, the catch-all's first hop from outside its own MX), never for
// a Received line the sender wrote; then the same read from a trusted
// server's Authentication-Results header, where every other server's is
// ignored.

let dns: DnsServer;
let agent: TestAgent;
/** Mail whose verdicts the listing test below does not count. */
let other: TestAgent;

const keys = { signed: dkimKey(), nopolicy: dkimKey(), esp: dkimKey(), forwarder: dkimKey() };

beforeAll(async () => {
  dns = await startDnsServer();
  dns.txt("sel._domainkey.signed.example", keys.signed.record);
  dns.txt("_dmarc.signed.example", "v=DMARC1; p=reject");
  dns.txt("signed.example", "v=spf1 ip4:192.0.2.10 -all");
  dns.txt("sel._domainkey.nopolicy.example", keys.nopolicy.record);
  dns.txt("sel._domainkey.esp.example", keys.esp.record);
  dns.txt("arc._domainkey.forwarder.example", keys.forwarder.record);
  dns.txt("forwarder.example", "v=spf1 ip4:192.0.2.20 -all");
  dns.txt("proxied.example", "v=spf1 ip4:192.0.2.30 ip6:2001:db8::30 -all");
  dns.txt("_dmarc.proxied.example", "v=DMARC1; p=reject");
  dns.txt("spfonly.example", "v=spf1 ip4:192.0.2.40 -all");
});
afterAll(async () => {
  await dns?.close();
});
const INBOUND = "inbound-token-authentication-0123456789";
// After the DNS server above has started: the service asks it. Its MX and mail store are the catch-all's own hosts.
const { api, svc, x, dovecot } = served({
  imap: true,
  env: () => ({
    DNS_SERVERS: dns.address,
    TRUSTED_MX_HOSTS: "mx.mail.example, IMAP.mail.example",
    SMTP_INGRESS_PORT: "0",
    SMTP_INGRESS_HOST: "127.0.0.1",
    INBOUND_TOKEN: INBOUND,
  }),
});
beforeAll(async () => {
  [agent, other] = await Promise.all([createVerifiedAgent(api, x), createVerifiedAgent(api, x)]);
});

const to = (who = agent) => `${who.id}@mail.example`;

const signed = (raw: string, domain: keyof typeof keys) => dkimSigned(raw, `${domain}.example`, keys[domain]);

/** What the receiving MX writes on top: the client it spoke to, then its hand-over to the mail store. */
const received = (ip: string, returnPath: string) =>
  [
    "Received: from mx.mail.example ([127.0.0.1]) by imap.mail.example with LMTP; Sun, 22 Nov 2026 10:00:02 +0000",
    `Return-Path: <${returnPath}>`,
    `Received: from sender.host (sender.host [${ip}])\r\n\tby mx.mail.example with ESMTPS id 1; Sun, 22 Nov 2026 10:00:01 +0000`,
    "",
  ].join("\r\n");

type Verdicts = Record<"spf" | "dkim" | "dmarc" | "arc" | "verdict", string | null>;

/** Delivers each message (by subject) and answers the authentication the service filed for it. */
async function file(messages: Record<string, string>, who = agent): Promise<Record<string, Verdicts>> {
  const before = (await api.get(`/agents/${who.id}/emails?limit=1`, { key: who.apiKey })).body.total as number;
  await dovecot.append(Object.values(messages).map((raw) => `X-Original-To: ${to(who)}\r\n${raw}`));
  const inbox = await inboxOf(api, who, before + Object.keys(messages).length);
  const bySubject = new Map(
    inbox.body.data.map((e: { subject: string; authentication: Verdicts }) => [e.subject, e.authentication]),
  );
  return Object.fromEntries(Object.keys(messages).map((subject) => [subject, bySubject.get(subject) as Verdicts]));
}

const message = (subject: string, from: string, body = "Invoice 4471 is attached.") =>
  rawMessage({ to: to(), from, subject, body });

/** An unsigned message, to the other agent unless it says. */
const unsigned = (subject: string, from: string, who = other) => rawMessage({ to: to(who), from, subject });

/** The verdicts filed for the email of this subject, to the other agent unless it says. */
async function verdictsOf(subject: string, service = api, who = other): Promise<Verdicts> {
  const inbox = await service.get(`/agents/${who.id}/emails?limit=100`, { key: who.apiKey });
  const email = inbox.body.data.find((e: { subject: string }) => e.subject === subject);
  expect(email, subject).toBeDefined();
  return email.authentication;
}

/** A Received line as a server writes it: who handed the message over, and who took it. */
const hop = (from: string, by: string) =>
  `Received: from ${from}\r\n\tby ${by} with ESMTP; Sun, 22 Nov 2026 10:00:01 +0000\r\n`;

/** What a sender writes to pass for 192.0.2.10, which signed.example permits. */
const FORGED = hop("sender.host (sender.host [192.0.2.10])", "mx.mail.example");

/**
 * An SMTP conversation on a raw socket from `localAddress`: `opening` is written the moment it connects (a PROXY
 * header, say), then each command once the reply before it came. Every reply, until the commands end or the door
 * closes the connection.
 */
async function converse(port: number, opening: Buffer | string, commands: string[], localAddress = "127.0.0.1") {
  const socket = connect({ port, host: "127.0.0.1", localAddress });
  const replies: string[] = [];
  let buffered = "";
  let wake = () => {};
  let isClosed = false;
  const closed = new Promise<void>((resolve) =>
    socket.on("close", () => {
      isClosed = true;
      wake();
      resolve();
    }),
  );
  socket.on("error", () => {}); // a write racing the door's close; `closed` tells
  socket.on("data", (chunk) => {
    buffered += chunk.toString("latin1");
    // A reply ends with a line whose code is followed by a space.
    for (let match = /^\d{3} .*\r\n/m.exec(buffered); match; match = /^\d{3} .*\r\n/m.exec(buffered)) {
      replies.push(buffered.slice(0, match.index + match[0].length));
      buffered = buffered.slice(match.index + match[0].length);
    }
    wake();
  });
  const heard = (count: number) =>
    new Promise<void>((resolve) => {
      wake = () => (replies.length >= count || isClosed ? resolve() : undefined);
      wake();
    });
  socket.write(opening);
  await heard(1);
  for (const command of commands) {
    if (isClosed) break;
    socket.write(`${command}\r\n`);
    await heard(replies.length + 1);
  }
  socket.end();
  await closed;
  return replies;
}

/** Runs `run` against an instance of its own with a door set up by `env`: the door's port, and its API. */
const withDoor = (env: Record<string, string>, run: (port: number, service: Api) => Promise<void>) =>
  withService(
    {
      SOCIAL_OEMBED_URL: x.url,
      MAIL_DOMAIN: "mail.example",
      DNS_SERVERS: dns.address,
      SMTP_INGRESS_PORT: "0",
      SMTP_INGRESS_HOST: "127.0.0.1",
      ...env,
    },
    async (svc: TestService) => {
      await run(doorPort(svc), new Api(svc.url));
    },
  );

/** The commands that send `raw` from `sender` to the agent. */
const sending = (sender: string, raw: string, who: TestAgent, greeting = "EHLO sender.host") => [
  greeting,
  `MAIL FROM:<${sender}>`,
  `RCPT TO:<${to(who)}>`,
  "DATA",
  `${raw}\r\n.`,
  "QUIT",
];

describe("checked by the service", () => {
  test("SPF, DKIM and DMARC pass for aligned mail from a permitted server; tampering fails", async () => {
    const good = await signed(message("good", "Billing <billing@signed.example>"), "signed");
    const tamperedBody = (await signed(message("tampered", "billing@signed.example"), "signed")).replace(
      "Invoice 4471",
      "Invoice 9999",
    );
    const tamperedHeader = (await signed(message("header", "billing@signed.example"), "signed")).replace(
      "Subject: header",
      "Subject: header changed",
    );
    const verdicts = await file({
      good: received("192.0.2.10", "bounce@signed.example") + good,
      tampered:
        received("198.51.100.7", "bounce@signed.example") + tamperedBody.replace("Subject: good", "Subject: tampered"),
      "header changed": tamperedHeader,
    });
    expect(verdicts.good).toEqual({ spf: "pass", dkim: "pass", dmarc: "pass", arc: "none", verdict: "pass" });
    expect(verdicts.tampered).toEqual({ spf: "fail", dkim: "fail", dmarc: "fail", arc: "none", verdict: "fail" });
    // No Received hop from outside: SPF is not evaluated.
    expect(verdicts["header changed"]).toEqual({
      spf: null,
      dkim: "fail",
      dmarc: "fail",
      arc: "none",
      verdict: "fail",
    });
  });

  test("without a DMARC policy: an aligned DKIM pass is a pass, a third party's signature is not", async () => {
    const verdicts = await file({
      own: await signed(message("own", "news@nopolicy.example"), "nopolicy"),
      esp: await signed(message("esp", "news@nopolicy.example"), "esp"),
      unsigned: message("unsigned", "someone@nopolicy.example"),
    });
    expect(verdicts.own).toEqual({ spf: null, dkim: "pass", dmarc: "none", arc: "none", verdict: "pass" });
    expect(verdicts.esp).toEqual({ spf: null, dkim: "pass", dmarc: "none", arc: "none", verdict: "none" });
    expect(verdicts.unsigned).toEqual({ spf: null, dkim: "none", dmarc: "none", arc: "none", verdict: "none" });
  });

  test("an ARC seal from a forwarder is verified; DMARC still decides the verdict", async () => {
    const resolver = new Resolver();
    resolver.setServers([dns.address]);
    /** What a mailing list does: check the message, change it, seal what it checked. */
    const forward = async (original: string, change: (raw: string) => string) => {
      const checkedThere = await authenticate(original, {
        ip: "192.0.2.10",
        helo: "sender.host",
        sender: "bounce@signed.example",
        mta: "forwarder.example",
        resolver: (name, type) => resolver.resolve(name, type) as Promise<string[][]>,
        disableBimi: true,
      });
      const changed = change(original);
      const seal = await sealMessage(changed, {
        signingDomain: "forwarder.example",
        selector: "arc",
        privateKey: keys.forwarder.privateKey,
        authResults: (checkedThere.arc as { authResults: string }).authResults,
        cv: "none",
      } as ARCSealOptions);
      return received("192.0.2.20", "list-bounce@forwarder.example") + seal.toString() + changed;
    };
    const verdicts = await file({
      list: await forward(await signed(message("list", "billing@signed.example"), "signed"), (raw) => raw),
      "[list] tagged": await forward(await signed(message("tagged", "billing@signed.example"), "signed"), (raw) =>
        raw.replace("Subject: tagged", "Subject: [list] tagged"),
      ),
    });
    expect(verdicts.list).toEqual({ spf: "pass", dkim: "pass", dmarc: "pass", arc: "pass", verdict: "pass" });
    expect(verdicts["[list] tagged"]).toEqual({
      spf: "pass",
      dkim: "fail",
      dmarc: "fail",
      arc: "pass",
      verdict: "fail",
    });
  });

  test("an Authentication-Results header written by anyone else is ignored", async () => {
    const forged = rawMessage({
      to: to(),
      from: "ceo@signed.example",
      subject: "forged",
      headers: ["Authentication-Results: mx.mail.example; spf=pass; dkim=pass header.d=signed.example; dmarc=pass"],
    });
    const verdicts = await file({ forged });
    expect(verdicts.forged).toEqual({ spf: null, dkim: "none", dmarc: "fail", arc: "none", verdict: "fail" });
  });

  test("authenticated=true lists and searches only mail that passed; GraphQL agrees", async () => {
    const list = async (query: string) =>
      (await api.get(`/agents/${agent.id}/emails?limit=100&${query}`, { key: agent.apiKey })).body.data.map(
        (e: { subject: string }) => e.subject,
      );
    expect((await list("authenticated=true")).sort()).toEqual(["good", "list", "own"]);
    expect(await list("authenticated=false")).not.toContain("good");
    expect(await list("authenticated=false")).toContain("tampered");
    expect(await list("q=invoice&authenticated=true")).toEqual(expect.arrayContaining(["good", "own"]));
    expect(await list("q=invoice&authenticated=true")).not.toContain("tampered");
    const graphql = await api.graphql(
      `query($a: ID!) { agent(id: $a) { emails(authenticated: true, limit: 100) {
        data { subject authentication { spf dkim dmarc arc verdict } } } } }`,
      { a: agent.id },
      agent.apiKey,
    );
    const good = graphql.body.data.agent.emails.data.find((e: { subject: string }) => e.subject === "good");
    expect(good.authentication).toEqual({ spf: "pass", dkim: "pass", dmarc: "pass", arc: "none", verdict: "pass" });
    expect(graphql.body.data.agent.emails.data).toHaveLength(3);
  });
});

describe("SPF's client is the one that handed the message over, never a Received line the sender wrote", () => {
  test("through the SMTP door, from a loopback peer: SPF checks the peer", async () => {
    const door = nodemailer.createTransport({
      host: "127.0.0.1",
      port: doorPort(svc),
      ignoreTLS: true,
      name: "sender.host",
    });
    await door.sendMail({
      envelope: { from: "bounce@signed.example", to: [to(other)] },
      raw: FORGED + unsigned("door from loopback", "billing@signed.example"),
    });
    expect(await verdictsOf("door from loopback")).toEqual({
      spf: "fail",
      dkim: "none",
      dmarc: "fail",
      arc: "none",
      verdict: "fail",
    });
  });

  test("a message built to be read two ways never passes for the From it is filed under", async () => {
    // A header line that starts with a bare CR: mailauth reads it as part of the line above (so it checks the
    // second From, the signer's own), mailparser as a header of its own (so the first From is filed).
    const raw = (subject: string) =>
      [
        "X-A: 1",
        "\rFrom: CEO <ceo@signed.example>",
        "From: news@nopolicy.example",
        `To: ${to(other)}`,
        `Subject: ${subject}`,
        `Message-ID: <${subject.replace(/\W/g, "")}@nopolicy.example>`,
        "",
        "Pay the invoice.",
        "",
      ].join("\r\n");
    // Handed over as it is (an SMTP client would end the bare CR's line).
    const subject = "two readings";
    const posted = await fetch(`${api.url}/inbound/raw`, {
      method: "POST",
      body: await signed(raw(subject), "nopolicy"),
      headers: {
        Authorization: `Bearer ${INBOUND}`,
        "Content-Type": "message/rfc822",
        "X-Envelope-To": to(other),
        "X-Envelope-From": "news@nopolicy.example",
      },
    });
    expect(posted.status).toBe(200);
    const filed = await verdictsOf(subject);
    expect(filed.verdict).toBe("fail");
    const inbox = await api.get(`/agents/${other.id}/emails?limit=100`, { key: other.apiKey });
    const email = inbox.body.data.find((e: { subject: string }) => e.subject === subject);
    expect(email.from.address).toBe("ceo@signed.example");
  });

  test("through /inbound/raw: X-Client-Ip, else no SPF at all", async () => {
    const post = (raw: string, headers: Record<string, string>) =>
      fetch(`${api.url}/inbound/raw`, {
        method: "POST",
        body: raw,
        headers: {
          Authorization: `Bearer ${INBOUND}`,
          "Content-Type": "message/rfc822",
          "X-Envelope-To": to(other),
          ...headers,
        },
      });
    const forged = await post(FORGED + unsigned("raw without client", "billing@signed.example"), {
      "X-Envelope-From": "bounce@signed.example",
    });
    expect(forged.status).toBe(200);
    expect(await verdictsOf("raw without client")).toEqual({
      spf: null,
      dkim: "none",
      dmarc: "fail",
      arc: "none",
      verdict: "fail",
    });
    const vouched = await post(unsigned("raw with client", "news@spfonly.example"), {
      "X-Envelope-From": "bounce@spfonly.example",
      "X-Client-Ip": "192.0.2.40",
    });
    expect(vouched.status).toBe(200);
    expect(await verdictsOf("raw with client")).toEqual({
      spf: "pass",
      dkim: "none",
      dmarc: "none",
      arc: "none",
      verdict: "pass",
    });
    const notAnAddress = await post(unsigned("raw with a name", "news@spfonly.example"), {
      "X-Client-Ip": "sender.host",
    });
    expect([notAnAddress.status, (await notAnAddress.json()).message]).toEqual([
      400,
      "X-Client-Ip must be an IP address",
    ]);
  });

  test("through the catch-all: only below TRUSTED_MX_HOSTS' own lines, the first hop from a public address", async () => {
    const lmtp = hop("mx.mail.example ([127.0.0.1])", "imap.mail.example");
    const verdicts = await file(
      {
        // The MX behind a NAT: its hop is from a private address, and the line below it is not its own.
        "under a private hop":
          lmtp +
          hop("unknown ([10.0.0.5])", "mx.mail.example") +
          hop("sender.host (sender.host [192.0.2.10])", "relay.example") +
          "Return-Path: <bounce@signed.example>\r\n" +
          unsigned("under a private hop", "billing@signed.example"),
        "no hop of ours":
          hop("sender.host (sender.host [192.0.2.10])", "relay.example") +
          "Return-Path: <bounce@signed.example>\r\n" +
          unsigned("no hop of ours", "billing@signed.example"),
        "below the first hop from outside":
          received("198.51.100.7", "bounce@signed.example") +
          FORGED +
          unsigned("below the first hop from outside", "billing@signed.example"),
        // The envelope sender is the Return-Path the receiving side wrote above its hop, not one below it.
        "return-path below":
          hop("sender.host (sender.host [192.0.2.40])", "mx.mail.example") +
          "Return-Path: <bounce@spfonly.example>\r\n" +
          unsigned("return-path below", "news@spfonly.example"),
      },
      other,
    );
    expect(verdicts["under a private hop"]).toEqual({
      spf: null,
      dkim: "none",
      dmarc: "fail",
      arc: "none",
      verdict: "fail",
    });
    expect(verdicts["no hop of ours"]).toEqual(verdicts["under a private hop"]);
    expect(verdicts["below the first hop from outside"]).toEqual({
      spf: "fail",
      dkim: "none",
      dmarc: "fail",
      arc: "none",
      verdict: "fail",
    });
    expect(verdicts["return-path below"]).toEqual({
      spf: "none",
      dkim: "none",
      dmarc: "none",
      arc: "none",
      verdict: "none",
    });
  });

  test("without a DMARC policy an SPF pass counts when it is the From domain's, and only then", async () => {
    const verdicts = await file(
      {
        aligned: received("192.0.2.40", "bounce@spfonly.example") + unsigned("aligned", "news@spfonly.example"),
        "another domain's":
          received("192.0.2.20", "bounce@forwarder.example") + unsigned("another domain's", "news@spfonly.example"),
      },
      other,
    );
    expect(verdicts.aligned).toEqual({ spf: "pass", dkim: "none", dmarc: "none", arc: "none", verdict: "pass" });
    expect(verdicts["another domain's"]).toEqual({
      spf: "pass",
      dkim: "none",
      dmarc: "none",
      arc: "none",
      verdict: "none",
    });
  });
  test("through the LMTP door behind the operator's MTA: SPF's client is the one its trace names", async () => {
    await withDoor({ SMTP_INGRESS_LMTP: "true", TRUSTED_MX_HOSTS: "mx.mail.example" }, async (port, service) => {
      const mine = await createVerifiedAgent(service, x);
      const relay = async (subject: string, trace: string) => {
        const raw = trace + unsigned(subject, "billing@signed.example", mine);
        const lmtp = sending("bounce@signed.example", raw, mine, "LHLO mx.mail.example");
        expect((await converse(port, "", lmtp)).at(-2)).toMatch(/^250 /);
        return verdictsOf(subject, service, mine);
      };
      expect(await relay("relayed", FORGED)).toEqual({
        spf: "pass",
        dkim: "none",
        dmarc: "pass",
        arc: "none",
        verdict: "pass",
      });
      const attacker = hop("attacker.host (attacker.host [198.51.100.7])", "mx.mail.example");
      expect(await relay("relayed forgery", attacker + FORGED)).toMatchObject({ spf: "fail", verdict: "fail" });
      expect(await relay("relayed by another host", hop("sender.host ([192.0.2.10])", "relay.example"))).toMatchObject({
        spf: null,
        verdict: "fail",
      });
    });
  });
});

describe("TRUSTED_AUTHSERV_ID and the SMTP door", () => {
  test("the door that is the MX checks the message itself: a header naming the trusted server is the sender's", async () => {
    const vouching =
      "Authentication-Results: mx.mail.example; spf=pass smtp.mailfrom=bounce@signed.example;\r\n" +
      " dkim=pass header.d=signed.example; dmarc=pass header.from=signed.example\r\n";
    await withDoor({ TRUSTED_AUTHSERV_ID: "mx.mail.example" }, async (port, service) => {
      const mine = await createVerifiedAgent(service, x);
      const raw = vouching + unsigned("vouched by itself", "billing@signed.example", mine);
      expect((await converse(port, "", sending("bounce@signed.example", raw, mine))).at(-2)).toMatch(/^250 /);
      expect(await verdictsOf("vouched by itself", service, mine)).toEqual({
        spf: "fail",
        dkim: "none",
        dmarc: "fail",
        arc: "none",
        verdict: "fail",
      });
    });
    // Behind the operator's MTA (LMTP), that MTA wrote it, and it is read.
    await withDoor({ SMTP_INGRESS_LMTP: "true", TRUSTED_AUTHSERV_ID: "mx.mail.example" }, async (port, service) => {
      const mine = await createVerifiedAgent(service, x);
      const raw = vouching + unsigned("vouched by the MTA", "billing@signed.example", mine);
      const lmtp = sending("bounce@signed.example", raw, mine, "LHLO mx.mail.example");
      expect((await converse(port, "", lmtp)).at(-2)).toMatch(/^250 /);
      expect(await verdictsOf("vouched by the MTA", service, mine)).toMatchObject({ dmarc: "pass", verdict: "pass" });
    });
  });
});

describe("the SMTP door behind a proxy (SMTP_INGRESS_TRUSTED_PROXIES)", () => {
  /** Runs `run` against a door that believes PROXY headers from 127.0.0.1 only, and its API. */
  const behindProxy = (run: (port: number, service: Api) => Promise<void>) =>
    withDoor({ SMTP_INGRESS_TRUSTED_PROXIES: "127.0.0.1", SMTP_INGRESS_IDLE_TIMEOUT_SECONDS: "3" }, run);

  /** A version 2 header: PROXY over TCP/IPv6 from 2001:db8::30 port 40000 to ::1 port 25, with a NOOP TLV. */
  const v2 = Buffer.concat([
    Buffer.from("0d0a0d0a000d0a515549540a", "hex"),
    Buffer.from([0x21, 0x21, 0x00, 36 + 4]),
    Buffer.from("20010db8000000000000000000000030", "hex"),
    Buffer.from("00000000000000000000000000000001", "hex"),
    Buffer.from([0x9c, 0x40, 0x00, 0x19]),
    Buffer.from([0x04, 0x00, 0x01, 0x00]),
  ]);

  test("a listed proxy's PROXY header, version 1 or 2, names the client SPF checks", async () => {
    await behindProxy(async (port, service) => {
      const mine = await createVerifiedAgent(service, x);
      const v1 = "PROXY TCP4 192.0.2.30 127.0.0.1 40000 25\r\n";
      for (const [subject, opening] of [
        ["through PROXY v1", v1],
        ["through PROXY v2", v2],
      ] as const) {
        const replies = await converse(
          port,
          opening,
          sending("bounce@proxied.example", unsigned(subject, "billing@proxied.example", mine), mine),
        );
        expect(replies[0]).toMatch(/^220 /);
        expect(replies.at(-2)).toMatch(/^250 /);
        expect(await verdictsOf(subject, service, mine)).toEqual({
          spf: "pass",
          dkim: "none",
          dmarc: "pass",
          arc: "none",
          verdict: "pass",
        });
      }
    });
  });

  test("a PROXY header from an unlisted address, or a listed one without a header, is refused", async () => {
    await behindProxy(async (port) => {
      const header = "PROXY TCP4 192.0.2.30 127.0.0.1 40000 25\r\n";
      // 127.0.0.2 is loopback too, but not listed: its header is answered as any client that talks too soon.
      expect(await converse(port, header, ["EHLO sender.host"], "127.0.0.2")).toEqual([
        expect.stringMatching(/^421 .*You talk too soon/),
      ]);
      expect(await converse(port, v2, ["EHLO sender.host"], "127.0.0.2")).toEqual([
        expect.stringMatching(/^421 .*You talk too soon/),
      ]);
      // The listed proxy speaking SMTP at once, and one that says nothing until the idle timeout.
      const refused = [expect.stringMatching(/^421 4\.7\.0 /)];
      expect(await converse(port, "EHLO sender.host\r\n", [])).toEqual(refused);
      expect(await converse(port, "", [])).toEqual(refused);
    });
  });
});

test("with DNS unreachable, mail is filed all the same and its checks say temperror; without TRUSTED_MX_HOSTS the catch-all's trace is not read for SPF", async () => {
  const silent = await startDnsServer();
  const address = silent.address;
  await silent.close();
  const client = await dovecot.client();
  await client.mailboxCreate("NoDns").catch(() => {});
  await client.logout();
  const cut = await startTestService({
    SOCIAL_OEMBED_URL: x.url,
    MAIL_DOMAIN: "mail.example",
    IMAP_URL: dovecot.url("NoDns"),
    DNS_SERVERS: address,
  });
  try {
    const cutApi = new Api(cut.url);
    const mine = await createVerifiedAgent(cutApi, x);
    const raw = await signed(rawMessage({ to: `${mine.id}@mail.example`, from: "a@signed.example" }), "signed");
    const trace = received("192.0.2.10", "bounce@signed.example");
    await dovecot.append(`X-Original-To: ${mine.id}@mail.example\r\n${trace}${raw}`, "NoDns");
    const inbox = await inboxOf(cutApi, mine, 1);
    expect(inbox.body.data[0].authentication).toEqual({
      spf: null,
      dkim: "temperror",
      dmarc: "temperror",
      arc: "none",
      verdict: "none",
    });
  } finally {
    await cut.stop();
  }
});

describe("read from a trusted server's Authentication-Results", () => {
  test("only the trusted server's header counts, and DNS is never asked", async () => {
    const client = await dovecot.client();
    await client.mailboxCreate("Trusted").catch(() => {});
    await client.logout();
    const trusted = await startTestService({
      SOCIAL_OEMBED_URL: x.url,
      MAIL_DOMAIN: "mail.example",
      IMAP_URL: dovecot.url("Trusted"),
      DNS_SERVERS: dns.address,
      TRUSTED_AUTHSERV_ID: "MX.mail.example",
    });
    try {
      const trustedApi = new Api(trusted.url);
      const mine = await createVerifiedAgent(trustedApi, x);
      const address = `${mine.id}@mail.example`;
      const asked = dns.asked.length;
      const mail = (subject: string, from: string, results: string[]) =>
        `X-Original-To: ${address}\r\n${rawMessage({
          to: address,
          from,
          subject,
          headers: results.map((r) => `Authentication-Results: ${r}`),
        })}`;
      await dovecot.append(
        [
          mail("vouched", "billing@signed.example", [
            "mx.mail.example;\r\n spf=pass smtp.mailfrom=bounce@signed.example;\r\n dkim=pass (2048-bit key) header.d=signed.example header.s=sel;\r\n dmarc=pass (p=REJECT) header.from=signed.example",
            "evil.example; dmarc=fail",
          ]),
          mail("forged only", "billing@signed.example", ["evil.example; spf=pass; dkim=pass; dmarc=pass"]),
          mail("aligned dkim", "news@nopolicy.example", [
            'mx.mail.example 1; dkim=pass reason="good; signature" header.i=@mail.nopolicy.example; dmarc=none',
          ]),
          mail("third party", "news@nopolicy.example", [
            "mx.mail.example; dkim=pass header.d=esp.example; spf=softfail",
          ]),
        ],
        "Trusted",
      );
      const inbox = await inboxOf(trustedApi, mine, 4);
      const bySubject = Object.fromEntries(
        inbox.body.data.map((e: { subject: string; authentication: Verdicts }) => [e.subject, e.authentication]),
      );
      expect(bySubject).toEqual({
        vouched: { spf: "pass", dkim: "pass", dmarc: "pass", arc: null, verdict: "pass" },
        "forged only": { spf: null, dkim: null, dmarc: null, arc: null, verdict: "none" },
        "aligned dkim": { spf: null, dkim: "pass", dmarc: "none", arc: null, verdict: "pass" },
        "third party": { spf: "softfail", dkim: "pass", dmarc: null, arc: null, verdict: "none" },
      });
      expect(dns.asked.length).toBe(asked);
    } finally {
      await trusted.stop();
    }
  });
});
