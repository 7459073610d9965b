-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_ReviewLink" (
    "tokenHash" TEXT NOT NULL PRIMARY KEY,
    "agentId" TEXT NOT NULL,
    "draftId" TEXT,
    "quarantinedId" TEXT,
    "createdAt" DATETIME NOT NULL,
    "decision" TEXT,
    "decidedAt" DATETIME,
    "reason" TEXT,
    CONSTRAINT "ReviewLink_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ReviewLink" ("agentId", "createdAt", "decidedAt", "decision", "draftId", "reason", "tokenHash") SELECT "agentId", "createdAt", "decidedAt", "decision", "draftId", "reason", "tokenHash" FROM "ReviewLink";
DROP TABLE "ReviewLink";
ALTER TABLE "new_ReviewLink" RENAME TO "ReviewLink";
CREATE INDEX "ReviewLink_draftId_idx" ON "ReviewLink"("draftId");
CREATE INDEX "ReviewLink_quarantinedId_idx" ON "ReviewLink"("quarantinedId");
CREATE INDEX "ReviewLink_decidedAt_idx" ON "ReviewLink"("decidedAt");
CREATE TABLE "new_ReviewNotice" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "draftId" TEXT,
    "quarantinedId" TEXT,
    "channel" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "secret" TEXT,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" DATETIME,
    "claimedUntil" DATETIME,
    "lastError" TEXT,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "ReviewNotice_draftId_fkey" FOREIGN KEY ("draftId") REFERENCES "Draft" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ReviewNotice_quarantinedId_fkey" FOREIGN KEY ("quarantinedId") REFERENCES "Quarantined" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_ReviewNotice" ("attempts", "channel", "claimedUntil", "createdAt", "draftId", "id", "lastError", "nextAttemptAt", "payload", "secret", "status", "target") SELECT "attempts", "channel", "claimedUntil", "createdAt", "draftId", "id", "lastError", "nextAttemptAt", "payload", "secret", "status", "target" FROM "ReviewNotice";
DROP TABLE "ReviewNotice";
ALTER TABLE "new_ReviewNotice" RENAME TO "ReviewNotice";
CREATE INDEX "ReviewNotice_status_nextAttemptAt_idx" ON "ReviewNotice"("status", "nextAttemptAt");
CREATE INDEX "ReviewNotice_draftId_idx" ON "ReviewNotice"("draftId");
CREATE INDEX "ReviewNotice_quarantinedId_idx" ON "ReviewNotice"("quarantinedId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

