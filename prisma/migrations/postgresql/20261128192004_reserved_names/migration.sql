-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "createdBy" TEXT NOT NULL DEFAULT 'self';

-- AlterTable
ALTER TABLE "Domain" ADD COLUMN     "open" BOOLEAN NOT NULL DEFAULT false;

-- Domains added before they could be closed took registrations then: they stay open until the operator closes them.
UPDATE "Domain" SET "open" = true;
