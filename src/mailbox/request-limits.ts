import { hash } from "node:crypto";
import {
  BurstyRateLimiter,
  type IRateLimiterOptions,
  RateLimiterMemory,
  RateLimiterPostgres,
  RateLimiterRes,
} from "rate-limiter-flexible";
import type { Config } from "../config.ts";
import type { Database } from "../db/client.ts";
import { ServiceError } from "../errors.ts";

// How fast one API key may call, and how often one client address may
// register: counted in the database on PostgreSQL, so that every instance
// counts together, and in memory on SQLite (one instance). Distinct from the
// spec's sending quotas: REQUEST_RATE_LIMITED, with Retry-After and the IETF
// RateLimit-Policy and RateLimit headers.

export interface RequestLimits {
  /** One request with this key (as presented, valid or not): refused with 429 past the rate. */
  perKey(apiKey: string): Promise<void>;
  /** One registration from this client address. */
  registration(clientIp: string): Promise<void>;
}

interface Limiter {
  consume(key: string): Promise<RateLimiterRes>;
}

const BURST_WINDOW_SECONDS = 10;

/** A counter of `points` per `seconds`, in the database on PostgreSQL. */
function counter(database: Database, name: string, points: number, seconds: number) {
  const options: IRateLimiterOptions = { keyPrefix: name, points, duration: seconds };
  if (!database.pool) return new RateLimiterMemory(options);
  return new RateLimiterPostgres({
    ...options,
    storeClient: database.pool,
    storeType: "pool",
    schemaName: database.schema,
    tableName: "RateLimit",
    tableCreated: true,
  });
}

/** What a refusal answers with: when to retry, and the policy and its state as the IETF draft words them. */
function refusal(name: string, quota: number, window: number, res: RateLimiterRes, message: string): ServiceError {
  const retryAfter = Math.max(1, Math.ceil(res.msBeforeNext / 1000));
  return new ServiceError(
    "RATE_LIMITED",
    `${message}; retry in ${retryAfter} s`,
    { code: "REQUEST_RATE_LIMITED", retryAfter },
    {
      "Retry-After": String(retryAfter),
      "RateLimit-Policy": `"${name}";q=${quota};w=${window}`,
      RateLimit: `"${name}";r=0;t=${retryAfter}`,
    },
  );
}

/** One point off the limiter's count for the key, worked out only when a limit is set. */
async function consumePoint(limiter: Limiter | null, key: () => string, refuse: (res: RateLimiterRes) => ServiceError) {
  if (!limiter) return;
  try {
    await limiter.consume(key());
  } catch (error) {
    if (error instanceof RateLimiterRes) throw refuse(error);
    throw error;
  }
}

export function createRequestLimits(config: Config, database: Database): RequestLimits {
  const rate = config.rateLimitRequestsPerSecond;
  // The steady rate, and on top of it as much again once in a while: bursts up to twice the rate.
  const perKey =
    rate > 0
      ? new BurstyRateLimiter(
          counter(database, "key", rate, 1),
          counter(database, "key_burst", rate, BURST_WINDOW_SECONDS),
        )
      : null;
  const hourly = config.rateLimitRegistrationsPerHour;
  const registrations = hourly > 0 ? counter(database, "registration", hourly, 3600) : null;
  return {
    perKey: (apiKey) =>
      consumePoint(
        perKey,
        () => hash("sha256", apiKey, "base64url"),
        (res) => refusal("key", rate, 1, res, `More than ${rate} requests a second with this API key`),
      ),
    registration: (clientIp) =>
      consumePoint(
        registrations,
        () => clientIp,
        (res) =>
          refusal("registration", hourly, 3600, res, `More than ${hourly} registrations an hour from this address`),
      ),
  };
}
