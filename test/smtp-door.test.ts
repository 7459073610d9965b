import { execFileSync } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { connect, createServer, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import nodemailer from "nodemailer";
import { describe, expect, test } from "vitest";
import { Api, createAgent, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { served } from "./support/served.ts";
import { withService } from "./support/service.ts";
import { waitFor } from "./support/wait.ts";

// The SMTP door: mail sent straight to an instance, by nodemailer and by a
// raw socket for the protocol's edges. Each RCPT TO answered by the filing
// rules, the message filed before the 250, a retry not filed twice.

async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as { port: number };
  await new Promise((resolve) => server.close(resolve));
  return port;
}

const PORT = await freePort();
const ADMIN = "admin-token-smtp-door-0123456789";
const INBOUND = "inbound-token-smtp-door-0123456789";
const MAX_BYTES = 100_000;
const { api, x } = served({
  env: {
    SMTP_INGRESS_PORT: String(PORT),
    SMTP_INGRESS_HOST: "127.0.0.1",
    INBOUND_MAX_BYTES: String(MAX_BYTES),
    ADMIN_TOKEN: ADMIN,
    INBOUND_TOKEN: INBOUND,
  },
});

const client = nodemailer.createTransport({ host: "127.0.0.1", port: PORT, secure: false, ignoreTLS: true });

/** A plain SMTP dialogue: each command's reply, as the server wrote it. */
async function dialogue(commands: string[]): Promise<string[]> {
  const socket: Socket = connect(PORT, "127.0.0.1");
  let buffered = "";
  const waiting: ((line: string) => void)[] = [];
  socket.on("data", (chunk) => {
    buffered += chunk.toString();
    // A reply ends with a line whose code is followed by a space.
    for (let match = /^(\d{3}) .*\r\n/m.exec(buffered); match; match = /^(\d{3}) .*\r\n/m.exec(buffered)) {
      const end = match.index + match[0].length;
      waiting.shift()?.(buffered.slice(0, end));
      buffered = buffered.slice(end);
    }
  });
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  const replies = [await next()];
  for (const command of commands) {
    const answer = next();
    socket.write(`${command}\r\n`);
    replies.push(await answer);
  }
  socket.end();
  return replies;
}

const inboxOf = async (agent: TestAgent) =>
  (await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body as {
    total: number;
    data: { subject: string }[];
  };

describe("the SMTP door", () => {
  test("mail sent by nodemailer is filed and answered 250 with a queue id", async () => {
    const agent = await createVerifiedAgent(api, x);
    const sent = await client.sendMail({
      from: "pat@sender.example",
      to: `${agent.id}@mail.example`,
      subject: "Straight in",
      text: "No catch-all needed.",
    });
    expect(sent.response).toMatch(/^250 2\.0\.0 Ok: queued as \S+/);
    // Filed before the 250: no waiting.
    const inbox = await inboxOf(agent);
    expect(inbox.data.map((email) => email.subject)).toEqual(["Straight in"]);
    const read = await api.get(`/agents/${agent.id}/emails`, { key: agent.apiKey });
    expect(read.body.data[0].from.address).toBe("pat@sender.example");
  });

  test("every RCPT TO answered by the rules: unknown, unverified, another domain, a blocked sender, more than 50", async () => {
    const agent = await createVerifiedAgent(api, x);
    const unverified = await createAgent(api);
    await api.call("PUT", `/agents/${agent.id}/senders`, { key: agent.apiKey, body: { block: ["@spam.example"] } });
    const [banner, ehlo, , ...rcpts] = await dialogue([
      "EHLO client.example",
      "MAIL FROM:<someone@spam.example>",
      `RCPT TO:<${agent.id}@mail.example>`,
      "RCPT TO:<nobody-here@mail.example>",
      `RCPT TO:<${unverified.id}@mail.example>`,
      `RCPT TO:<${agent.id}@elsewhere.example>`,
      "QUIT",
    ]);
    expect(banner).toMatch(/^220 /);
    expect(ehlo).toMatch(new RegExp(`^250[- ]SIZE ${MAX_BYTES}\r$`, "m"));
    expect(ehlo).not.toMatch(/AUTH|STARTTLS/);
    expect(rcpts.slice(0, 4).map((reply) => reply.slice(0, 9))).toEqual([
      "550 5.7.1",
      "550 5.1.1",
      "550 5.1.1",
      "550 5.7.1",
    ]);
    const many = await dialogue([
      "EHLO client.example",
      "MAIL FROM:<pat@sender.example>",
      ...Array.from({ length: 51 }, () => `RCPT TO:<${agent.id}@mail.example>`),
      "QUIT",
    ]);
    expect(many.at(-3)?.slice(0, 3)).toBe("250");
    expect(many.at(-2)?.slice(0, 9)).toBe("452 4.5.3");
  });

  test("a full mailbox is 452 4.2.2 at RCPT TO, one the message does not fit 552 5.2.2; past the size limit 552 5.3.4, nothing kept", async () => {
    const agent = await createVerifiedAgent(api, x);
    const to = `${agent.id}@mail.example`;
    await client.sendMail({ from: "pat@sender.example", to, subject: "Fills it", text: "Hello." });
    await api.call("PUT", `/admin/agents/${agent.id}/limits`, { key: ADMIN, body: { storageLimit: 10 } });
    const full = await dialogue(["EHLO client.example", "MAIL FROM:<pat@sender.example>", `RCPT TO:<${to}>`, "QUIT"]);
    expect(full.at(-2)?.slice(0, 9)).toBe("452 4.2.2");
    await api.call("PUT", `/admin/agents/${agent.id}/limits`, { key: ADMIN, body: { storageLimit: null } });
    const small = await createVerifiedAgent(api, x);
    await api.call("PUT", `/admin/agents/${small.id}/limits`, { key: ADMIN, body: { storageLimit: 10 } });
    await expect(
      client.sendMail({ from: "pat@sender.example", to: `${small.id}@mail.example`, subject: "No room", text: "Hi." }),
    ).rejects.toMatchObject({ responseCode: 552, response: expect.stringContaining("5.2.2") });
    const big = "x".repeat(MAX_BYTES + 10);
    await expect(
      client.sendMail({ from: "pat@sender.example", to: `${agent.id}@mail.example`, subject: "Big", text: big }),
    ).rejects.toMatchObject({ responseCode: 552 });
    expect((await inboxOf(agent)).total).toBe(1);
  });

  test("a retry of a message filed (its 250 lost) is not filed twice", async () => {
    const agent = await createVerifiedAgent(api, x);
    const message = {
      from: "pat@sender.example",
      to: `${agent.id}@mail.example`,
      subject: "Once only",
      text: "Hello.",
      messageId: `<retry-${agent.id}@sender.example>`,
    };
    await client.sendMail(message);
    const again = await client.sendMail(message);
    expect(again.response).toMatch(/^250 /);
    await waitFor(async () => ((await inboxOf(agent)).total === 1 ? true : null));
    expect((await inboxOf(agent)).total).toBe(1);
  });
});

describe("raw messages from providers: POST /inbound/raw", () => {
  const raw = (to: string, id: string) =>
    `From: Pat <pat@sender.example>\r\nTo: ${to}\r\nSubject: Via a provider\r\nMessage-ID: <${id}@sender.example>\r\n\r\nHello.\r\n`;
  const post = (body: string, headers: Record<string, string>, query = "") =>
    fetch(`${api.url}/inbound/raw${query}`, { method: "POST", body, headers });

  test("filed as the SMTP door files, each recipient answered; a retry is not filed twice", async () => {
    const agent = await createVerifiedAgent(api, x);
    const to = `${agent.id}@mail.example`;
    const headers = {
      Authorization: `Bearer ${INBOUND}`,
      "Content-Type": "message/rfc822",
      "X-Envelope-To": `${to}, nobody-here@mail.example`,
      "X-Envelope-From": "pat@sender.example",
    };
    const first = await post(raw(to, `raw-${agent.id}`), headers);
    expect(first.status).toBe(200);
    expect(await first.json()).toEqual({
      recipients: [
        { address: "nobody-here@mail.example", outcome: "refused", code: 550, message: "5.1.1 No such mailbox here" },
        { address: to.toLowerCase(), outcome: "filed", code: 250, message: "Filed" },
      ],
    });
    const again = await post(raw(to, `raw-${agent.id}`), { ...headers, "X-Envelope-To": "" }, `?to=${to}`);
    expect((await again.json()).recipients).toEqual([expect.objectContaining({ outcome: "filed" })]);
    expect((await inboxOf(agent)).data.map((email) => email.subject)).toEqual(["Via a provider"]);
  });

  test("only with INBOUND_TOKEN, as message/rfc822, naming its recipients", async () => {
    const body = raw("someone@mail.example", "refused");
    expect((await post(body, { "Content-Type": "message/rfc822", "X-Envelope-To": "a@mail.example" })).status).toBe(
      401,
    );
    const auth = { Authorization: `Bearer ${INBOUND}` };
    const json = await post(body, { ...auth, "Content-Type": "application/json", "X-Envelope-To": "a@mail.example" });
    expect(json.status).toBe(415);
    const nobody = await post(body, { ...auth, "Content-Type": "message/rfc822" });
    expect([nobody.status, (await nobody.json()).message]).toEqual([
      400,
      "Name the recipients: X-Envelope-To headers or ?to=",
    ]);
  });
});

describe("two instances on one database", () => {
  test("both take mail for the same agent at once; its storage holds exactly what was filed, never past its limit", async () => {
    const env = { SOCIAL_OEMBED_URL: x.url, MAIL_DOMAIN: "mail.example", SMTP_INGRESS_PORT: "0", ADMIN_TOKEN: ADMIN };
    await withService(env, async (own) => {
      await own.startAnother();
      const ports = own.logs.filter((line) => line.event === "smtp_ingress_listening").map((line) => line.fields.port);
      expect(ports).toHaveLength(2);
      const ownApi = new Api(own.url);
      const agent = await createVerifiedAgent(ownApi, x);
      const limit = 6_000;
      await ownApi.call("PUT", `/admin/agents/${agent.id}/limits`, { key: ADMIN, body: { storageLimit: limit } });
      const sends = Array.from({ length: 20 }, (_, n) => {
        const door = nodemailer.createTransport({ host: "127.0.0.1", port: ports[n % 2] as number, ignoreTLS: true });
        const mail = { from: "pat@sender.example", to: `${agent.id}@mail.example`, subject: `Racing ${n}` };
        return door.sendMail({ ...mail, text: "y".repeat(500) }).then(
          () => "filed",
          (error: { responseCode?: number }) => String(error.responseCode),
        );
      });
      const outcomes = await Promise.all(sends);
      const filed = outcomes.filter((outcome) => outcome === "filed").length;
      expect(filed).toBeGreaterThan(0);
      expect(outcomes.every((outcome) => ["filed", "452", "552"].includes(outcome))).toBe(true);
      const listed = await ownApi.get(`/agents/${agent.id}/emails?limit=50`, { key: agent.apiKey });
      expect(listed.body.total).toBe(filed);
      const { prisma } = own.service.services;
      const stored = await prisma.email.aggregate({ where: { agentId: agent.id }, _sum: { size: true } });
      const used = (await ownApi.get(`/agents/${agent.id}`, { key: agent.apiKey })).body.storageUsed;
      expect(used).toBeLessThanOrEqual(limit);
      expect(used).toBe(stored._sum.size);
    });
  });
});

describe("STARTTLS", () => {
  /** A self-signed certificate for the name, written where the service reads it. */
  function certificate(dir: string, name: string) {
    execFileSync(
      "openssl",
      [
        ...["req", "-x509", "-newkey", "rsa:2048", "-nodes", "-days", "1", "-subj", `/CN=${name}`],
        ...["-keyout", join(dir, "key.pem"), "-out", join(dir, "cert.pem")],
      ],
      { stdio: "ignore" },
    );
  }

  /** The name on the certificate the door shows after STARTTLS. */
  async function certificateName(port: number): Promise<string> {
    const plain = connect(port, "127.0.0.1");
    const said = (text: RegExp) =>
      new Promise<void>((resolve) => {
        let heard = "";
        const listen = (chunk: Buffer) => {
          heard += chunk.toString();
          if (text.test(heard)) {
            plain.off("data", listen);
            resolve();
          }
        };
        plain.on("data", listen);
      });
    await said(/^220 /m);
    plain.write("EHLO client.example\r\n");
    await said(/^250 /m);
    plain.write("STARTTLS\r\n");
    await said(/^220 /m);
    const secure = tlsConnect({ socket: plain, rejectUnauthorized: false });
    await new Promise((resolve) => secure.once("secureConnect", resolve));
    const name = String(secure.getPeerCertificate().subject.CN);
    secure.destroy();
    return name;
  }

  test("offered with a certificate; mail goes over it; a renewed certificate is taken without a restart", async () => {
    const dir = mkdtempSync(join(tmpdir(), "pigeonhole-tls-"));
    certificate(dir, "first.example");
    const env = {
      SOCIAL_OEMBED_URL: x.url,
      MAIL_DOMAIN: "mail.example",
      SMTP_INGRESS_PORT: "0",
      SMTP_INGRESS_TLS_CERT: join(dir, "cert.pem"),
      SMTP_INGRESS_TLS_KEY: join(dir, "key.pem"),
    };
    await withService(env, async (own) => {
      const port = own.logs.find((line) => line.event === "smtp_ingress_listening")?.fields.port as number;
      const agent = await createVerifiedAgent(new Api(own.url), x);
      const door = nodemailer.createTransport({
        host: "127.0.0.1",
        port,
        requireTLS: true,
        tls: { rejectUnauthorized: false },
      });
      await door.sendMail({
        from: "pat@sender.example",
        to: `${agent.id}@mail.example`,
        subject: "Secure",
        text: "Hi.",
      });
      const email = (await new Api(own.url).get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body.data[0];
      expect(email.subject).toBe("Secure");
      expect(await certificateName(port)).toBe("first.example");
      certificate(dir, "renewed.example");
      await waitFor(
        async () => ((await certificateName(port)) === "renewed.example" ? true : null),
        10_000,
        "the renewed certificate",
      );
    });
  });
});
