-- AlterTable
ALTER TABLE "Agent" ADD COLUMN "dailySendLimit" INTEGER;
ALTER TABLE "Agent" ADD COLUMN "storageLimit" INTEGER;
ALTER TABLE "Agent" ADD COLUMN "verifiedBy" TEXT;

-- AlterTable
ALTER TABLE "Email" ADD COLUMN "trashedAt" DATETIME;

-- CreateIndex
CREATE INDEX "Email_trashedAt_idx" ON "Email"("trashedAt");


-- Agents verified before this migration were verified by a post on X; mail
-- already in the trash starts its retention now.
UPDATE "Agent" SET "verifiedBy" = 'social' WHERE "verifiedAt" IS NOT NULL;
UPDATE "Email" SET "trashedAt" = strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now') WHERE "folder" = 'trash';
