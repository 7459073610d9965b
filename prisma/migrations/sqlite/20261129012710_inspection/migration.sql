-- What inbound inspection found: Rspamd's and clamd's verdicts and the
-- prompt-injection screening on each filed email, a screening policy per
-- agent, and the quarantine, where held messages wait outside the mailbox.
-- Columns are added in place: a copy of "Email" would renumber its rowids,
-- which its search index ("EmailSearch") is keyed by.
ALTER TABLE "Agent" ADD COLUMN "screeningPolicy" TEXT NOT NULL DEFAULT 'screen';

ALTER TABLE "Email" ADD COLUMN "spamStatus" TEXT;
ALTER TABLE "Email" ADD COLUMN "spamAction" TEXT;
ALTER TABLE "Email" ADD COLUMN "spamScore" REAL;
ALTER TABLE "Email" ADD COLUMN "spamRequired" REAL;
ALTER TABLE "Email" ADD COLUMN "spamSymbols" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "Email" ADD COLUMN "spam" BOOLEAN NOT NULL DEFAULT false;
ALTER TABLE "Email" ADD COLUMN "malwareStatus" TEXT;
ALTER TABLE "Email" ADD COLUMN "screening" TEXT NOT NULL DEFAULT 'clear';
ALTER TABLE "Email" ADD COLUMN "screeningSignals" JSONB NOT NULL DEFAULT '[]';

CREATE TABLE "Quarantined" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agentId" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "detail" TEXT NOT NULL,
    "fromAddress" TEXT NOT NULL,
    "subject" TEXT,
    "size" INTEGER NOT NULL,
    "receivedAt" DATETIME NOT NULL,
    "raw" BLOB NOT NULL,
    "arrival" JSONB NOT NULL,
    "dedupeKey" TEXT NOT NULL,
    CONSTRAINT "Quarantined_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
CREATE INDEX "Quarantined_receivedAt_id_idx" ON "Quarantined"("receivedAt", "id");
CREATE INDEX "Quarantined_agentId_receivedAt_idx" ON "Quarantined"("agentId", "receivedAt");
