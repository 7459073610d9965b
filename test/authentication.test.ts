import { Resolver } from "node:dns/promises";
import { type ARCSealOptions, authenticate, sealMessage } from "mailauth";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { Api, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { dkimKey, dkimSigned } from "./support/dkim.ts";
import { type DnsServer, startDnsServer } from "./support/dns-server.ts";
import { inboxOf } from "./support/inbox.ts";
import { rawMessage } from "./support/mail.ts";
import { served } from "./support/served.ts";
import { startTestService } from "./support/service.ts";

// Who sent it: SPF, DKIM, DMARC and ARC verdicts on mail signed for real
// with mailauth's own signer, against keys and policies a real DNS server
// publishes; then the same read from a trusted server's
// Authentication-Results header, where every other server's is ignored.

let dns: DnsServer;
let agent: TestAgent;

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
});
afterAll(async () => {
  await dns?.close();
});
// After the DNS server above has started: the service asks it.
const { api, x, dovecot } = served({ imap: true, env: () => ({ DNS_SERVERS: dns.address }) });
beforeAll(async () => {
  agent = await createVerifiedAgent(api, x);
});

const to = () => `${agent.id}@mail.example`;

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
async function file(messages: Record<string, string>): Promise<Record<string, Verdicts>> {
  const before = (await api.get(`/agents/${agent.id}/emails?limit=1`, { key: agent.apiKey })).body.total as number;
  await dovecot.append(Object.values(messages).map((raw) => `X-Original-To: ${to()}\r\n${raw}`));
  const inbox = await inboxOf(api, agent, before + Object.keys(messages).length);
  const bySubject = new Map(
    inbox.body.data.map((e: { subject: string; authentication: Verdicts }) => [e.subject, e.authentication]),
  );
  return Object.fromEntries(Object.keys(messages).map((subject) => [subject, bySubject.get(subject) as Verdicts]));
}

const message = (subject: string, from: string, body = "Invoice 4471 is attached.") =>
  rawMessage({ to: to(), from, subject, body });

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

test("with DNS unreachable, mail is filed all the same and its checks say temperror", async () => {
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
    await dovecot.append(`X-Original-To: ${mine.id}@mail.example\r\n${raw}`, "NoDns");
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
