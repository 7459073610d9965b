import { describe, expect, test } from "vitest";
import { ProxyHeaderRefused, parseProxyHeader } from "./proxy-protocol.ts";

// Headers as HAProxy's proxy-protocol.txt spells them, whole, cut short and malformed.

const SIGNATURE = "0d0a0d0a000d0a515549540a";

/** A version 2 header: command, family, then the address block (and TLVs) in hex. */
const v2 = (command: number, family: number, block: string) =>
  Buffer.concat([
    Buffer.from(SIGNATURE, "hex"),
    Buffer.from([command, family, 0, block.length / 2]),
    Buffer.from(block, "hex"),
  ]);

/** The ports: 40000 to 25. */
const PORTS = "9c400019";
/** 192.0.2.30 to 198.51.100.1. */
const TCP4_BLOCK = `c000021ec6336401${PORTS}`;
/** 2001:db8::30 to ::1. */
const TCP6_BLOCK = `20010db8000000000000000000000030${"0".repeat(31)}1${PORTS}`;

describe("version 1", () => {
  test.each([
    ["PROXY TCP4 192.0.2.30 198.51.100.1 40000 25\r\n", { address: "192.0.2.30", port: 40000 }],
    ["PROXY TCP6 2001:db8::30 ::1 40000 25\r\n", { address: "2001:db8::30", port: 40000 }],
    ["PROXY TCP6 ::ffff:192.0.2.30 ::1 40000 25\r\n", { address: "192.0.2.30", port: 40000 }],
    ["PROXY UNKNOWN\r\n", null],
    ["PROXY UNKNOWN ffff:f...f:ffff ffff:f...f:ffff 65535 65535\r\n", null],
  ])("%j names %j", (line, client) => {
    expect(parseProxyHeader(Buffer.from(`${line}EHLO sender.host\r\n`))).toEqual({ client, length: line.length });
  });

  test.each(["", "P", "PROXY ", "PROXY TCP4 192.0.2.30 198.51.100.1 40000 25\r"])("%j waits for more", (start) => {
    expect(parseProxyHeader(Buffer.from(start))).toBeNull();
  });

  test.each([
    "EHLO sender.host\r\n",
    "PROXY UDP4 192.0.2.30 198.51.100.1 40000 25\r\n",
    "PROXY TCP4 192.0.2 198.51.100.1 40000 25\r\n",
    "PROXY TCP4 2001:db8::30 ::1 40000 25\r\n",
    "PROXY TCP6 192.0.2.30 198.51.100.1 40000 25\r\n",
    "PROXY TCP4 192.0.2.30 198.51.100.1 65536 25\r\n",
    "PROXY TCP4 192.0.2.30 198.51.100.1 040000 25\r\n",
    "PROXY TCP4 192.0.2.30 198.51.100.1 40000\r\n",
    "PROXY TCP4 192.0.2.30 198.51.100.1 40000 25 more\r\n",
    `PROXY UNKNOWN ${"x".repeat(100)}\r\n`,
    `PROXY UNKNOWN ${"x".repeat(100)}`,
  ])("%j is refused", (line) => {
    expect(() => parseProxyHeader(Buffer.from(line))).toThrow(ProxyHeaderRefused);
  });
});

describe("version 2", () => {
  test.each([
    ["PROXY over TCP/IPv4", v2(0x21, 0x11, TCP4_BLOCK), { address: "192.0.2.30", port: 40000 }],
    ["PROXY over TCP/IPv6", v2(0x21, 0x21, TCP6_BLOCK), { address: "2001:db8::30", port: 40000 }],
    [
      "with TLVs after the addresses",
      v2(0x21, 0x11, `${TCP4_BLOCK}040001000300020102`),
      { address: "192.0.2.30", port: 40000 },
    ],
    ["LOCAL (a health check), its block skipped", v2(0x20, 0x11, TCP4_BLOCK), null],
    ["PROXY of an UNSPEC family", v2(0x21, 0x00, ""), null],
  ])("%s", (_, header, client) => {
    const data = Buffer.concat([header, Buffer.from("EHLO sender.host\r\n")]);
    expect(parseProxyHeader(data)).toEqual({ client, length: header.length });
  });

  test("waits for the whole header, however it is cut", () => {
    const header = v2(0x21, 0x21, TCP6_BLOCK);
    for (let cut = 0; cut < header.length; cut++) expect(parseProxyHeader(header.subarray(0, cut))).toBeNull();
  });

  test.each([
    ["a command other than LOCAL and PROXY", v2(0x22, 0x11, TCP4_BLOCK)],
    ["a version other than 2", v2(0x11, 0x11, TCP4_BLOCK)],
    ["UDP", v2(0x21, 0x12, TCP4_BLOCK)],
    ["a UNIX socket", v2(0x21, 0x31, "00".repeat(216))],
    ["a block shorter than its addresses", v2(0x21, 0x21, TCP4_BLOCK)],
  ])("%s is refused", (_, header) => {
    expect(() => parseProxyHeader(header)).toThrow(ProxyHeaderRefused);
  });
});
