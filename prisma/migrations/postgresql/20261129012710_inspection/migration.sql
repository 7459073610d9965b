-- What inbound inspection found: Rspamd's and clamd's verdicts and the
-- prompt-injection screening on each filed email, a screening policy per
-- agent, and the quarantine, where held messages wait outside the mailbox.
-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "screeningPolicy" TEXT NOT NULL DEFAULT 'screen';

-- AlterTable
ALTER TABLE "Email" ADD COLUMN     "malwareStatus" TEXT,
ADD COLUMN     "screening" TEXT NOT NULL DEFAULT 'clear',
ADD COLUMN     "screeningSignals" JSONB NOT NULL DEFAULT '[]',
ADD COLUMN     "spam" BOOLEAN NOT NULL DEFAULT false,
ADD COLUMN     "spamAction" TEXT,
ADD COLUMN     "spamRequired" DOUBLE PRECISION,
ADD COLUMN     "spamScore" DOUBLE PRECISION,
ADD COLUMN     "spamStatus" TEXT,
ADD COLUMN     "spamSymbols" JSONB NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "Quarantined" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "detail" TEXT NOT NULL,
    "fromAddress" TEXT NOT NULL,
    "subject" TEXT,
    "size" INTEGER NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL,
    "raw" BYTEA NOT NULL,
    "arrival" JSONB NOT NULL,
    "dedupeKey" TEXT NOT NULL,

    CONSTRAINT "Quarantined_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "Quarantined_receivedAt_id_idx" ON "Quarantined"("receivedAt", "id");

-- CreateIndex
CREATE INDEX "Quarantined_agentId_receivedAt_idx" ON "Quarantined"("agentId", "receivedAt");

-- AddForeignKey
ALTER TABLE "Quarantined" ADD CONSTRAINT "Quarantined_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

