import { AsyncLocalStorage } from "node:async_hooks";
import pino from "pino";

/** One structured line per event. */
export type Logger = (level: "info" | "warn" | "error", event: string, fields?: Record<string, unknown>) => void;

/** The request a line is logged for: its id, and the agent once its key is known. */
export interface RequestScope {
  requestId: string;
  agentId: string | null;
  /** The client's address: the socket's, or with TRUST_PROXY the first of X-Forwarded-For. */
  clientIp: string;
  /** Statements sent to the database for it so far (src/db/statements.ts). */
  statements: number;
}

/** Set around each HTTP request, so that whatever logs during it names the request. */
export const requestScope = new AsyncLocalStorage<RequestScope>();

export const LOG_LEVELS = ["debug", "info", "warn", "error", "silent"] as const;
export type LogLevel = (typeof LOG_LEVELS)[number];

/** A password in a URL, a bearer credential, an API key, claim or review token, wherever a string holds one. */
const SECRETS: [RegExp, string][] = [
  [/\b([a-z][a-z0-9+.-]*:\/\/[^:/?#\s@]*:)[^@\s/]*@/gi, "$1[redacted]@"],
  [/\b(Bearer\s+)\S+/gi, "$1[redacted]"],
  [/\b(?:ph|cmail|pv|pr|whsec)_[A-Za-z0-9_-]{16,}/g, "[redacted]"],
];

/** What each of SECRETS needs in a string to match at all: one test spares every log line's words three replaces. */
const MAY_HOLD_SECRET = /:\/\/|bearer|(?:ph|cmail|pv|pr|whsec)_/i;

/** Fields that hold a secret by their name. */
const SECRET_FIELDS = /^(authorization|apikey|claimtoken|password|secret|token)$/i;

export function redacted(value: unknown): unknown {
  if (typeof value === "string") {
    if (!MAY_HOLD_SECRET.test(value)) return value;
    return SECRETS.reduce((text, [pattern, by]) => text.replace(pattern, by), value);
  }
  if (Array.isArray(value)) return value.map(redacted);
  if (typeof value !== "object" || value === null) return value;
  // A loop, not entries and fromEntries: every request's log line comes through here.
  const clean: Record<string, unknown> = {};
  for (const [name, inner] of Object.entries(value)) {
    clean[name] = SECRET_FIELDS.test(name) ? "[redacted]" : redacted(inner);
  }
  return clean;
}

/** pino's isoTime, written once a millisecond: under load, lines of the same millisecond share it. */
function isoTimeOnce(): () => string {
  let at = Number.NaN;
  let time = "";
  return () => {
    const now = Date.now();
    if (now !== at) {
      at = now;
      time = `,"time":"${new Date(now).toISOString()}"`;
    }
    return time;
  };
}

/** JSON lines through pino at LOG_LEVEL: the time, level and event first, the request's id when there is one. */
export function jsonLogger(level: LogLevel): Logger {
  const logger = pino({
    level,
    base: undefined,
    timestamp: isoTimeOnce(),
    formatters: { level: (label) => ({ level: label }) },
  });
  return (lineLevel, event, fields = {}) => {
    const scope = requestScope.getStore();
    const line = redacted({ event, ...(scope ? { requestId: scope.requestId } : {}), ...fields }) as object;
    logger[lineLevel](line);
  };
}

/** A fault for a log line: its kind and gist, never a stack, a source path or a statement. */
export function describeFault(error: unknown): string {
  if (!(error instanceof Error)) return `a thrown ${typeof error}`;
  const code = (error as { code?: unknown }).code;
  // Prisma puts the call site and the query first; the last line says what happened.
  const gist =
    error.message
      .split("\n")
      .map((line) => line.trim())
      .filter(Boolean)
      .at(-1) ?? "";
  const kind = typeof code === "string" ? `${error.name} ${code}` : error.name;
  return `${kind}: ${gist.replace(/(?:[A-Za-z]:)?(?:[\\/][\w.@-]+){2,}/g, "<path>")}`.slice(0, 300);
}

/** How a fault behind a request is reported: one line in the log, nothing of it to the client. */
export const requestFault = (log: Logger) => (fault: unknown) =>
  log("error", "request_failed", { error: describeFault(fault) });
