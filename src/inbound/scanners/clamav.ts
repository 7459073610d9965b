import { connect, type NetConnectOpts, type Socket } from "node:net";
import type { MalwareVerdict } from "../../mailbox/inspection.ts";

// Malware verdicts from ClamAV's clamd, through its INSTREAM command (clamd(8)):
// the raw message goes in length-prefixed chunks, and clamd's mail scanner
// (ScanMail, on by default) decodes the MIME parts, so the body and every
// attachment are scanned from the one stream. A scanner that is down, slow or
// answers something else gives "unscanned" with a short reason: never a throw.

/** clamd reads a stream in chunks of at most this many bytes each (its buffer is larger). */
const CHUNK_BYTES = 64 * 1024;

/** clamd's size-limit answer, which names StreamMaxLength only by what it does. */
const SIZE_LIMIT = "INSTREAM size limit exceeded";

/**
 * Where clamd listens: `tcp://host:port` or `unix:///path/to/socket`; null for
 * anything else (the config's check of CLAMAV_URL can use this).
 */
export function clamdAddress(url: string): NetConnectOpts | null {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    return null;
  }
  if (parsed.protocol === "unix:" && !parsed.host && parsed.pathname.length > 1) {
    return { path: decodeURIComponent(parsed.pathname) };
  }
  if (parsed.protocol === "tcp:" && parsed.hostname && parsed.port) {
    return { host: parsed.hostname.replace(/^\[|\]$/g, ""), port: Number(parsed.port) };
  }
  return null;
}

/** Scans a raw message; `timeoutMs` bounds the whole exchange, connecting included. */
export async function scanMalware(url: string, raw: Buffer, options: { timeoutMs: number }): Promise<MalwareVerdict> {
  const address = clamdAddress(url);
  if (!address) return { status: "unscanned", reason: "ClamAV's address is not tcp://host:port or unix:///path." };
  const answer = await exchange(address, options.timeoutMs, (socket) => stream(socket, raw));
  return typeof answer === "string" ? parseClamdAnswer(answer) : answer;
}

/** Why clamd does not answer zPING with PONG (the doctor's check), or null when it does. */
export async function pingClamd(url: string, options: { timeoutMs: number }): Promise<string | null> {
  const address = clamdAddress(url);
  if (!address) return "ClamAV's address is not tcp://host:port or unix:///path.";
  const answer = await exchange(address, options.timeoutMs, (socket) =>
    write(socket, Buffer.from("zPING\0", "latin1")),
  );
  if (typeof answer !== "string") return answer.reason;
  return answer.trim() === "PONG" ? null : `clamd answered ${JSON.stringify(answer.slice(0, 40))}, not PONG.`;
}

/**
 * One answer line of the `z`-prefixed INSTREAM command, its NUL terminator
 * included or not: "stream: OK", "stream: <signature> FOUND", or an error
 * ending in "ERROR".
 */
export function parseClamdAnswer(answer: string): MalwareVerdict {
  const line = answer.replace(/\0$/, "").trim();
  if (line === "stream: OK") return { status: "clean" };
  const signature = /^stream: (\S.*) FOUND$/.exec(line)?.[1];
  if (signature) return { status: "infected", signature };
  if (line.startsWith(SIZE_LIMIT)) {
    return { status: "unscanned", reason: `The message is larger than clamd's StreamMaxLength (${SIZE_LIMIT}).` };
  }
  if (line.endsWith(" ERROR")) return { status: "unscanned", reason: "clamd could not scan the message." };
  return { status: "unscanned", reason: "clamd answered something other than a scan result." };
}

/** One command (what `send` writes) and clamd's one NUL-ended answer line. */
function exchange(
  address: NetConnectOpts,
  timeoutMs: number,
  send: (socket: Socket) => Promise<void>,
): Promise<string | { status: "unscanned"; reason: string }> {
  return new Promise((resolve) => {
    const socket = connect(address);
    let answer = "";
    let settled = false;
    const settle = (result: string | { status: "unscanned"; reason: string }) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    const timer = setTimeout(
      () => settle({ status: "unscanned", reason: `clamd did not answer within ${timeoutMs} ms.` }),
      timeoutMs,
    );
    socket.setEncoding("latin1");
    socket.on("data", (text: string) => {
      answer += text;
      if (answer.includes("\0")) settle(answer.slice(0, answer.indexOf("\0")));
    });
    // clamd closes after its answer; an early answer (the size limit) can meet our writes as EPIPE.
    socket.on("end", () =>
      settle(answer || { status: "unscanned", reason: "clamd closed the connection without an answer." }),
    );
    socket.on("error", (error: NodeJS.ErrnoException) => {
      // Closed while we still wrote: clamd's early answer (the size limit) may be lost with the reset.
      const cut = connected && (error.code === "EPIPE" || error.code === "ECONNRESET");
      const reason = cut
        ? "clamd closed the connection while the message was sent: it may be larger than clamd's StreamMaxLength."
        : `clamd is not reachable (${error.code ?? "connection failed"}).`;
      settle(answer || { status: "unscanned", reason });
    });
    let connected = false;
    socket.once("connect", () => {
      connected = true;
      void send(socket).catch(() => {});
    });
  });
}

/** zINSTREAM\0, then each chunk after its 4-byte big-endian length, then a zero length. */
async function stream(socket: Socket, raw: Buffer): Promise<void> {
  await write(socket, Buffer.from("zINSTREAM\0", "latin1"));
  for (let offset = 0; offset < raw.length; offset += CHUNK_BYTES) {
    const chunk = raw.subarray(offset, offset + CHUNK_BYTES);
    const length = Buffer.alloc(4);
    length.writeUInt32BE(chunk.length);
    await write(socket, Buffer.concat([length, chunk]));
  }
  await write(socket, Buffer.alloc(4));
}

/** Waits for the socket to take more when its buffer is full, or for it to close. */
function write(socket: Socket, bytes: Buffer): Promise<void> {
  if (socket.destroyed) return Promise.reject(new Error("closed"));
  if (socket.write(bytes)) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const done = () => {
      socket.off("drain", done);
      socket.off("close", closed);
      resolve();
    };
    const closed = () => {
      socket.off("drain", done);
      reject(new Error("closed"));
    };
    socket.once("drain", done);
    socket.once("close", closed);
  });
}
