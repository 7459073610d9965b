-- AlterTable
ALTER TABLE "Draft" ADD COLUMN "claimedUntil" DATETIME;
ALTER TABLE "Draft" ADD COLUMN "failureCode" TEXT;
ALTER TABLE "Draft" ADD COLUMN "failureMessage" TEXT;
ALTER TABLE "Draft" ADD COLUMN "sendAt" DATETIME;

-- CreateIndex
CREATE INDEX "Draft_sendStatus_sendAt_idx" ON "Draft"("sendStatus", "sendAt");

