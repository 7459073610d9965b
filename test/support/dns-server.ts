import { createSocket } from "node:dgram";
import type { AddressInfo } from "node:net";
import * as dnsPacket from "dns-packet";

// A real DNS server on loopback UDP answering from a zone the test writes:
// TXT records (DKIM keys, SPF and DMARC policies), A and MX records. A name it
// does not hold is NXDOMAIN, as the internet would answer.

export interface DnsServer {
  /** For DNS_SERVERS. */
  address: string;
  txt(name: string, text: string): void;
  a(name: string, ip: string): void;
  mx(name: string, exchange: string, preference?: number): void;
  /** Forgets every record of the name. */
  clear(name: string): void;
  /** Questions asked, as "TYPE name". */
  asked: string[];
  close(): Promise<void>;
}

type Answer = dnsPacket.Answer;

/** A TXT value longer than 255 bytes goes out as several strings, as zone files split it. */
const chunks = (text: string) => text.match(/[\s\S]{1,255}/g) ?? [""];

export async function startDnsServer(): Promise<DnsServer> {
  const zone = new Map<string, Answer[]>();
  const asked: string[] = [];
  const add = (name: string, answer: Answer) => {
    const key = name.toLowerCase();
    zone.set(key, [...(zone.get(key) ?? []), answer]);
  };
  const socket = createSocket("udp4");
  socket.on("message", (message, peer) => {
    const query = dnsPacket.decode(message);
    const question = query.questions?.[0];
    if (!question) return;
    asked.push(`${question.type} ${question.name}`);
    const held = zone.get(question.name.toLowerCase());
    const reply = dnsPacket.encode({
      id: query.id,
      type: "response",
      flags: dnsPacket.AUTHORITATIVE_ANSWER | (held ? 0 : 3), // rcode 3: NXDOMAIN
      questions: [question],
      answers: (held ?? []).filter((answer) => answer.type === question.type),
    });
    socket.send(reply, peer.port, peer.address);
  });
  await new Promise<void>((resolve) => socket.bind(0, "127.0.0.1", resolve));
  const { port } = socket.address() as AddressInfo;
  return {
    address: `127.0.0.1:${port}`,
    txt: (name, text) => add(name, { type: "TXT", name, ttl: 60, data: chunks(text) }),
    a: (name, ip) => add(name, { type: "A", name, ttl: 60, data: ip }),
    mx: (name, exchange, preference = 10) => add(name, { type: "MX", name, ttl: 60, data: { preference, exchange } }),
    clear: (name) => zone.delete(name.toLowerCase()),
    asked,
    close: () => new Promise((resolve) => socket.close(() => resolve())),
  };
}

let empty: Promise<DnsServer> | null = null;

/** The zone every test service asks unless it brings its own: never the machine's resolver. */
export async function emptyZone(): Promise<string> {
  empty ??= startDnsServer();
  return (await empty).address;
}
