-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "dailySendLimit" INTEGER,
ADD COLUMN     "storageLimit" INTEGER,
ADD COLUMN     "verifiedBy" TEXT;

-- AlterTable
ALTER TABLE "Email" ADD COLUMN     "trashedAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Email_trashedAt_idx" ON "Email"("trashedAt");


-- Agents verified before this migration were verified by a post on X; mail
-- already in the trash starts its retention now.
UPDATE "Agent" SET "verifiedBy" = 'social' WHERE "verifiedAt" IS NOT NULL;
UPDATE "Email" SET "trashedAt" = CURRENT_TIMESTAMP WHERE "folder" = 'trash';
