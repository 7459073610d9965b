import { Resolver } from "node:dns/promises";
import { authenticate } from "mailauth";
import { describe, expect, test } from "vitest";
import { doctor } from "../src/cli/doctor.ts";
import { loadConfig } from "../src/config.ts";
import { Api, type TestAgent, uniqueId, verifyAgent } from "./support/api.ts";
import { databaseBytes } from "./support/database-bytes.ts";
import { startDnsServer } from "./support/dns-server.ts";
import { rawMessage } from "./support/mail.ts";
import { served } from "./support/served.ts";
import { freshDatabase, startTestService, type TestService, withService } from "./support/service.ts";
import { waitFor } from "./support/wait.ts";

// Several domains: agents register on any served one, mail is filed by the
// whole address, the operator adds domains and is given the DNS records to
// publish, which verify checks against a real DNS server; outgoing mail is
// DKIM-signed so that a receiver (mailauth) verifies it with the published
// key, and keeps verifying through a key rotation.

const ADMIN = "admin-token-domains-0123456789";
const MX = "mx.pigeon.example";
const dns = await startDnsServer();
const { svc, api, x, dovecot, provider } = served({
  imap: true,
  smtp: true,
  env: {
    MAIL_DOMAINS: "a.example,b.example",
    MX_HOST: MX,
    DNS_SERVERS: dns.address,
    ADMIN_TOKEN: ADMIN,
    SECRETS_KEY: Buffer.alloc(32, 7).toString("base64"),
    IMAP_POLL_INTERVAL_MS: "60000",
    RESERVED_LOCAL_PARTS: "hr,Legal",
  },
});
const admin = { key: ADMIN };

interface DnsRecord {
  type: string;
  name: string;
  value: string;
}

async function agentOn(domain?: string): Promise<TestAgent & { email: string }> {
  const id = uniqueId();
  const reply = await api.post("/agents", { body: { id, name: `Agent ${id}`, ...(domain ? { domain } : {}) } });
  expect(reply.status).toBe(201);
  const agent = { id, apiKey: reply.body.apiKey, email: reply.body.agent.email };
  await verifyAgent(api, x, agent);
  return agent;
}

/** Publishes records as the admin API gave them. */
function publish(records: DnsRecord[]) {
  for (const record of records) {
    if (record.type === "MX") dns.mx(record.name, record.value.split(" ")[1] as string);
    else dns.txt(record.name, record.value);
  }
}

const resolver = new Resolver();
resolver.setServers([dns.address]);

/** What a receiver makes of the message's DKIM signature, with the published keys. */
async function dkimOf(raw: Buffer) {
  const result = await authenticate(raw, {
    resolver: (name: string, type: string) => resolver.resolve(name, type) as Promise<string[][]>,
    ip: "127.0.0.1",
    helo: "localhost",
    mta: "receiver.example",
    sender: "x@example.com",
  });
  const [signature] = result.dkim.results;
  return { result: signature?.status.result, selector: signature?.selector, domain: signature?.signingDomain };
}

const sentRaw = async (agent: TestAgent, subject: string) => {
  const reply = await api.post(`/agents/${agent.id}/send`, {
    key: agent.apiKey,
    body: { to: "pat@example.com", subject, text: "Signed, sealed, delivered." },
  });
  expect(reply.status).toBe(201);
  return (await waitFor(() => provider.deliveries.find((d) => d.parsed.subject === subject) ?? null)).raw;
};

