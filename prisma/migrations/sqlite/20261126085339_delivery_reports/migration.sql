-- AlterTable
ALTER TABLE "Email" ADD COLUMN "autoSubmitted" TEXT;

-- CreateTable
CREATE TABLE "RecipientReport" (
    "sentId" TEXT NOT NULL,
    "recipient" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "action" TEXT NOT NULL,
    "statusCode" TEXT,
    "diagnosticCode" TEXT,
    "remoteMta" TEXT,
    "at" DATETIME NOT NULL,

    PRIMARY KEY ("sentId", "recipient"),
    CONSTRAINT "RecipientReport_sentId_fkey" FOREIGN KEY ("sentId") REFERENCES "SentEmail" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Suppression" (
    "agentId" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "reason" TEXT NOT NULL,
    "statusCode" TEXT,
    "sentId" TEXT,
    "createdAt" DATETIME NOT NULL,

    PRIMARY KEY ("agentId", "address"),
    CONSTRAINT "Suppression_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_SentEmail" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agentId" TEXT NOT NULL,
    "toList" TEXT NOT NULL DEFAULT '[]',
    "ccList" TEXT NOT NULL DEFAULT '[]',
    "bccList" TEXT NOT NULL DEFAULT '[]',
    "subject" TEXT NOT NULL,
    "bodyText" TEXT,
    "bodyHtml" TEXT,
    "replyTo" TEXT,
    "messageId" TEXT NOT NULL,
    "providerId" TEXT,
    "size" INTEGER NOT NULL,
    "sentAt" DATETIME NOT NULL,
    "inReplyTo" TEXT,
    "references" TEXT,
    "threadId" TEXT NOT NULL,
    "deliveryStatus" TEXT NOT NULL DEFAULT 'sent',
    CONSTRAINT "SentEmail_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "SentEmail_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_SentEmail" ("agentId", "bccList", "bodyHtml", "bodyText", "ccList", "id", "inReplyTo", "messageId", "providerId", "references", "replyTo", "sentAt", "size", "subject", "threadId", "toList") SELECT "agentId", "bccList", "bodyHtml", "bodyText", "ccList", "id", "inReplyTo", "messageId", "providerId", "references", "replyTo", "sentAt", "size", "subject", "threadId", "toList" FROM "SentEmail";
DROP TABLE "SentEmail";
ALTER TABLE "new_SentEmail" RENAME TO "SentEmail";
CREATE INDEX "SentEmail_agentId_sentAt_id_idx" ON "SentEmail"("agentId", "sentAt", "id");
CREATE INDEX "SentEmail_threadId_sentAt_idx" ON "SentEmail"("threadId", "sentAt");
CREATE INDEX "SentEmail_messageId_idx" ON "SentEmail"("messageId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Suppression_agentId_createdAt_idx" ON "Suppression"("agentId", "createdAt");

