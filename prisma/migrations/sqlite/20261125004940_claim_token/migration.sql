-- AlterTable
ALTER TABLE "Agent" ADD COLUMN "claimTokenHash" TEXT;

-- CreateIndex
CREATE UNIQUE INDEX "Agent_claimTokenHash_key" ON "Agent"("claimTokenHash");