describe("several domains", () => {
  test("agents register on any served domain; an unknown one is a 400; ids stay unique across domains", async () => {
    const served = await api.get("/domains");
    expect(served.body.domains.slice(0, 2)).toEqual(["a.example", "b.example"]);
    const onA = await agentOn();
    expect(onA.email).toBe(`${onA.id}@a.example`);
    const onB = await agentOn("B.example");
    expect(onB.email).toBe(`${onB.id}@b.example`);
    const unknown = await api.post("/agents", { body: { id: uniqueId(), name: "Nowhere", domain: "c.nowhere" } });
    expect([unknown.status, unknown.body.message]).toEqual([
      400,
      'domain: "c.nowhere" is not served here (GET /domains)',
    ]);
    const taken = await api.post("/agents", { body: { id: onA.id, name: "Twin", domain: "b.example" } });
    expect(taken.status).toBe(409);
    const graphql = await api.graphql(
      "mutation($input: CreateAgentInput!) { createAgent(input: $input) { agent { email } } }",
      { input: { id: uniqueId(), name: "Via GraphQL", domain: "b.example" } },
    );
    expect(graphql.body.data.createAgent.agent.email).toMatch(/@b\.example$/);
  });

  test("mail is filed by the whole address: scout@a.example is not scout@b.example's", async () => {
    const onB = await agentOn("b.example");
    const local = onB.id.toLowerCase();
    await dovecot.append(rawMessage({ to: `${local}@a.example`, subject: `Wrong domain ${onB.id}` }));
    await dovecot.append(rawMessage({ to: `${local}@b.example`, subject: `Right domain ${onB.id}` }));
    const inbox = await waitFor(async () => {
      const reply = await api.get(`/agents/${onB.id}/emails`, { key: onB.apiKey });
      // The page's rows and its total are two reads: a message filed between them is counted, not yet listed.
      return reply.body.data.length >= 1 ? reply.body : null;
    });
    await new Promise((resolve) => setTimeout(resolve, 500));
    const again = await api.get(`/agents/${onB.id}/emails`, { key: onB.apiKey });
    expect(again.body.data.map((e: { subject: string }) => e.subject)).toEqual([`Right domain ${onB.id}`]);
    expect(inbox.data[0].to).toBe(`${local}@b.example`);
    const dropped = svc.logs.filter((line) => line.event === "inbound_dropped").map((line) => line.fields);
    expect(dropped).toContainEqual(
      expect.objectContaining({ reason: "unknown_recipient", recipient: `${local}@a.example` }),
    );
  });
});

describe("registration", () => {
  test("an operator's domain is closed to it until opened (REST, GraphQL); agents already there stay when it closes", async () => {
    const name = `${uniqueId()}.example`;
    expect((await api.post("/admin/domains", { ...admin, body: { name } })).body.open).toBe(false);
    const register = () => api.post("/agents", { body: { id: uniqueId(), name: "Self", domain: name } });
    const closed = await register();
    expect([closed.status, closed.body.message]).toEqual([
      400,
      `domain: "${name}" is closed to registration: only the operator creates agents there (GET /domains lists the open ones)`,
    ]);
    expect((await api.get("/domains")).body.domains).not.toContain(name);
    const listed = await api.graphql("{ domains }");
    expect(listed.body.data.domains).not.toContain(name);
    // The operator creates agents there all the same.
    const made = await api.post("/admin/agents", {
      ...admin,
      body: { id: uniqueId("made"), name: "Made", domain: name },
    });
    expect([made.status, made.body.agent.email]).toEqual([201, `${made.body.agent.id}@${name}`]);

    const opened = await api.call("PATCH", `/admin/domains/${name}`, { ...admin, body: { open: true } });
    expect([opened.status, opened.body.open]).toEqual([200, true]);
    expect((await api.get("/domains")).body.domains).toContain(name);
    const joined = await register();
    expect(joined.status).toBe(201);
    const shut = await api.graphql(
      "mutation($name: String!) { admin { updateDomain(name: $name, open: false) { name open } } }",
      { name },
      ADMIN,
    );
    expect(shut.body.data.admin.updateDomain).toEqual({ name, open: false });
    expect((await register()).status).toBe(400);
    expect((await api.get(`/admin/agents/${joined.body.agent.id}`, admin)).body.email).toBe(joined.body.agent.email);
    // Opened as it is added.
    const other = `${uniqueId()}.example`;
    const added = await api.graphql(
      "mutation($name: String!) { admin { addDomain(name: $name, open: true) { open } } }",
      { name: other },
      ADMIN,
    );
    expect(added.body.data.admin.addDomain.open).toBe(true);
    expect((await api.get("/domains")).body.domains).toContain(other);
  });

  test("MAIL_DOMAINS' domains are open, and not the API's to close", async () => {
    const listed = (await api.get("/admin/domains", admin)).body.data as { name: string; open: boolean }[];
    expect(listed.filter((d) => ["a.example", "b.example"].includes(d.name)).map((d) => d.open)).toEqual([true, true]);
    const refused = await api.call("PATCH", "/admin/domains/b.example", { ...admin, body: { open: false } });
    expect([refused.status, refused.body.message]).toEqual([
      400,
      "b.example is served by MAIL_DOMAINS, which are always open to registration: remove it there to close it",
    ]);
    expect((await api.call("PATCH", "/admin/domains/b.example", { ...admin, body: {} })).status).toBe(400);
  });
});

