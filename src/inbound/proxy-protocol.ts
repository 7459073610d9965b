import type { Socket } from "node:net";
import ipaddr from "ipaddr.js";
import type { SMTPServer } from "smtp-server";
import type { SmtpIngressConfig } from "../config.ts";
import type { Logger } from "../log.ts";

// The PROXY protocol, versions 1 (a text line) and 2 (binary), as HAProxy's
// proxy-protocol.txt defines them: a load balancer in front of the SMTP door
// opens each connection with the address of the client it stands for, so
// that SPF is checked (and connections counted) for that client rather than
// for the balancer. Anybody can write such a header: the door reads it only
// from the peers the operator lists (SMTP_INGRESS_TRUSTED_PROXIES), and those
// must send it. smtp-server reads version 1 only, so both are read here.

/** The client a header names; null: the connection's own (v1 UNKNOWN, v2 LOCAL or UNSPEC, a health check). */
export type ProxiedClient = { address: string; port: number } | null;

export class ProxyHeaderRefused extends Error {}

const V2_SIGNATURE = Buffer.from("0d0a0d0a000d0a515549540a", "hex");
const V1_PREFIX = Buffer.from("PROXY ");
/** Version 1's longest line, CRLF included. */
const V1_MAX_LENGTH = 107;
/** Version 2: the fixed part, then the address block's length for TCP over IPv4 and over IPv6. */
const V2_FIXED_LENGTH = 16;
const V2_ADDRESS_LENGTHS: Record<number, number> = { 17: 12, 33: 36 };
/** How long a refused connection has to read why before it is closed. */
const REFUSED_LINGER_MS = 1_000;

/** Whether `data` is the start of `prefix`, or begins with all of it. */
const opens = (data: Buffer, prefix: Buffer) =>
  data.subarray(0, prefix.length).equals(prefix.subarray(0, Math.min(data.length, prefix.length)));

const PORT = /^(0|[1-9]\d{0,4})$/;

function parseV1(data: Buffer): { client: ProxiedClient; length: number } | null {
  const end = data.indexOf("\r\n");
  if (end < 0 || end + 2 > V1_MAX_LENGTH) {
    if (end < 0 && data.length < V1_MAX_LENGTH) return null;
    throw new ProxyHeaderRefused("the PROXY line is longer than 107 bytes");
  }
  const length = end + 2;
  const [, protocol, source = "", destination = "", sourcePort = "", destinationPort = "", ...rest] = data
    .subarray(0, end)
    .toString("latin1")
    .split(" ");
  if (protocol === "UNKNOWN") return { client: null, length };
  const kind = protocol === "TCP4" ? "ipv4" : protocol === "TCP6" ? "ipv6" : null;
  const isAddress = (text: string) =>
    kind === "ipv4" ? ipaddr.IPv4.isValidFourPartDecimal(text) : kind === "ipv6" && ipaddr.IPv6.isValid(text);
  const isPort = (text: string) => PORT.test(text) && Number(text) <= 65_535;
  if (!isAddress(source) || !isAddress(destination) || !isPort(sourcePort) || !isPort(destinationPort) || rest.length) {
    throw new ProxyHeaderRefused("the PROXY line is not TCP4 or TCP6 with two addresses and two ports");
  }
  return { client: { address: ipaddr.process(source).toString(), port: Number(sourcePort) }, length };
}

function parseV2(data: Buffer): { client: ProxiedClient; length: number } | null {
  if (data.length < V2_FIXED_LENGTH) return null;
  const command = data[12];
  const family = data[13] ?? 0;
  const length = V2_FIXED_LENGTH + data.readUInt16BE(14);
  if (command !== 0x20 && command !== 0x21) throw new ProxyHeaderRefused("not a version 2 LOCAL or PROXY command");
  const local = command === 0x20 || family === 0x00;
  const addresses = V2_ADDRESS_LENGTHS[family];
  if (!local && addresses === undefined) throw new ProxyHeaderRefused("the proxied connection is not TCP over IP");
  if (!local && length < V2_FIXED_LENGTH + (addresses ?? 0)) {
    throw new ProxyHeaderRefused("the PROXY header is shorter than its addresses");
  }
  if (data.length < length) return null;
  if (local) return { client: null, length };
  // Source address, destination address, source port, destination port; TLVs after them are not read.
  const size = family === 0x11 ? 4 : 16;
  const source = ipaddr.fromByteArray([...data.subarray(V2_FIXED_LENGTH, V2_FIXED_LENGTH + size)]);
  const port = data.readUInt16BE(V2_FIXED_LENGTH + 2 * size);
  return { client: { address: ipaddr.process(source.toString()).toString(), port }, length };
}

