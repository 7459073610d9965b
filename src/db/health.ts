import type { Store } from "./client.ts";

// Whether the database answers, for /healthz, /readyz and doctor.

/** Resolves once the database answered a round trip; rejects when it cannot be reached. */
export async function pingDatabase({ prisma }: Pick<Store, "prisma">): Promise<void> {
  // Raw: Prisma has no call that only asks the database to answer, and SELECT 1 reads no table.
  await prisma.$queryRaw`SELECT 1`;
}
