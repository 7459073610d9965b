// The spec's clocks, in one place.

export const UNVERIFIED_LIFETIME_MS = 24 * 60 * 60 * 1000;
export const VERIFICATION_CODE_LIFETIME_MS = 15 * 60 * 1000;

/** An unverified agent past 24 hours is expired even before the cleanup job removes it. */
export function isExpired(agent: { createdAt: Date; verifiedAt: Date | null }, now: Date): boolean {
  return agent.verifiedAt === null && now.getTime() - agent.createdAt.getTime() >= UNVERIFIED_LIFETIME_MS;
}

/** isExpired as a query filter: unverified agents created 24 hours or more before now. */
export function expiredAgents(now: Date) {
  return { verifiedAt: null, createdAt: { lte: new Date(now.getTime() - UNVERIFIED_LIFETIME_MS) } };
}
