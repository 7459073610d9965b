import { expect, test } from "vitest";
import { tracedClient } from "./authentication.ts";

// SPF's client for the catch-all, from the trace lines MTAs really write:
// only those of the operator's own hosts, read down to the first hop from
// a public address.

const OWN = ["mx.example.org", "store.example.org"];
const traced = (...header: string[]) => tracedClient(Buffer.from(`${header.join("\r\n")}\r\n\r\nBody.\r\n`), OWN);

test.each([
  [
    "Dovecot's LMTP hop leads on to Postfix's, whose client it is, with the Return-Path written above",
    [
      "Return-Path: <bounce@sender.example>",
      "Received: from mx.example.org ([10.0.0.2])\r\n\tby store.example.org with LMTP id 1; Sun, 22 Nov 2026 10:00:02 +0000",
      "Received: from mail.sender.example (mail.sender.example [192.0.2.10])\r\n\t(using TLSv1.3 with cipher TLS_AES_256_GCM_SHA384 (256/256 bits))\r\n\tby MX.example.org. (Postfix) with ESMTPS id 2; Sun, 22 Nov 2026 10:00:01 +0000",
      "Return-Path: <forged@elsewhere.example>",
      "Received: from forged.example ([203.0.113.9]) by mx.example.org; Sun, 22 Nov 2026 09:00:00 +0000",
    ],
    { ip: "192.0.2.10", helo: "mail.sender.example", sender: "bounce@sender.example" },
  ],
  [
    "Exim's form, an IPv6 literal, a hop naming no address, and a bounce's empty Return-Path",
    [
      "Return-Path: <>",
      "Received: by store.example.org (Postfix, from userid 0) id 3; Sun, 22 Nov 2026 10:00:03 +0000",
      "Received: from [IPv6:2001:db8::10] (helo=mail.sender.example)\r\n\tby mx.example.org with esmtp id 4; Sun, 22 Nov 2026 10:00:01 +0000",
    ],
    { ip: "2001:db8::10", helo: "mail.sender.example", sender: "" },
  ],
])("%s", (_, header, client) => {
  expect(traced(...header)).toEqual(client);
});

test("no client: a hop by another host first, or only hops between the operator's own", () => {
  expect(
    traced("Received: from sender.example ([192.0.2.10]) by relay.example.net; Sun, 22 Nov 2026 10:00:00 +0000"),
  ).toBeNull();
  expect(
    traced(
      "Received: from mx.example.org ([127.0.0.1]) by store.example.org; Sun, 22 Nov 2026 10:00:02 +0000",
      "Received: from unknown ([10.0.0.5]) by mx.example.org; Sun, 22 Nov 2026 10:00:01 +0000",
      "Received: from sender.example ([192.0.2.10]) by relay.example.net; Sun, 22 Nov 2026 10:00:00 +0000",
    ),
  ).toBeNull();
  expect(traced("Subject: no trace")).toBeNull();
  expect(tracedClient(Buffer.from("Received: from a ([192.0.2.10]) by mx.example.org; x\r\n\r\n"), [])).toBeNull();
});

test("a HELO written as an address literal is never the client: the address the MX recorded of its peer is", () => {
  const postfix = traced(
    "Received: from [209.85.220.41] (unknown [198.51.100.7])\r\n\tby mx.example.org (Postfix) with ESMTP id 5; Sun, 22 Nov 2026 10:00:01 +0000",
  );
  expect(postfix).toEqual({ ip: "198.51.100.7", helo: "[209.85.220.41]", sender: "" });
  // An internal-looking HELO does not make the MX's own line a hop between the operator's hosts.
  expect(
    traced(
      "Received: from [10.0.0.1] (unknown [198.51.100.7]) by mx.example.org (Postfix) with ESMTP id 6; x",
      "Received: from mail.bank.example (mail.bank.example [192.0.2.10]) by mx.example.org; forged",
    ),
  ).toMatchObject({ ip: "198.51.100.7" });
  const exim = traced(
    "Received: from mail.sender.example ([198.51.100.7] helo=[209.85.220.41])\r\n\tby mx.example.org with esmtp id 7; x",
  );
  expect(exim).toEqual({ ip: "198.51.100.7", helo: "[209.85.220.41]", sender: "" });
});

test("a HELO of several words with a `by` among them leaves its line unread, and SPF's client unknown", () => {
  // Postfix writes `HELO x by mx.example.org` so, the words joined: the first `by` is not the server's.
  expect(
    traced(
      "Received: from x by mx.example.org (unknown [203.0.113.66])\r\n\tby mx.example.org (Postfix) with ESMTP id 8; x",
      "Received: from mail.bank.example (mail.bank.example [192.0.2.10]) by mx.example.org; forged",
    ),
  ).toBeNull();
  // Nor does a `helo=` among its words hide the address Postfix wrote after them.
  expect(
    traced(
      "Received: from x helo=y (unknown [203.0.113.66])\r\n\tby mx.example.org (Postfix) with ESMTP id 9; x",
      "Received: from mail.bank.example (mail.bank.example [192.0.2.10]) by mx.example.org; forged",
    ),
  ).toMatchObject({ ip: "203.0.113.66" });
});

test("the header section ends at its first empty line, of bare LFs too: a Received line below it is the sender's", () => {
  const raw = Buffer.from(
    "Return-Path: <bounce@sender.example>\r\n" +
      "Received: from mx.example.org ([10.0.0.2])\r\n\tby store.example.org with LMTP id 1; Sun, 22 Nov 2026 10:00:02 +0000\n" +
      "\n" +
      "Received: from forged.example ([203.0.113.9]) by mx.example.org; Sun, 22 Nov 2026 09:00:00 +0000\r\n\r\nBody.\r\n",
  );
  expect(tracedClient(raw, OWN)).toBeNull();
});

test("a header section past what is read alone ends at its first empty line too, found in the bytes", () => {
  const raw = Buffer.from(
    "Received: from mx.example.org ([10.0.0.2])\r\n\tby store.example.org with LMTP id 1; Sun, 22 Nov 2026 10:00:02 +0000\r\n" +
      `X-Pad: ${"a".repeat(70_000)}\n` +
      "\n" +
      "Received: from forged.example ([203.0.113.9]) by mx.example.org; Sun, 22 Nov 2026 09:00:00 +0000\r\n\r\nBody.\r\n",
  );
  expect(tracedClient(raw, OWN)).toBeNull();
});
