import { createServer, type Server, type Socket } from "node:net";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { pingClamd, scanMalware } from "../src/inbound/scanners/clamav.ts";
import { checkSpam, pingRspamd } from "../src/inbound/scanners/rspamd.ts";
import { Clamd, EICAR, EICAR_SIGNATURE, STREAM_MAX_BYTES } from "./support/clamav.ts";
import { rawMessage } from "./support/mail.ts";
import { freePort } from "./support/process.ts";
import { Rspamd } from "./support/rspamd.ts";

// The scanner clients against the real daemons (Debian's rspamd and clamd,
// started by the test on loopback ports), and against peers that are gone or
// never answer.

/** GTUBE (spamassassin.apache.org/gtube): the string every spam filter is meant to reject. */
const GTUBE = "XJS*C4JDBQADN1.NSBN3*2IDNEN*GTUBE-STANDARD-ANTI-UBE-TEST-EMAIL*C.34X";

/** Long enough that a slow machine's scan never reaches it; a test that waits for it says so. */
const TIMEOUT_MS = 30_000;

const envelope = {
  clientAddress: "192.0.2.25",
  helo: "mx.sender.example",
  mailFrom: "alice@sender.example",
  recipients: ["agent@mail.example", "other@mail.example"],
};

const clean = Buffer.from(
  rawMessage({ to: "agent@mail.example", body: "Hi, shall we meet on Tuesday at ten to go over the plan?" }),
);

function withEicarAttachment(): Buffer {
  return Buffer.from(
    [
      "From: Alice <alice@sender.example>",
      "To: agent@mail.example",
      "Subject: The file",
      "Message-ID: <eicar-attachment@sender.example>",
      "Date: Sun, 22 Nov 2026 10:00:00 +0000",
      "MIME-Version: 1.0",
      'Content-Type: multipart/mixed; boundary="part"',
      "",
      "--part",
      "Content-Type: text/plain; charset=utf-8",
      "",
      "Here it is.",
      "--part",
      'Content-Type: application/octet-stream; name="tool.com"',
      'Content-Disposition: attachment; filename="tool.com"',
      "Content-Transfer-Encoding: base64",
      "",
      Buffer.from(EICAR).toString("base64"),
      "--part--",
      "",
    ].join("\r\n"),
  );
}

