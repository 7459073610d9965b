import { createHash } from "node:crypto";
import { claimKey, keepAnswer, keptKey, releaseKey, takeKeyOver } from "../db/idempotency.ts";
import { type ErrorDetails, type ErrorKind, ServiceError } from "../errors.ts";
import type { Services } from "./services.ts";

// Safe retries: the first request with an Idempotency-Key does the work and
// its answer is kept; the same key from the same agent within 24 hours gets
// that answer again, the work not done twice. Kept in the database, so it
// holds across instances and restarts.

export const KEY_LIFETIME_HOURS = 24;
export const KEY_LIFETIME_MS = KEY_LIFETIME_HOURS * 3_600_000;
/** A request in flight this long belonged to an instance that died: a retry may take it over. */
const ABANDONED_MS = 15 * 60_000;

/** How an answer is kept and brought back. */
export interface AnswerCodec<T> {
  encode(value: T): unknown;
  decode(stored: unknown): T;
}

interface Kept {
  value?: unknown;
  error?: { kind: ErrorKind; message: string; details: ErrorDetails };
}

/** The same JSON for the same request, whatever order its fields came in. */
function canonical(value: unknown): string {
  if (Array.isArray(value)) return `[${value.map(canonical).join(",")}]`;
  if (value && typeof value === "object") {
    const entries = Object.entries(value).filter(([, v]) => v !== undefined && v !== null);
    entries.sort(([a], [b]) => (a < b ? -1 : 1));
    return `{${entries.map(([k, v]) => `${JSON.stringify(k)}:${canonical(v)}`).join(",")}}`;
  }
  return JSON.stringify(value);
}

function checkedKey(key: string): string {
  if (!/^[\x20-\x7e]{1,255}$/.test(key)) {
    throw new ServiceError("BAD_REQUEST", "Idempotency-Key must be 1-255 printable ASCII characters");
  }
  return key;
}

/** Claims the key for this request: true when the work is ours to do, else the kept answer (or a refusal). */
async function claim(services: Services, agentId: string, key: string, fingerprint: string): Promise<true | Kept> {
  const now = services.clock.now();
  if (await claimKey(services, agentId, key, fingerprint, now)) return true;
  const row = await keptKey(services, agentId, key);
  if (!row) return claim(services, agentId, key, fingerprint);
  const age = now.getTime() - row.createdAt.getTime();
  const stale = age >= KEY_LIFETIME_MS || (row.status === null && age >= ABANDONED_MS);
  if (stale) {
    if (await takeKeyOver(services, row, fingerprint, now)) return true;
    return claim(services, agentId, key, fingerprint);
  }
  if (row.fingerprint !== fingerprint) {
    throw new ServiceError("UNPROCESSABLE_CONTENT", "This Idempotency-Key was used with a different request", {
      code: "IDEMPOTENCY_KEY_REUSED",
    });
  }
  if (row.status === null) {
    throw new ServiceError("CONFLICT", "A request with this Idempotency-Key is still in progress; retry shortly", {
      code: "IDEMPOTENCY_KEY_IN_USE",
    });
  }
  return (row.answer ?? {}) as Kept;
}

async function keep(services: Services, agentId: string, key: string, status: number, kept: Kept): Promise<void> {
  await keepAnswer(services, agentId, key, status, kept);
}

/**
 * Runs the work once per key: without a key, simply runs it. The first
 * answer, a value or an error of ours, is what every retry gets. A fault of
 * ours is not kept: the key is let go, and a retry does the work.
 */
export async function runOnce<T>(
  services: Services,
  agentId: string,
  key: string | null | undefined,
  request: { operation: string; input: unknown; hidden?: string | null },
  codec: AnswerCodec<T>,
  work: () => Promise<T>,
): Promise<T> {
  if (key == null) return work();
  const fingerprint = createHash("sha256").update(canonical(request)).digest("hex");
  const claimed = await claim(services, agentId, checkedKey(key), fingerprint);
  if (claimed !== true) {
    if (claimed.error) throw new ServiceError(claimed.error.kind, claimed.error.message, claimed.error.details);
    return codec.decode(claimed.value);
  }
  try {
    const value = await work();
    await keep(services, agentId, key, 201, { value: codec.encode(value) });
    return value;
  } catch (error) {
    if (error instanceof ServiceError) {
      const { kind, message, details } = error;
      await keep(services, agentId, key, error.status, { error: { kind, message, details } });
    } else {
      await releaseKey(services, agentId, key);
    }
    throw error;
  }
}