/** The header `data` opens with and its length in bytes; null while more bytes may complete it. */
export function parseProxyHeader(data: Buffer): { client: ProxiedClient; length: number } | null {
  if (opens(data, V2_SIGNATURE)) return parseV2(data);
  if (opens(data, V1_PREFIX)) return parseV1(data);
  throw new ProxyHeaderRefused("the connection did not open with a PROXY header");
}

/**
 * Reads the header a listed proxy opens its connection with, within `timeoutMs`; whatever follows it is left
 * in the socket, for SMTP. Rejects with ProxyHeaderRefused when there is none.
 */
export function readProxyHeader(socket: Socket, timeoutMs: number): Promise<ProxiedClient> {
  return new Promise((resolve, reject) => {
    let data = Buffer.alloc(0);
    const stop = () => {
      clearTimeout(timer);
      socket.off("readable", read);
      socket.off("end", ended);
      socket.off("close", ended);
      socket.off("error", ended);
    };
    const refuse = (reason: string) => {
      stop();
      reject(new ProxyHeaderRefused(reason));
    };
    const ended = () => refuse("the connection ended before its PROXY header");
    const timer = setTimeout(() => refuse("no PROXY header in time"), timeoutMs);
    function read() {
      for (let chunk: Buffer | null = socket.read(); chunk !== null; chunk = socket.read()) {
        data = Buffer.concat([data, chunk]);
      }
      let header: ReturnType<typeof parseProxyHeader>;
      try {
        header = parseProxyHeader(data);
      } catch (error) {
        return refuse((error as Error).message);
      }
      if (header === null) return;
      stop();
      if (data.length > header.length) socket.unshift(data.subarray(header.length));
      resolve(header.client);
    }
    socket.on("readable", read);
    socket.on("end", ended);
    socket.on("close", ended);
    socket.on("error", ended);
  });
}

/**
 * Puts the PROXY protocol in front of the door: a connection from a peer SMTP_INGRESS_TRUSTED_PROXIES lists
 * must open with a header, and its session is then the client's the header names; one without is told 421
 * and closed. Every other connection goes to smtp-server as it came, where a header is no command it knows.
 * Answers what closes the connections still waiting for their header.
 */
export function takeProxiedConnections(server: SMTPServer, door: SmtpIngressConfig, log: Logger): () => void {
  if (door.trustedProxies.length === 0) return () => {};
  const ranges = door.trustedProxies.map((range) => ipaddr.parseCIDR(range));
  const listed = (peer: string | undefined) => {
    const address = peer && ipaddr.isValid(peer) ? ipaddr.process(peer) : null;
    return address !== null && ranges.some((range) => range[0].kind() === address.kind() && address.match(range));
  };
  // smtp-server takes connections on its net.Server's one `connection` listener: ours goes in front of it.
  const [accept, ...more] = server.server.listeners("connection") as ((socket: Socket) => void)[];
  if (!accept || more.length > 0) throw new Error("smtp-server no longer takes connections on one listener");
  server.server.removeAllListeners("connection");
  const waiting = new Set<Socket>();
  server.server.on("connection", (socket: Socket) => {
    if (!listed(socket.remoteAddress)) return accept(socket);
    waiting.add(socket);
    readProxyHeader(socket, door.idleTimeoutMs).then(
      (client) => {
        waiting.delete(socket);
        server.connect(socket, client && { remoteAddress: client.address, remotePort: client.port });
      },
      (error: Error) => {
        waiting.delete(socket);
        log("warn", "smtp_ingress_proxy_refused", { peer: socket.remoteAddress, reason: error.message });
        socket.on("error", () => {}); // the peer may be gone already
        socket.end("421 4.7.0 Expected a PROXY protocol header: closing\r\n");
        // A peer that never closes its side is cut off.
        setTimeout(() => socket.destroy(), REFUSED_LINGER_MS).unref();
      },
    );
  });
  return () => {
    for (const socket of waiting) socket.destroy();
  };
}
