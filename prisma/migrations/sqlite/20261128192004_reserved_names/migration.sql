-- AlterTable
-- Added in place (SQLite takes a NOT NULL column with a constant default), rather than by copying the tables.
ALTER TABLE "Agent" ADD COLUMN "createdBy" TEXT NOT NULL DEFAULT 'self';

-- AlterTable
ALTER TABLE "Domain" ADD COLUMN "open" BOOLEAN NOT NULL DEFAULT false;
