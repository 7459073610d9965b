// The spec's clocks, in one place.

export const UNVERIFIED_LIFETIME_HOURS = 24;
export const UNVERIFIED_LIFETIME_MS = UNVERIFIED_LIFETIME_HOURS * 60 * 60 * 1000;
export const VERIFICATION_CODE_MINUTES = 15;
export const VERIFICATION_CODE_LIFETIME_MS = VERIFICATION_CODE_MINUTES * 60 * 1000;
/** The longest a request may take before it is answered 503. */
export const REQUEST_TIMEOUT_MS = 30_000;

/** An unverified agent created at or before this time is expired, even before the cleanup job removes it. */
export const expiryCutoff = (now: Date) => new Date(now.getTime() - UNVERIFIED_LIFETIME_MS);

export function isExpired(agent: { createdAt: Date; verifiedAt: Date | null }, now: Date): boolean {
  return agent.verifiedAt === null && agent.createdAt <= expiryCutoff(now);
}
