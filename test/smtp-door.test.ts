import { execFileSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { connect, type Socket } from "node:net";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { connect as tlsConnect } from "node:tls";
import nodemailer, { type SendMailOptions } from "nodemailer";
import MailComposer from "nodemailer/lib/mail-composer";
import { describe, expect, onTestFinished, test } from "vitest";
import { Api, createAgent, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { refuseSubject } from "./support/faults.ts";
import { served } from "./support/served.ts";
import { doorPort, withService } from "./support/service.ts";
import { sseSubscription } from "./support/streams.ts";
import { waitFor } from "./support/wait.ts";

// The SMTP door: mail sent straight to an instance, by nodemailer and by a
// raw socket for the protocol's edges. Each RCPT TO answered by the filing
// rules, the message filed before the 250, a retry not filed twice.

const ADMIN = "admin-token-smtp-door-0123456789";
const INBOUND = "inbound-token-smtp-door-0123456789";
const MAX_BYTES = 100_000;
const { api, svc, x } = served({
  env: {
    SMTP_INGRESS_PORT: "0",
    SMTP_INGRESS_HOST: "127.0.0.1",
    INBOUND_MAX_BYTES: String(MAX_BYTES),
    ADMIN_TOKEN: ADMIN,
    INBOUND_TOKEN: INBOUND,
    SMTP_INGRESS_MAX_MESSAGES_PER_CONNECTION: "3",
  },
});

/** nodemailer to the door, once it listens. */
const client = {
  sendMail: (message: SendMailOptions) =>
    nodemailer.createTransport({ host: "127.0.0.1", port: doorPort(svc), ignoreTLS: true }).sendMail(message),
};

/** A client on a raw socket: each reply as the server wrote it, and everything heard. */
async function talk(port = doorPort(svc)) {
  const socket: Socket = connect(port, "127.0.0.1");
  let buffered = "";
  let heard = "";
  const waiting: ((line: string) => void)[] = [];
  socket.on("error", () => {}); // a write racing the server's close; `closed` tells the test
  socket.on("data", (chunk) => {
    buffered += chunk.toString();
    heard += chunk.toString();
    // A reply ends with a line whose code is followed by a space.
    for (let match = /^(\d{3}) .*\r\n/m.exec(buffered); match; match = /^(\d{3}) .*\r\n/m.exec(buffered)) {
      const end = match.index + match[0].length;
      waiting.shift()?.(buffered.slice(0, end));
      buffered = buffered.slice(end);
    }
  });
  const closed = new Promise<void>((resolve) => socket.on("close", () => resolve()));
  const next = () => new Promise<string>((resolve) => waiting.push(resolve));
  const banner = await next();
  return {
    banner,
    closed,
    heard: () => heard,
    /** Sends a command and waits for its replies (LMTP answers DATA once per recipient). */
    async say(command: string, replies = 1): Promise<string[]> {
      const answers = Array.from({ length: replies }, next);
      socket.write(`${command}\r\n`);
      return Promise.all(answers);
    },
    write: (text: string) => socket.write(text),
    end: () => socket.end(),
    /** Drops the connection with a TCP RST, as a client that dies mid-transaction does. */
    reset: () => socket.resetAndDestroy(),
  };
}

/** A plain SMTP dialogue: the banner, then each command's reply. */
async function dialogue(commands: string[], port = doorPort(svc)): Promise<string[]> {
  const client = await talk(port);
  const replies = [client.banner];
  for (const command of commands) replies.push(...(await client.say(command)));
  client.end();
  return replies;
}

const inboxOf = async (agent: TestAgent, client: Api = api) =>
  (await client.get(`/agents/${agent.id}/emails`, { key: agent.apiKey })).body as {
    total: number;
    data: { subject: string }[];
  };

/** A message with a Message-ID of its own, as a sender sends it again when it heard no 250. */
const sentTwice = (agent: TestAgent, subject: string) => ({
  from: "pat@sender.example",
  to: `${agent.id}@mail.example`,
  subject,
  text: "Hello.",
  messageId: `<${subject.toLowerCase().replace(/\W+/g, "-")}-${agent.id}@sender.example>`,
});

/** An instance of its own with a door on a free port. */
const ownDoor = (env: Record<string, string>) => ({
  SOCIAL_OEMBED_URL: x.url,
  MAIL_DOMAIN: "mail.example",
  SMTP_INGRESS_PORT: "0",
  ADMIN_TOKEN: ADMIN,
  ...env,
});

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

  test("a connection gives at most SMTP_INGRESS_MAX_MESSAGES_PER_CONNECTION messages, then is told to reconnect", async () => {
    const client = await talk();
    await client.say("EHLO client.example");
    for (let n = 0; n < 3; n++) {
      expect(await client.say("MAIL FROM:<pat@sender.example>")).toEqual([expect.stringMatching(/^250 /)]);
      await client.say("RSET");
    }
    expect(await client.say("MAIL FROM:<pat@sender.example>")).toEqual([expect.stringMatching(/^421 4\.7\.0 /)]);
    await client.closed;
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

  test("a failure while filing is 451 4.3.0 with nothing kept; sent again once it is past, it is filed", async () => {
    const agent = await createVerifiedAgent(api, x);
    const message = sentTwice(agent, "Refused for now");
    const allow = await refuseSubject(svc, message.subject);
    try {
      await expect(client.sendMail(message)).rejects.toMatchObject({
        responseCode: 451,
        response: expect.stringContaining("4.3.0 Temporary failure"),
      });
    } finally {
      await allow();
    }
    expect((await inboxOf(agent)).total).toBe(0);
    const failed = svc.logs.filter((line) => line.event === "smtp_ingress_failed");
    expect(failed).toEqual([expect.objectContaining({ level: "error" })]);
    expect(JSON.stringify(failed)).not.toMatch(/INSERT|SELECT|refuse_poison|\/work\/|node_modules/);
    expect((await client.sendMail(message)).response).toMatch(/^250 /);
    expect((await inboxOf(agent)).data.map((email) => email.subject)).toEqual([message.subject]);
  });

  test("a message one recipient has no room for once its size is known: 452 for the whole message, and the retry, once there is room, files it once for each", async () => {
    const [roomy, small] = [await createVerifiedAgent(api, x), await createVerifiedAgent(api, x)];
    // Room left at RCPT TO (no SIZE given), none for the message once it arrives.
    await api.call("PUT", `/admin/agents/${small.id}/limits`, { key: ADMIN, body: { storageLimit: 10 } });
    const message = { ...sentTwice(roomy, "For both"), to: [`${roomy.id}@mail.example`, `${small.id}@mail.example`] };
    await expect(client.sendMail(message)).rejects.toMatchObject({
      responseCode: 452,
      response: expect.stringContaining("4.2.2"),
    });
    expect((await inboxOf(roomy)).total).toBe(1);
    expect((await inboxOf(small)).total).toBe(0);
    await api.call("PUT", `/admin/agents/${small.id}/limits`, { key: ADMIN, body: { storageLimit: null } });
    expect((await client.sendMail(message)).response).toMatch(/^250 /);
    expect((await inboxOf(roomy)).data.map((email) => email.subject)).toEqual(["For both"]);
    expect((await inboxOf(small)).data.map((email) => email.subject)).toEqual(["For both"]);
  });

  test("SIZE at MAIL FROM is weighed at RCPT TO: a mailbox without room for it is 452 4.2.2 there, the others take it", async () => {
    const [roomy, small] = [await createVerifiedAgent(api, x), await createVerifiedAgent(api, x)];
    await api.call("PUT", `/admin/agents/${small.id}/limits`, { key: ADMIN, body: { storageLimit: 1_000 } });
    const replies = await dialogue([
      "EHLO client.example",
      "MAIL FROM:<pat@sender.example> SIZE=5000",
      `RCPT TO:<${small.id}@mail.example>`,
      `RCPT TO:<${roomy.id}@mail.example>`,
      "QUIT",
    ]);
    expect(replies[3]).toMatch(/^452 4\.2\.2 /);
    expect(replies[4]).toMatch(/^250 /);
  });

  test("a client whose connection resets in the middle of a transaction leaves the door serving", async () => {
    const agent = await createVerifiedAgent(api, x);
    const dying = await talk();
    // Answered, so the door waits for the next command when the reset comes: smtp-server re-emits a
    // socket error inside a transaction on the server itself, which ends a process that does not listen.
    for (const command of [
      "EHLO client.example",
      "MAIL FROM:<pat@sender.example>",
      `RCPT TO:<${agent.id}@mail.example>`,
    ]) {
      await dying.say(command);
    }
    dying.reset();
    await dying.closed;
    const [, , , , , sent] = await dialogue([
      "EHLO client.example",
      "MAIL FROM:<pat@sender.example>",
      `RCPT TO:<${agent.id}@mail.example>`,
      "DATA",
      "Subject: Whole\r\n\r\nAll of it\r\n.",
    ]);
    expect(sent).toMatch(/^250 /);
    const inbox = await inboxOf(agent);
    expect(inbox.data.map((email) => email.subject)).toEqual(["Whole"]);
  });

  test("a message whose 250 the sender never heard, sent again (twice at once), is filed once", async () => {
    const agent = await createVerifiedAgent(api, x);
    const message = sentTwice(agent, "Once only");
    const raw = (await new MailComposer(message).compile().build()).toString().replace(/\r?\n/g, "\r\n");
    // The first try hangs up the moment its message is sent, as a sender whose connection broke.
    const first = await talk();
    for (const command of ["EHLO client.example", `MAIL FROM:<${message.from}>`, `RCPT TO:<${message.to}>`, "DATA"]) {
      await first.say(command);
    }
    first.write(`${raw}\r\n.\r\n`);
    first.end();
    await first.closed;
    const again = await Promise.all([client.sendMail(message), client.sendMail(message)]);
    expect(again.map((sent) => sent.response.slice(0, 3))).toEqual(["250", "250"]);
    await waitFor(async () => ((await inboxOf(agent)).total > 0 ? true : null));
    expect((await inboxOf(agent)).total).toBe(1);
  });

  test("a message without a Message-ID whose 250 the sender never heard, sent again, is filed once", async () => {
    const agent = await createVerifiedAgent(api, x);
    const to = `${agent.id}@mail.example`;
    const raw = `From: pat@sender.example\r\nTo: ${to}\r\nSubject: No id, once\r\n\r\nHello.\r\n`;
    const first = await talk();
    for (const command of ["EHLO client.example", "MAIL FROM:<pat@sender.example>", `RCPT TO:<${to}>`, "DATA"]) {
      await first.say(command);
    }
    first.write(`${raw}.\r\n`);
    first.end();
    await first.closed;
    await waitFor(async () => ((await inboxOf(agent)).total > 0 ? true : null));
    const again = await client.sendMail({ envelope: { from: "pat@sender.example", to: [to] }, raw });
    expect(again.response).toMatch(/^250 /);
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
        { address: to.toLowerCase(), outcome: "filed", code: 250, message: "2.0.0 Filed" },
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

describe("timeouts and LMTP", () => {
  test("an idle client is closed; a message still trickling in at the DATA timeout is cut off and nothing of it kept", async () => {
    const env = ownDoor({ SMTP_INGRESS_IDLE_TIMEOUT_SECONDS: "2", SMTP_INGRESS_DATA_TIMEOUT_SECONDS: "3" });
    await withService(env, async (own) => {
      const port = doorPort(own);
      const agent = await createVerifiedAgent(new Api(own.url), x);
      const idle = await talk(port);
      await idle.say("EHLO client.example");
      await idle.closed;
      expect(idle.heard()).toMatch(/^421 .*Timeout/m);
      const slow = await talk(port);
      for (const command of [
        "EHLO client.example",
        "MAIL FROM:<pat@sender.example>",
        `RCPT TO:<${agent.id}@mail.example>`,
      ]) {
        await slow.say(command);
      }
      expect(await slow.say("DATA")).toEqual([expect.stringMatching(/^354 /)]);
      slow.write("Subject: Slowly\r\n");
      // Each line in well within the idle timeout, the whole never ending.
      const trickle = setInterval(() => slow.write("X-Slowly: yes\r\n"), 250);
      await slow.closed;
      clearInterval(trickle);
      expect(slow.heard()).toMatch(/^421 4\.4\.2 /m);
      expect((await inboxOf(agent, new Api(own.url))).total).toBe(0);
      expect(own.logs.filter((line) => line.event === "smtp_ingress_timeout")).toHaveLength(1);
      expect(own.logs.filter((line) => line.event === "smtp_ingress_failed")).toEqual([]);
    });
  });

  test("over LMTP each recipient is answered on its own after DATA", async () => {
    await withService(ownDoor({ SMTP_INGRESS_LMTP: "true" }), async (own) => {
      const port = doorPort(own);
      const ownApi = new Api(own.url);
      const [roomy, small] = [await createVerifiedAgent(ownApi, x), await createVerifiedAgent(ownApi, x)];
      // Room left at RCPT TO, none for the message once it arrives.
      await ownApi.call("PUT", `/admin/agents/${small.id}/limits`, { key: ADMIN, body: { storageLimit: 10 } });
      const client = await talk(port);
      expect(client.banner).toMatch(/^220 .* LMTP /);
      expect(await client.say("LHLO client.example")).toEqual([expect.stringMatching(/^250 SIZE /m)]);
      for (const command of [
        "MAIL FROM:<pat@sender.example>",
        `RCPT TO:<${roomy.id}@mail.example>`,
        `RCPT TO:<${small.id}@mail.example>`,
        "DATA",
      ]) {
        expect(await client.say(command)).toEqual([expect.stringMatching(/^(250|354) /)]);
      }
      const message = `From: pat@sender.example\r\nTo: ${roomy.id}@mail.example\r\nSubject: Over LMTP\r\n\r\nHello.\r\n.`;
      const replies = await client.say(message, 2);
      expect(replies.map((reply) => reply.slice(0, 9))).toEqual(["250 2.0.0", "552 5.2.2"]);
      client.end();
      expect((await inboxOf(roomy, ownApi)).data.map((email) => email.subject)).toEqual(["Over LMTP"]);
      expect((await inboxOf(small, ownApi)).total).toBe(0);
    });
  });
});

describe("two instances on one database", () => {
  test.runIf(process.env.TEST_DATABASE === "postgresql")(
    "mail taken by one instance's door is heard by a subscriber on the other",
    async () => {
      await withService(ownDoor({}), async (own) => {
        const other = await own.startAnother();
        const port = doorPort(own);
        const agent = await createVerifiedAgent(new Api(own.url), x);
        const events = `subscription($id: ID!, $types: [String!]) {
          mailEvents(agentId: $id, types: $types) { type data }
        }`;
        const sse = await sseSubscription(other.url, events, { id: agent.id, types: ["email.received"] }, agent.apiKey);
        try {
          const door = nodemailer.createTransport({ host: "127.0.0.1", port, ignoreTLS: true });
          await door.sendMail({
            from: "pat@sender.example",
            to: `${agent.id}@mail.example`,
            subject: "Heard",
            text: "Hi.",
          });
          const pushed = (await sse.next()).data.mailEvents;
          expect([pushed.type, pushed.data.subject]).toEqual(["email.received", "Heard"]);
        } finally {
          sse.close();
        }
      });
    },
  );

  test("both take mail for the same agent at once; its storage holds exactly what was filed, never past its limit", async () => {
    await withService(ownDoor({}), async (own) => {
      await own.startAnother();
      const ports = own.instances.map((_, instance) => doorPort(own, instance));
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
    onTestFinished(() => rmSync(dir, { recursive: true, force: true }));
    certificate(dir, "first.example");
    const env = {
      SOCIAL_OEMBED_URL: x.url,
      MAIL_DOMAIN: "mail.example",
      SMTP_INGRESS_PORT: "0",
      SMTP_INGRESS_TLS_CERT: join(dir, "cert.pem"),
      SMTP_INGRESS_TLS_KEY: join(dir, "key.pem"),
    };
    await withService(env, async (own) => {
      const port = doorPort(own);
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
