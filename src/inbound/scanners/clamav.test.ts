import type { AddressInfo } from "node:net";
import { createServer, type Server } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { clamdAddress, parseClamdAnswer, scanMalware } from "./clamav.ts";

// clamd's INSTREAM answer lines as clamd(8) and ClamAV 1.4 give them, and
// answers it never gives (a fake peer stands in for a broken clamd).

describe("parseClamdAnswer", () => {
  test.each([
    ["stream: OK\0", { status: "clean" }],
    ["stream: OK", { status: "clean" }],
    ["stream: Eicar-Test-Signature FOUND\0", { status: "infected", signature: "Eicar-Test-Signature" }],
    ["stream: Win.Test.EICAR_HDB-1 FOUND\n", { status: "infected", signature: "Win.Test.EICAR_HDB-1" }],
    [
      "INSTREAM size limit exceeded. ERROR\0",
      {
        status: "unscanned",
        reason: "The message is larger than clamd's StreamMaxLength (INSTREAM size limit exceeded).",
      },
    ],
    ["stream: Can't allocate memory ERROR\0", { status: "unscanned", reason: "clamd could not scan the message." }],
    ["UNKNOWN COMMAND\0", { status: "unscanned", reason: "clamd answered something other than a scan result." }],
    ["stream:  FOUND\0", { status: "unscanned", reason: "clamd answered something other than a scan result." }],
    ["", { status: "unscanned", reason: "clamd answered something other than a scan result." }],
  ])("%j", (answer, verdict) => {
    expect(parseClamdAnswer(answer)).toEqual(verdict);
  });
});

describe("clamdAddress", () => {
  test.each([
    ["tcp://127.0.0.1:3310", { host: "127.0.0.1", port: 3310 }],
    ["tcp://[::1]:3310", { host: "::1", port: 3310 }],
    ["tcp://clamav:3310", { host: "clamav", port: 3310 }],
    ["unix:///run/clamav/clamd.ctl", { path: "/run/clamav/clamd.ctl" }],
    ["tcp://127.0.0.1", null],
    ["unix://run/clamav/clamd.ctl", null],
    ["http://127.0.0.1:3310", null],
    ["127.0.0.1:3310", null],
    ["", null],
  ])("%j", (url, address) => {
    expect(clamdAddress(url)).toEqual(address);
  });
});

describe("scanMalware against a fake clamd", () => {
  let server: Server | null = null;
  afterEach(async () => {
    const closing = server;
    server = null;
    if (closing) await new Promise((resolve) => closing.close(resolve));
  });

  /** Reads the whole stream, then answers `answer` and closes; keeps what it read. */
  async function fake(answer: string) {
    const read: Buffer[] = [];
    const listening = createServer((socket) => {
      socket.on("data", (chunk) => {
        read.push(chunk);
        const all = Buffer.concat(read);
        if (all.length >= 4 && all.subarray(-4).equals(Buffer.alloc(4))) socket.end(answer);
      });
      socket.on("error", () => {});
    });
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
    return { url: `tcp://127.0.0.1:${(listening.address() as AddressInfo).port}`, read };
  }

  test("sends zINSTREAM, length-prefixed chunks and a zero length", async () => {
    const { url, read } = await fake("stream: OK\0");
    const raw = Buffer.alloc(100_000, "a");
    expect(await scanMalware(url, raw, { timeoutMs: 5000 })).toEqual({ status: "clean" });
    const sent = Buffer.concat(read);
    expect(sent.subarray(0, 10).toString("latin1")).toBe("zINSTREAM\0");
    let offset = 10;
    const chunks: Buffer[] = [];
    for (;;) {
      const length = sent.readUInt32BE(offset);
      offset += 4;
      if (length === 0) break;
      chunks.push(sent.subarray(offset, offset + length));
      offset += length;
    }
    expect(offset).toBe(sent.length);
    expect(Buffer.concat(chunks).equals(raw)).toBe(true);
  });

  test("garbage is unscanned", async () => {
    const { url } = await fake("HTTP/1.1 400 Bad Request\r\n\r\n");
    expect(await scanMalware(url, Buffer.from("x"), { timeoutMs: 5000 })).toEqual({
      status: "unscanned",
      reason: "clamd answered something other than a scan result.",
    });
  });

  test("a close without an answer is unscanned", async () => {
    const { url } = await fake("");
    expect(await scanMalware(url, Buffer.from("x"), { timeoutMs: 5000 })).toEqual({
      status: "unscanned",
      reason: "clamd closed the connection without an answer.",
    });
  });

  test("an address that is not tcp:// or unix:// is unscanned", async () => {
    expect(await scanMalware("http://127.0.0.1:3310", Buffer.from("x"), { timeoutMs: 200 })).toEqual({
      status: "unscanned",
      reason: "ClamAV's address is not tcp://host:port or unix:///path.",
    });
  });
});
