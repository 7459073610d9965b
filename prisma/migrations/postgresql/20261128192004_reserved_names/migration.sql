-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "createdBy" TEXT NOT NULL DEFAULT 'self';

-- AlterTable
ALTER TABLE "Domain" ADD COLUMN     "open" BOOLEAN NOT NULL DEFAULT false;