/** A peer that accepts connections and never says a word. */
async function silentPeer(): Promise<{ port: number; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  const server: Server = createServer((socket) => {
    sockets.add(socket);
    socket.on("error", () => {});
  });
  const port = await freePort();
  await new Promise<void>((resolve) => server.listen(port, "127.0.0.1", resolve));
  return {
    port,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}

let rspamd: Rspamd;
let clamd: Clamd;
let silent: Awaited<ReturnType<typeof silentPeer>>;

beforeAll(async () => {
  [rspamd, clamd, silent] = await Promise.all([Rspamd.start(), Clamd.start(), silentPeer()]);
});

afterAll(async () => {
  await Promise.all([rspamd?.stop(), clamd?.stop(), silent?.close()]);
});

describe("Rspamd", () => {
  test("GTUBE is rejected, with its symbol", async () => {
    const raw = Buffer.from(rawMessage({ to: "agent@mail.example", body: `Test\r\n${GTUBE}` }));
    const verdict = await checkSpam(rspamd.url, raw, envelope, { timeoutMs: TIMEOUT_MS });
    expect(verdict).toMatchObject({ status: "scanned", action: "reject" });
    expect(verdict.status === "scanned" && verdict.symbols).toContain("GTUBE");
  });

  test("ordinary mail is scanned, scores low and passes", async () => {
    const verdict = await checkSpam(rspamd.url, clean, envelope, { timeoutMs: TIMEOUT_MS });
    expect(verdict).toMatchObject({ status: "scanned", action: "no action" });
    if (verdict.status !== "scanned") return;
    expect(verdict.score).toBeLessThan(verdict.requiredScore / 2);
    expect(verdict.symbols.length).toBeGreaterThan(0);
  });

  test("the envelope reaches Rspamd: a MAIL FROM other than the From header is seen", async () => {
    const other = { ...envelope, mailFrom: "bounces@lists.example" };
    const verdict = await checkSpam(rspamd.url, clean, other, { timeoutMs: TIMEOUT_MS });
    expect(verdict.status === "scanned" && verdict.symbols).toContain("FROM_NEQ_ENVFROM");
    const same = await checkSpam(rspamd.url, clean, envelope, { timeoutMs: TIMEOUT_MS });
    expect(same.status === "scanned" && same.symbols).toContain("FROM_EQ_ENVFROM");
  });

  test("a message without an envelope (a catch-all's copy) is scanned too", async () => {
    const none = { clientAddress: null, helo: null, mailFrom: null, recipients: [] };
    const verdict = await checkSpam(rspamd.url, clean, none, { timeoutMs: TIMEOUT_MS });
    expect(verdict).toMatchObject({ status: "scanned", action: "no action" });
  });

  test("Rspamd not running: unscanned at once, not after the timeout", async () => {
    const verdict = await checkSpam(`http://127.0.0.1:${await freePort()}`, clean, envelope, { timeoutMs: TIMEOUT_MS });
    expect(verdict).toEqual({ status: "unscanned", reason: "Rspamd is not reachable (ECONNREFUSED)." });
  });

  test("Rspamd that never answers: unscanned after the timeout", async () => {
    const verdict = await checkSpam(`http://127.0.0.1:${silent.port}`, clean, envelope, { timeoutMs: 300 });
    expect(verdict).toEqual({ status: "unscanned", reason: "Rspamd did not answer within 300 ms." });
  });
});

describe("pings, as the doctor asks", () => {
  test("Rspamd answers pong; one not running and one that never answers say why", async () => {
    expect(await pingRspamd(rspamd.url, { timeoutMs: TIMEOUT_MS })).toBeNull();
    expect(await pingRspamd(`${rspamd.url}/`, { timeoutMs: TIMEOUT_MS })).toBeNull();
    expect(await pingRspamd(`http://127.0.0.1:${await freePort()}`, { timeoutMs: TIMEOUT_MS })).toBe(
      "Rspamd is not reachable (ECONNREFUSED).",
    );
    expect(await pingRspamd(`http://127.0.0.1:${silent.port}`, { timeoutMs: 300 })).toBe(
      "Rspamd did not answer within 300 ms.",
    );
  });

  test("clamd answers PING with PONG, over TCP and the Unix socket; one not running says why", async () => {
    expect(await pingClamd(clamd.url, { timeoutMs: TIMEOUT_MS })).toBeNull();
    expect(await pingClamd(clamd.socketUrl, { timeoutMs: TIMEOUT_MS })).toBeNull();
    expect(await pingClamd(`tcp://127.0.0.1:${await freePort()}`, { timeoutMs: TIMEOUT_MS })).toBe(
      "clamd is not reachable (ECONNREFUSED).",
    );
    expect(await pingClamd(`tcp://127.0.0.1:${silent.port}`, { timeoutMs: 300 })).toBe(
      "clamd did not answer within 300 ms.",
    );
  });
});

describe("ClamAV", () => {
  test("EICAR as the body is infected, with the signature's name", async () => {
    const raw = Buffer.from(rawMessage({ to: "agent@mail.example", body: EICAR }));
    expect(await scanMalware(clamd.url, raw, { timeoutMs: TIMEOUT_MS })).toEqual({
      status: "infected",
      signature: EICAR_SIGNATURE,
    });
  });

  test("EICAR as a base64 attachment is infected: clamd decodes the MIME parts", async () => {
    expect(await scanMalware(clamd.url, withEicarAttachment(), { timeoutMs: TIMEOUT_MS })).toEqual({
      status: "infected",
      signature: EICAR_SIGNATURE,
    });
  });

  test("ordinary mail is clean", async () => {
    expect(await scanMalware(clamd.url, clean, { timeoutMs: TIMEOUT_MS })).toEqual({ status: "clean" });
  });

  test("over the Unix socket, the same verdicts", async () => {
    expect(await scanMalware(clamd.socketUrl, clean, { timeoutMs: TIMEOUT_MS })).toEqual({ status: "clean" });
    expect(await scanMalware(clamd.socketUrl, withEicarAttachment(), { timeoutMs: TIMEOUT_MS })).toEqual({
      status: "infected",
      signature: EICAR_SIGNATURE,
    });
  });

  // clamd answers the limit and closes while the rest is still being written: the answer is read, or is lost
  // with the connection's reset (a race of the kernel's, not ours); either way the reason names the limit.
  test("a message over clamd's StreamMaxLength is unscanned, with that reason", async () => {
    const raw = Buffer.from(
      rawMessage({ to: "agent@mail.example", body: "long line of text\r\n".repeat(STREAM_MAX_BYTES / 10) }),
    );
    expect(await scanMalware(clamd.url, raw, { timeoutMs: TIMEOUT_MS })).toEqual({
      status: "unscanned",
      reason: expect.stringContaining("clamd's StreamMaxLength"),
    });
  });

  test("clamd not running: unscanned at once, not after the timeout", async () => {
    expect(await scanMalware(`tcp://127.0.0.1:${await freePort()}`, clean, { timeoutMs: TIMEOUT_MS })).toEqual({
      status: "unscanned",
      reason: "clamd is not reachable (ECONNREFUSED).",
    });
  });

  test("clamd that never answers: unscanned after the timeout", async () => {
    expect(await scanMalware(`tcp://127.0.0.1:${silent.port}`, clean, { timeoutMs: 300 })).toEqual({
      status: "unscanned",
      reason: "clamd did not answer within 300 ms.",
    });
  });
});