describe("reserved names", () => {
  const RESERVED = [
    [
      "admin",
      "certificate authorities mail it to prove control of a domain (CA/Browser Forum Baseline Requirements 3.2.2.4.4)",
    ],
    ["Administrator", "CA/Browser Forum"],
    ["WEBMASTER", "CA/Browser Forum"],
    ["hostmaster", "CA/Browser Forum"],
    ["postmaster", "CA/Browser Forum"],
    ...[
      "info",
      "marketing",
      "sales",
      "support",
      "abuse",
      "noc",
      "security",
      "usenet",
      "news",
      "www",
      "uucp",
      "ftp",
    ].map((id) => [id, "RFC 2142 gives it to the domain's operator"]),
    ["ssl-admin", "certificate authorities have mailed it"],
    ...["root", "Mailer-Daemon", "noreply", "no-reply"].map((id) => [id, "mail systems"]),
    ["billing", "invoices"],
    ["bounces", "bounces+<token>@<domain>"],
    ["dmarc-reports", "DMARC reports"],
    ["HR", "the operator reserved it (RESERVED_LOCAL_PARTS)"],
    ["legal", "the operator reserved it (RESERVED_LOCAL_PARTS)"],
  ] as const;

  test("refused at registration on every domain, over REST and GraphQL, with the rule named", async () => {
    const open = `${uniqueId()}.example`;
    await api.post("/admin/domains", { ...admin, body: { name: open, open: true } });
    for (const domain of [undefined, "b.example", open]) {
      for (const [id, rule] of RESERVED) {
        const reply = await api.post("/agents", { body: { id, name: "Squatter", ...(domain ? { domain } : {}) } });
        expect([reply.status, reply.body.error], `${id} on ${domain}`).toEqual([400, "Bad Request"]);
        expect(reply.body.message).toMatch(new RegExp(`^id ${id} is reserved on every domain: `));
        expect(reply.body.message).toContain(rule);
        expect(reply.body.message).toMatch(/\. Only the operator creates an agent with it$/);
      }
    }
    const viaGraphql = await api.graphql(
      "mutation($input: CreateAgentInput!) { createAgent(input: $input) { apiKey } }",
      {
        input: { id: "Admin", name: "Squatter", domain: open },
      },
    );
    expect(viaGraphql.body.errors[0]).toMatchObject({
      message: expect.stringMatching(/^id Admin is reserved on every domain: certificate authorities/),
      extensions: { code: "BAD_REQUEST", status: 400 },
    });
    expect((await api.get("/admin/agents?prefix=admin", admin)).body.total).toBe(0);
  });

  test("the operator creates one (REST, GraphQL): verified, its key shown once, and it gets the domain's mail", async () => {
    const made = await api.post("/admin/agents", {
      ...admin,
      body: { id: "postmaster", name: "Postmaster", domain: "b.example" },
    });
    expect(made.status).toBe(201);
    expect(Object.keys(made.body)).toEqual(["agent", "apiKey", "verifyUrl", "instruction"]);
    expect(made.body.agent).toMatchObject({ id: "postmaster", email: "postmaster@b.example", verified: true });
    expect(made.body.instruction).toContain("The operator of this instance created it, verified");
    const key = made.body.apiKey as string;
    expect((await api.get("/agents/postmaster", { key })).body.email).toBe("postmaster@b.example");
    expect((await api.get("/admin/agents/postmaster", admin)).body).toMatchObject({
      createdBy: "operator",
      verifiedBy: "admin",
    });
    // Ids compare without case: the operator's POSTMASTER is the same, taken.
    const again = await api.post("/admin/agents", { ...admin, body: { id: "POSTMASTER", name: "Twin" } });
    expect(again.status).toBe(409);
    await dovecot.append(rawMessage({ to: "postmaster@b.example", subject: "Certificate for b.example" }));
    await waitFor(async () => (await api.get("/agents/postmaster/emails", { key })).body.total === 1);

    const viaGraphql = await api.graphql(
      "mutation($input: CreateAgentInput!) { admin { createAgent(input: $input) { agent { email verified } apiKey } } }",
      { input: { id: "ssl-admin", name: "Certificates" } },
      ADMIN,
    );
    expect(viaGraphql.body.data.admin.createAgent.agent).toEqual({ email: "ssl-admin@a.example", verified: true });
    // Not without the operator's token.
    const stranger = await api.post("/admin/agents", { body: { id: "abuse", name: "Squatter" } });
    expect(stranger.status).toBe(401);
  });
});

