-- AlterTable
ALTER TABLE "Email" ADD COLUMN     "autoSubmitted" TEXT;

-- AlterTable
ALTER TABLE "SentEmail" ADD COLUMN     "deliveryStatus" TEXT NOT NULL DEFAULT 'sent';

-- CreateTable
CREATE TABLE "RecipientReport" (
    "sentId" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "statusCode" TEXT,
    "diagnosticCode" TEXT,
    "remoteMta" TEXT,
    "at" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "RecipientReport_pkey" PRIMARY KEY ("sentId","recipient")
);

-- CreateTable
CREATE TABLE "Suppression" (
    "agentId" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "statusCode" TEXT,
    "sentId" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Suppression_pkey" PRIMARY KEY ("agentId","address")
);

-- CreateIndex
CREATE INDEX "Suppression_agentId_createdAt_idx" ON "Suppression"("agentId", "createdAt");

-- CreateIndex
CREATE INDEX "SentEmail_messageId_idx" ON "SentEmail"("messageId");

-- AddForeignKey
ALTER TABLE "RecipientReport" ADD CONSTRAINT "RecipientReport_sentId_fkey" FOREIGN KEY ("sentId") REFERENCES "SentEmail"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Suppression" ADD CONSTRAINT "Suppression_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

