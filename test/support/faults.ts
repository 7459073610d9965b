import type { TestService } from "./service.ts";

// Faults of the database, made by the database itself: a trigger that
// refuses one message, as a fault tied to that message would.

/** Makes the database refuse to store an email with this subject; what it returns takes the fault away. */
export async function refuseSubject(svc: TestService, subject: string): Promise<() => Promise<void>> {
  const { prisma } = svc.service.services;
  if (process.env.TEST_DATABASE === "postgresql") {
    await prisma.$executeRawUnsafe(`CREATE FUNCTION refuse_poison() RETURNS trigger LANGUAGE plpgsql AS $$
      BEGIN IF NEW."subject" = '${subject}' THEN RAISE EXCEPTION 'refused'; END IF; RETURN NEW; END $$`);
    await prisma.$executeRawUnsafe(
      `CREATE TRIGGER refuse_poison BEFORE INSERT ON "Email" FOR EACH ROW EXECUTE FUNCTION refuse_poison()`,
    );
    return async () => {
      await prisma.$executeRawUnsafe(`DROP TRIGGER refuse_poison ON "Email"`);
    };
  }
  await prisma.$executeRawUnsafe(`CREATE TRIGGER refuse_poison BEFORE INSERT ON "Email"
    WHEN NEW."subject" = '${subject}' BEGIN SELECT RAISE(ABORT, 'refused'); END`);
  return async () => {
    await prisma.$executeRawUnsafe("DROP TRIGGER refuse_poison");
  };
}