describe("agents made before domains", () => {
  test("keep their address at the default domain, written down at the next start", async () => {
    const agent = await agentOn();
    const { prisma } = svc.service.services;
    await prisma.agent.update({ where: { id: agent.id }, data: { domain: null } });
    expect((await api.get(`/agents/${agent.id}`, { key: agent.apiKey })).body.email).toBe(`${agent.id}@a.example`);
    await svc.startAnother();
    expect((await prisma.agent.findUnique({ where: { id: agent.id } }))?.domain).toBe("a.example");
  });
});

describe("operator domains and their records", () => {
  test("added with records to publish (never the private key); verified ok, missing and wrong against DNS", async () => {
    const name = `${uniqueId()}.example`;
    const added = await api.post("/admin/domains", { ...admin, body: { name } });
    expect(added.status).toBe(201);
    expect(added.text).not.toMatch(/PRIVATE KEY|sealed:/);
    const selector = added.body.selector as string;
    expect(added.body.records.map((r: DnsRecord) => [r.type, r.name])).toEqual([
      ["MX", name],
      ["TXT", name],
      ["TXT", `${selector}._domainkey.${name}`],
      ["TXT", `_dmarc.${name}`],
    ]);
    expect(added.body.records[0].value).toBe(`10 ${MX}`);
    expect(added.body.records[1].value).toBe(`v=spf1 a:${MX} ~all`);
    expect(added.body.records[2].value).toMatch(/^v=DKIM1; k=rsa; p=[A-Za-z0-9+/=]{300,}$/);
    expect(added.body.records[3].value).toMatch(/^v=DMARC1; p=none; rua=mailto:/);
    expect(added.body).toMatchObject({ source: "operator", open: false });
    expect((await api.post("/admin/domains", { ...admin, body: { name } })).status).toBe(409);

    const before = await api.post(`/admin/domains/${name}/verify`, admin);
    expect(before.body.lastCheck.records.map((r: { status: string }) => r.status)).toEqual([
      "missing",
      "missing",
      "missing",
      "missing",
    ]);
    publish(added.body.records);
    dns.clear(name);
    dns.mx(name, MX);
    dns.txt(name, "v=spf1 include:other.example -all");
    const checked = await api.post(`/admin/domains/${name}/verify`, admin);
    const statuses = checked.body.lastCheck.records.map((r: { status: string; found: string[] }) => [
      r.status,
      r.found,
    ]);
    expect(statuses).toEqual([
      ["ok", [`10 ${MX}`]],
      ["wrong", ["v=spf1 include:other.example -all"]],
      ["ok", [added.body.records[2].value]],
      ["ok", [added.body.records[3].value]],
    ]);
    const shown = await api.get(`/admin/domains/${name}`, admin);
    expect(shown.body.lastCheck.records[1].status).toBe("wrong");
    // Another MX host, another key under the selector, two SPF records: each wrong.
    const dkimName = `${selector}._domainkey.${name}`;
    for (const record of [name, dkimName]) dns.clear(record);
    dns.mx(name, "mx.elsewhere.example");
    dns.txt(name, `v=spf1 a:${MX} ~all`);
    dns.txt(name, "v=spf1 -all");
    dns.txt(dkimName, "v=DKIM1; k=rsa; p=MIIBIjANBgkqhkiG9w0BAQEFAAOCAQ8AMIIBCgKCAQEAnotthekey");
    const wrong = await api.post(`/admin/domains/${name}/verify`, admin);
    expect(wrong.body.lastCheck.records.map((r: { status: string }) => r.status)).toEqual([
      "wrong",
      "wrong",
      "wrong",
      "ok",
    ]);
    const zone = await api.get(`/admin/domains/${name}/zone`, admin);
    expect(zone.headers.get("content-type")).toMatch(/^text\/plain/);
    expect(zone.text).toContain(`${name}. 3600 IN MX 10 ${MX}.`);
    expect(zone.text).toContain(`${selector}._domainkey.${name}. 3600 IN TXT "v=DKIM1; k=rsa; p=`);
    expect((await api.get("/admin/domains", { key: "an-agent-key" })).status).toBe(401);
  });

  test("SPF_INCLUDE may name an underscored domain, as providers' includes are: it starts, and verify finds it", async () => {
    await withService(
      {
        MAIL_DOMAINS: "spf.example",
        MX_HOST: MX,
        DNS_SERVERS: dns.address,
        ADMIN_TOKEN: ADMIN,
        SPF_INCLUDE: "_spf.relay.example",
      },
      async (own) => {
        const on = new Api(own.url);
        const spf = (await on.get("/admin/domains/spf.example", admin)).body.records[1];
        expect(spf).toMatchObject({
          type: "TXT",
          name: "spf.example",
          value: "v=spf1 include:_spf.relay.example ~all",
        });
        dns.txt("spf.example", spf.value);
        const checked = await on.post("/admin/domains/spf.example/verify", admin);
        expect(checked.body.lastCheck.records[1].status).toBe("ok");
      },
    );
  });

  test("deleted only when no agent uses it; a MAIL_DOMAINS domain is not the API's to delete", async () => {
    const name = `${uniqueId()}.example`;
    await api.post("/admin/domains", { ...admin, body: { name, open: true } });
    const agent = await agentOn(name);
    const busy = await api.delete(`/admin/domains/${name}`, admin);
    expect([busy.status, busy.body.message]).toEqual([400, `1 agents have their address at ${name}`]);
    await api.delete(`/agents/${agent.id}`, { key: agent.apiKey });
    expect((await api.delete(`/admin/domains/${name}`, admin)).status).toBe(200);
    expect((await api.get("/domains")).body.domains).not.toContain(name);
    expect((await api.delete("/admin/domains/a.example", admin)).status).toBe(400);
    const listed = await api.get("/admin/domains", admin);
    expect(
      listed.body.data.filter((d: { source: string }) => d.source === "config").map((d: { name: string }) => d.name),
    ).toEqual(["a.example", "b.example"]);
  });

  test("an agent registering there as it is deleted: one of the two is refused, never both done", async () => {
    const rounds = await Promise.all(
      Array.from({ length: 12 }, async () => {
        const name = `${uniqueId()}.example`;
        await api.post("/admin/domains", { ...admin, body: { name, open: true } });
        const id = uniqueId();
        const [joined, deleted] = await Promise.all([
          api.post("/agents", { body: { id, name: `Agent ${id}`, domain: name } }),
          api.delete(`/admin/domains/${name}`, admin),
        ]);
        const served = (await api.get("/domains")).body.domains.includes(name);
        return { joined: joined.status, deleted: deleted.status, served };
      }),
    );
    for (const round of rounds) {
      expect([
        { joined: 201, deleted: 400, served: true },
        { joined: 400, deleted: 200, served: false },
      ]).toContainEqual(round);
    }
  });

  test("private keys are sealed with SECRETS_KEY in the database", async () => {
    const keys = await svc.service.services.prisma.dkimKey.findMany();
    expect(keys.length).toBeGreaterThanOrEqual(2);
    for (const key of keys) expect(key.privateKey).toMatch(/^sealed:/);
  });
});

