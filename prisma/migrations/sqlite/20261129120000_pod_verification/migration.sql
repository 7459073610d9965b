-- AlterTable
ALTER TABLE "Pod" ADD COLUMN "claimTokenHash" TEXT;
ALTER TABLE "Pod" ADD COLUMN "socialUsername" TEXT;
ALTER TABLE "Pod" ADD COLUMN "verificationCode" TEXT;
ALTER TABLE "Pod" ADD COLUMN "verificationExpires" DATETIME;
ALTER TABLE "Pod" ADD COLUMN "verifiedAt" DATETIME;
ALTER TABLE "Pod" ADD COLUMN "verifiedBy" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Pod_claimTokenHash_key" ON "Pod"("claimTokenHash");

-- CreateIndex
CREATE UNIQUE INDEX "Pod_socialUsername_key" ON "Pod"("socialUsername");

-- Pods made before pods were verified: the operator vouched for them by making them, and their keys made verified
-- agents; they stay so.
UPDATE "Pod" SET "verifiedAt" = "createdAt", "verifiedBy" = 'admin';
