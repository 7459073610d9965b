import { createServer, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import { afterEach, describe, expect, test } from "vitest";
import { checkSpam, parseRspamdAnswer } from "./rspamd.ts";

// /checkv2 answers as Rspamd 3.4 gives them, and the answers it never gives
// (a fake HTTP peer stands in for a broken Rspamd or what sits in its place).

const GTUBE_ANSWER =
  '{"is_skipped":true,"score":15.0,"required_score":15.0,"action":"reject","symbols":{"GTUBE":{"name":"GTUBE","score":0.0,"metric_score":0.0}},"messages":{"smtp_message":"Gtube pattern"},"message-id":"1@example.com","time_real":0.227608}';

const CLEAN_ANSWER =
  '{"is_skipped":false,"score":1.3,"required_score":15.0,"action":"no action","symbols":{"MIME_GOOD":{"name":"MIME_GOOD","score":-0.1,"metric_score":-0.1,"options":["text/plain"]},"ARC_NA":{"name":"ARC_NA","score":0.0,"metric_score":0.0},"RDNS_NONE":{"name":"RDNS_NONE","score":1.0,"metric_score":1.0}},"messages":{},"urls":[],"emails":[],"message-id":"2@example.com","time_real":0.01,"milter":{"remove_headers":{"X-Spam":0}}}';

const envelope = {
  clientAddress: "::ffff:192.0.2.25",
  helo: "mx.sender.example",
  mailFrom: "",
  recipients: ["agent@mail.example", "other@mail.example", "bad\r\nInjected: yes"],
};

describe("parseRspamdAnswer", () => {
  test.each([
    ["a reject, with its symbols", GTUBE_ANSWER, "reject", 15, ["GTUBE"]],
    ["no action, the symbols by name", CLEAN_ANSWER, "no action", 1.3, ["ARC_NA", "MIME_GOOD", "RDNS_NONE"]],
  ])("%s", (_, answer, action, score, symbols) => {
    expect(parseRspamdAnswer(answer)).toEqual({ status: "scanned", action, score, requiredScore: 15, symbols });
  });

  test.each([
    ["not JSON", "<html>Bad gateway</html>"],
    ["JSON but no object", "[1,2]"],
    ["an error answer", '{"error":"cannot parse message"}'],
    ["an action Rspamd has not", '{"action":"discard","score":1,"required_score":15,"symbols":{}}'],
    ["a score that is no number", '{"action":"no action","score":"1","required_score":15,"symbols":{}}'],
    ["no symbols", '{"action":"no action","score":1,"required_score":15}'],
  ])("%s is no verdict", (_, body) => {
    expect(parseRspamdAnswer(body)).toEqual({
      status: "unscanned",
      reason: "Rspamd answered something other than a verdict.",
    });
  });
});

describe("checkSpam against a fake Rspamd", () => {
  let server: Server | null = null;
  afterEach(async () => {
    const closing = server;
    server = null;
    if (!closing) return;
    closing.closeAllConnections();
    await new Promise((resolve) => closing.close(resolve));
  });

  /** Serves `answer` to every request and keeps what was asked. */
  async function fake(answer: (reply: ServerResponse) => void) {
    const asked: { url: string; headers: string[]; body: string }[] = [];
    const listening = createServer((request, reply) => {
      let body = "";
      request.on("data", (chunk) => (body += chunk));
      request.on("end", () => {
        asked.push({ url: request.url ?? "", headers: request.rawHeaders, body });
        answer(reply);
      });
    });
    server = listening;
    await new Promise<void>((resolve) => listening.listen(0, "127.0.0.1", resolve));
    return { url: `http://127.0.0.1:${(listening.address() as AddressInfo).port}/`, asked };
  }

  test("posts the message to /checkv2 with the envelope: IPv4 as such, <> for the null sender, one Rcpt line per recipient", async () => {
    const { url, asked } = await fake((reply) => reply.end(CLEAN_ANSWER));
    const verdict = await checkSpam(url, Buffer.from("Subject: hi\r\n\r\nhello\r\n"), envelope, { timeoutMs: 5000 });
    expect(verdict.status).toBe("scanned");
    expect(asked[0]?.url).toBe("/checkv2");
    expect(asked[0]?.body).toBe("Subject: hi\r\n\r\nhello\r\n");
    const headers = asked[0]?.headers ?? [];
    const values = (name: string) => headers.filter((_, i) => i % 2 === 1 && headers[i - 1] === name);
    expect(values("IP")).toEqual(["192.0.2.25"]);
    expect(values("Helo")).toEqual(["mx.sender.example"]);
    expect(values("From")).toEqual(["<>"]);
    expect(values("Rcpt")).toEqual(["agent@mail.example", "other@mail.example"]);
  });

  test.each<[string, (reply: ServerResponse) => void, number, string]>([
    [
      "an HTTP error",
      (reply) => {
        reply.statusCode = 500;
        reply.end('{"error":"internal"}');
      },
      5000,
      "Rspamd answered HTTP 500.",
    ],
    ["garbage with a 200", (reply) => reply.end("PONG"), 5000, "Rspamd answered something other than a verdict."],
    [
      "an answer cut short",
      (reply) => {
        reply.writeHead(200, { "Content-Length": "1000" });
        reply.write(CLEAN_ANSWER.slice(0, 50), () => reply.socket?.destroy());
      },
      5000,
      "Rspamd's answer was cut short.",
    ],
    [
      "an answer that starts and stalls, after the timeout",
      (reply) => {
        reply.writeHead(200, { "Content-Length": "1000" });
        reply.write("{");
      },
      200,
      "Rspamd did not answer within 200 ms.",
    ],
  ])("%s is unscanned", async (_, answer, timeoutMs, reason) => {
    const { url } = await fake(answer);
    expect(await checkSpam(url, Buffer.from("x"), envelope, { timeoutMs })).toEqual({ status: "unscanned", reason });
  });

  test("an address that is not http:// is unscanned", async () => {
    expect(await checkSpam("tcp://127.0.0.1:11333", Buffer.from("x"), envelope, { timeoutMs: 200 })).toEqual({
      status: "unscanned",
      reason: "Rspamd's address is not an http:// URL.",
    });
  });
});