describe("DKIM", () => {
  test("mail from each domain passes with the published key, and fails once tampered with", async () => {
    const domains = (await api.get("/admin/domains", admin)).body.data as { name: string; records: DnsRecord[] }[];
    for (const domain of domains.filter((d) => d.name === "a.example" || d.name === "b.example")) {
      publish(domain.records.filter((r) => r.name.includes("._domainkey.")));
      const agent = await agentOn(domain.name);
      const raw = await sentRaw(agent, `Signed ${agent.id}`);
      expect(raw.toString()).toMatch(/^DKIM-Signature: v=1; a=rsa-sha256; c=relaxed\/relaxed; .*d=/m);
      expect(await dkimOf(raw)).toMatchObject({ result: "pass", domain: domain.name });
      const forgedHeader = Buffer.from(
        raw.toString().replace(`Subject: Signed ${agent.id}`, `Subject: Pay ${agent.id}`),
      );
      expect((await dkimOf(forgedHeader)).result).toBe("fail");
      // A changed body: mailauth says neutral ("body hash did not verify"); it is no pass either way.
      const forgedBody = Buffer.from(raw.toString().replace("Signed, sealed", "Signed, forged"));
      expect((await dkimOf(forgedBody)).result).not.toBe("pass");
    }
  });

  test("every instance signs with the one key the first made for a MAIL_DOMAINS domain", async () => {
    const other = new Api((await svc.startAnother()).url);
    const agent = await agentOn("a.example");
    const viaFirst = await dkimOf(await sentRaw(agent, `First ${agent.id}`));
    const subject = `Second ${agent.id}`;
    const reply = await other.post(`/agents/${agent.id}/send`, {
      key: agent.apiKey,
      body: { to: "pat@example.com", subject, text: "From the other instance." },
    });
    expect(reply.status).toBe(201);
    const raw = (await waitFor(() => provider.deliveries.find((d) => d.parsed.subject === subject) ?? null)).raw;
    expect(await dkimOf(raw)).toEqual({ ...viaFirst, result: "pass" });
    const keys = await svc.service.services.prisma.dkimKey.findMany({ where: { domainName: "a.example" } });
    expect(keys).toHaveLength(1);
  });

  test("rotation: the new key signs only once published and verified (or now), and mail passes throughout", async () => {
    const name = `${uniqueId()}.example`;
    const added = (await api.post("/admin/domains", { ...admin, body: { name, open: true } })).body;
    publish(added.records);
    const agent = await agentOn(name);
    const rotated = (await api.post(`/admin/domains/${name}/rotate-dkim`, admin)).body;
    expect(rotated.selector).toBe(added.selector);
    const next = rotated.records.find((r: DnsRecord & { purpose: string }) =>
      r.purpose.startsWith("DKIM: the next key"),
    );
    expect(next.name).not.toContain(added.selector);
    expect(await dkimOf(await sentRaw(agent, `Before ${agent.id}`))).toMatchObject({
      result: "pass",
      selector: added.selector,
    });
    // Not published yet: verify finds it missing, and signing stays.
    await api.post(`/admin/domains/${name}/verify`, admin);
    expect((await api.get(`/admin/domains/${name}`, admin)).body.selector).toBe(added.selector);
    publish([next]);
    const verified = (await api.post(`/admin/domains/${name}/verify`, admin)).body;
    const newSelector = next.name.split(".")[0];
    expect(verified.selector).toBe(newSelector);
    expect(verified.removable.map((r: DnsRecord) => r.name)).toEqual([`${added.selector}._domainkey.${name}`]);
    expect(await dkimOf(await sentRaw(agent, `After ${agent.id}`))).toMatchObject({
      result: "pass",
      selector: newSelector,
    });
    // ?now=true: signing moves at once (its record is the operator's to publish).
    const now = (await api.post(`/admin/domains/${name}/rotate-dkim?now=true`, admin)).body;
    expect(now.selector).not.toBe(newSelector);
  });
});

