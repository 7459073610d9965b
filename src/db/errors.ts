/** A write refused by a unique constraint or a primary key: Prisma's P2002, SQLite's or PostgreSQL's own code. */
export function isUniqueViolation(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return (
    code === "P2002" ||
    code === "SQLITE_CONSTRAINT_UNIQUE" ||
    code === "SQLITE_CONSTRAINT_PRIMARYKEY" ||
    code === "23505"
  );
}

/**
 * A write that needed a row deleted meanwhile (P2025: no record to update;
 * P2003 and the drivers' foreign-key codes: the row it points at is gone),
 * as when an agent is deleted while one of its requests runs.
 */
export function isVanishedRow(error: unknown): boolean {
  const code = typeof error === "object" && error !== null ? (error as { code?: unknown }).code : undefined;
  return code === "P2025" || code === "P2003" || code === "SQLITE_CONSTRAINT_FOREIGNKEY" || code === "23503";
}
