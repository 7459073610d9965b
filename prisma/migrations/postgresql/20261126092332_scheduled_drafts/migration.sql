-- AlterTable
ALTER TABLE "Draft" ADD COLUMN     "claimedUntil" TIMESTAMP(3),
ADD COLUMN     "failureCode" TEXT,
ADD COLUMN     "failureMessage" TEXT,
ADD COLUMN     "sendAt" TIMESTAMP(3);

-- CreateIndex
CREATE INDEX "Draft_sendStatus_sendAt_idx" ON "Draft"("sendStatus", "sendAt");