describe("SECRETS_KEY set on a database that holds keys in the clear", () => {
  /** The base64 lines of a PEM's body: any one found in a file is a readable copy of the key. */
  const pemLines = (pem: string) => pem.split("\n").filter((line) => /^[A-Za-z0-9+/=]{40,}$/.test(line));

  test("sealed, a new key per domain waits to be published, none readable in the database's files", async () => {
    const database = freshDatabase();
    const env = {
      MAIL_DOMAINS: "c.example",
      MX_HOST: MX,
      DNS_SERVERS: dns.address,
      ADMIN_TOKEN: ADMIN,
      SMTP_URL: provider.url,
      VERIFICATION_MODE: "none",
      DATABASE_URL: database.url,
    };
    const name = `${uniqueId()}.example`;
    const pems: string[] = [];
    let signing: Record<string, string> = {};
    const before = await startTestService(env, database);
    const keysOf = (svc: TestService) =>
      svc.service.services.prisma.dkimKey.findMany({ orderBy: [{ createdAt: "asc" }, { id: "asc" }] });
    try {
      const on = new Api(before.url);
      await on.post("/admin/domains", { ...admin, body: { name, open: true } });
      // Each key as it is made: the first retired by a rotation, the next signing, a third pending.
      const remember = async () => {
        for (const key of await keysOf(before))
          if (key.privateKey && !pems.includes(key.privateKey)) pems.push(key.privateKey);
      };
      await remember();
      await on.post(`/admin/domains/${name}/rotate-dkim?now=true`, admin);
      await remember();
      await on.post(`/admin/domains/${name}/rotate-dkim`, admin);
      await remember();
      expect(pems).toHaveLength(4);
      for (const pem of pems) expect(pem).toMatch(/^-----BEGIN PRIVATE KEY-----/);
      signing = Object.fromEntries(
        (await keysOf(before)).filter((key) => key.state === "active").map((key) => [key.domainName, key.selector]),
      );
    } finally {
      await before.stopInstance(0);
    }

    const secretsKey = Buffer.alloc(32, 9).toString("base64");
    const after = await startTestService({ ...env, SECRETS_KEY: secretsKey }, database);
    try {
      const keys = await keysOf(after);
      for (const domain of ["c.example", name]) {
        const own = keys.filter((key) => key.domainName === domain);
        // The key that signed goes on signing, sealed, until its successor is published.
        expect(own.find((key) => key.state === "active")).toMatchObject({
          selector: signing[domain],
          privateKey: expect.stringMatching(/^sealed:/),
        });
        const pending = own.filter((key) => key.state === "pending");
        expect(pending).toHaveLength(1);
        expect(pending[0]?.privateKey).toMatch(/^sealed:/);
        expect(pems).not.toContain(pending[0]?.privateKey);
        // The pending key of before, and the retired one, are retired with nothing to read.
        for (const key of own.filter((key) => key.state === "retired")) expect(key.privateKey).toBeNull();
        expect(
          after.logs.find(
            (line) => line.event === "dkim_key_exposed" && line.fields.domain === domain && line.fields.next,
          ),
        ).toMatchObject({
          fields: { selector: signing[domain], next: `${pending[0]?.selector}._domainkey.${domain}` },
        });
      }
      expect(keys.filter((key) => key.domainName === name && key.state === "retired")).toHaveLength(2);

      expect(after.logs.filter((line) => line.event === "database_log_not_emptied")).toEqual([]);
      const bytes = await databaseBytes(database.url, after.service.services.prisma, "DkimKey");
      expect(bytes.length).toBeGreaterThan(0);
      for (const pem of pems) {
        for (const line of pemLines(pem))
          expect(bytes.includes(line), "a line of a key that was in the clear").toBe(false);
      }

      // Doctor says what to publish; once published and verified, the new key signs and mail passes.
      const findings = await doctor(loadConfig(env));
      expect(findings.find((finding) => finding.check === "dkim")).toMatchObject({
        status: "warn",
        detail: expect.stringContaining(`._domainkey.${name}`),
      });
      const on = new Api(after.url);
      const view = (await on.get(`/admin/domains/${name}`, admin)).body;
      publish(view.records);
      const verified = (await on.post(`/admin/domains/${name}/verify`, admin)).body;
      expect(verified.selector).not.toBe(signing[name]);
      expect((await keysOf(after)).find((key) => key.selector === signing[name])).toMatchObject({
        state: "retired",
        privateKey: null,
      });
      const agent = (await on.post("/agents", { body: { id: uniqueId(), name: "Sealed", domain: name } })).body;
      const subject = `Sealed ${agent.agent.id}`;
      const sent = await on.post(`/agents/${agent.agent.id}/send`, {
        key: agent.apiKey,
        body: { to: "pat@example.com", subject, text: "Signed with a key never in the clear." },
      });
      expect(sent.status).toBe(201);
      const raw = (await waitFor(() => provider.deliveries.find((d) => d.parsed.subject === subject) ?? null)).raw;
      expect(await dkimOf(raw)).toMatchObject({ result: "pass", selector: verified.selector, domain: name });
    } finally {
      await after.stop();
    }
  });
});
