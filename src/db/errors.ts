/** A write refused by a unique constraint (Prisma's P2002), from either generated client. */
export function isUniqueViolation(error: unknown): boolean {
  return typeof error === "object" && error !== null && (error as { code?: unknown }).code === "P2002";
}
