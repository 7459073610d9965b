// The spec's clocks, in one place.

export const UNVERIFIED_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const VERIFICATION_CODE_LIFETIME_MS = 15 * 60 * 1000;

/** An unverified agent past 24 hours is expired even before the cleanup job removes it. */
export function isExpired(agent: { createdAt: Date; verifiedAt: Date | null }, now: Date): boolean {
  return agent.verifiedAt === null && now.getTime() - agent.createdAt.getTime() >= UNVERIFIED_LIFETIME_MS;
}

/** Unverified agents created before this are expired. */
export function expiryCutoff(now: Date): Date {
  return new Date(now.getTime() - UNVERIFIED_LIFETIME_MS);
}
