import { request } from "node:http";
import { SPAM_ACTIONS, type SpamAction, type SpamVerdict } from "../../mailbox/inspection.ts";

// Spam verdicts from Rspamd, through its HTTP protocol (rspamd.com, "Rspamd
// protocol"): the raw message POSTed to /checkv2 with the SMTP envelope in
// Rspamd's own headers, a JSON answer back. A scanner that is down, slow or
// answers something else gives "unscanned" with a short reason: never a throw.
//
// No `Pass: all`: Rspamd may stop early once a verdict is settled (GTUBE, a
// pre-filter's reject), and the verdict is all that is kept. No `Hostname`:
// Rspamd looks up the client's PTR itself when none is given.

export interface SpamEnvelope {
  /** The SMTP client's address; null where the message came without one (a catch-all's copy). */
  clientAddress: string | null;
  helo: string | null;
  /** MAIL FROM's reverse-path: "" for the null sender `<>`, null when unknown. */
  mailFrom: string | null;
  recipients: string[];
}

/** Larger than any verdict Rspamd gives, even listing every URL of a large message. */
const ANSWER_LIMIT_BYTES = 16 * 1024 * 1024;

const CUT_SHORT = "Rspamd's answer was cut short.";

/** Scans a raw message; `timeoutMs` bounds the whole exchange, connecting included. */
export async function checkSpam(
  url: string,
  raw: Buffer,
  envelope: SpamEnvelope,
  options: { timeoutMs: number },
): Promise<SpamVerdict> {
  const endpoint = checkEndpoint(url);
  if (!endpoint) return { status: "unscanned", reason: "Rspamd's address is not an http:// URL." };
  const answer = await post(endpoint, raw, envelopeHeaders(envelope), options.timeoutMs);
  if (typeof answer !== "string") return answer;
  return parseRspamdAnswer(answer);
}

/** Why Rspamd does not answer GET /ping with "pong" (the doctor's check), or null when it does. */
export async function pingRspamd(url: string, options: { timeoutMs: number }): Promise<string | null> {
  const endpoint = checkEndpoint(url);
  if (!endpoint) return "Rspamd's address is not an http:// URL.";
  endpoint.pathname = endpoint.pathname.replace(/checkv2$/, "ping");
  try {
    const reply = await fetch(endpoint, { signal: AbortSignal.timeout(options.timeoutMs) });
    const text = (await reply.text()).trim();
    if (reply.ok && text === "pong") return null;
    return `Rspamd answered HTTP ${reply.status} ${JSON.stringify(text.slice(0, 40))}, not pong.`;
  } catch (error) {
    if (timedOut(error as Error)) return late(options.timeoutMs);
    const code = ((error as Error).cause as { code?: string } | undefined)?.code;
    return `Rspamd is not reachable (${code ?? "connection failed"}).`;
  }
}

/**
 * The JSON of a /checkv2 answer: action, score, required_score and the symbols
 * by name (sorted, so a verdict reads the same each time).
 */
export function parseRspamdAnswer(body: string): SpamVerdict {
  const garbage = { status: "unscanned", reason: "Rspamd answered something other than a verdict." } as const;
  let answer: unknown;
  try {
    answer = JSON.parse(body);
  } catch {
    return garbage;
  }
  if (typeof answer !== "object" || answer === null) return garbage;
  const { action, score, required_score: requiredScore, symbols } = answer as Record<string, unknown>;
  if (!SPAM_ACTIONS.includes(action as SpamAction)) return garbage;
  if (!Number.isFinite(score) || !Number.isFinite(requiredScore)) return garbage;
  if (typeof symbols !== "object" || symbols === null || Array.isArray(symbols)) return garbage;
  return {
    status: "scanned",
    action: action as SpamAction,
    score: score as number,
    requiredScore: requiredScore as number,
    symbols: Object.keys(symbols).sort(),
  };
}

function checkEndpoint(url: string): URL | null {
  try {
    const base = new URL(url);
    if (base.protocol !== "http:") return null;
    base.pathname = `${base.pathname.replace(/\/+$/, "")}/checkv2`;
    return base;
  } catch {
    return null;
  }
}

/**
 * Rspamd's envelope headers: IP, Helo, From, and one Rcpt per recipient (an
 * array makes node:http send one header line each). A value Rspamd could not
 * read as one header (a line break, a control character) is left out; UTF-8
 * (SMTPUTF8 addresses) goes as its bytes, which node:http writes as latin1.
 */
function envelopeHeaders(envelope: SpamEnvelope): Record<string, string | string[]> {
  const headers: Record<string, string | string[]> = {};
  // Node names an IPv4 client of a dual-stack listener as ::ffff:a.b.c.d; Rspamd's IPv4 rules want a.b.c.d.
  const ip = envelope.clientAddress && headerValue(envelope.clientAddress.replace(/^::ffff:(?=\d+\.)/i, ""));
  if (ip) headers.IP = ip;
  const helo = envelope.helo && headerValue(envelope.helo);
  if (helo) headers.Helo = helo;
  const from = envelope.mailFrom === "" ? "<>" : envelope.mailFrom && headerValue(envelope.mailFrom);
  if (from) headers.From = from;
  const recipients = envelope.recipients.map(headerValue).filter((value) => value !== null);
  if (recipients.length > 0) headers.Rcpt = recipients;
  return headers;
}

function headerValue(value: string): string | null {
  // biome-ignore lint/suspicious/noControlCharactersInRegex: control characters are what it refuses
  if (value.trim() === "" || /[\x00-\x1f\x7f]/.test(value)) return null;
  return Buffer.from(value.trim(), "utf8").toString("latin1");
}

function post(
  endpoint: URL,
  raw: Buffer,
  headers: Record<string, string | string[]>,
  timeoutMs: number,
): Promise<string | { status: "unscanned"; reason: string }> {
  return new Promise((resolve) => {
    const unscanned = (reason: string) => resolve({ status: "unscanned", reason });
    const call = request(
      endpoint,
      {
        method: "POST",
        headers: { ...headers, "Content-Length": String(raw.length) },
        signal: AbortSignal.timeout(timeoutMs),
      },
      (reply) => {
        if (reply.statusCode !== 200) {
          reply.resume();
          return unscanned(`Rspamd answered HTTP ${reply.statusCode}.`);
        }
        const chunks: Buffer[] = [];
        let length = 0;
        reply.on("data", (chunk: Buffer) => {
          length += chunk.length;
          if (length > ANSWER_LIMIT_BYTES) {
            reply.destroy();
            return unscanned("Rspamd answered something other than a verdict.");
          }
          chunks.push(chunk);
        });
        reply.on("end", () => resolve(Buffer.concat(chunks).toString("utf8")));
        // A timeout ends the answer with an error too, and says so first.
        reply.on("error", (error) => unscanned(timedOut(error) ? late(timeoutMs) : CUT_SHORT));
        reply.on("close", () => reply.complete || unscanned(CUT_SHORT));
      },
    );
    call.on("error", (error) => unscanned(failure(error, timeoutMs)));
    call.end(raw);
  });
}

function failure(error: Error & { code?: string }, timeoutMs: number): string {
  if (timedOut(error)) return late(timeoutMs);
  return `Rspamd is not reachable (${error.code ?? "connection failed"}).`;
}

/** AbortSignal.timeout's reason, as node:http passes it on. */
function timedOut(error: Error): boolean {
  return error.name === "AbortError" || error.name === "TimeoutError";
}

function late(timeoutMs: number): string {
  return `Rspamd did not answer within ${timeoutMs} ms.`;
}
