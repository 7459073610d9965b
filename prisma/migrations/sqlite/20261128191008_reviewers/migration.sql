-- AlterTable
ALTER TABLE "Agent" ADD COLUMN "reviewerEmail" TEXT;
ALTER TABLE "Agent" ADD COLUMN "reviewerWebhookSecret" TEXT;
ALTER TABLE "Agent" ADD COLUMN "reviewerWebhookUrl" TEXT;

-- CreateTable
CREATE TABLE "ReviewLink" (
    "tokenHash" TEXT NOT NULL PRIMARY KEY,
    "agentId" TEXT NOT NULL,
    "draftId" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "decision" TEXT,
    "decidedAt" DATETIME,
    "reason" TEXT,
    CONSTRAINT "ReviewLink_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ReviewNotice" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "draftId" TEXT NOT NULL,
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
    CONSTRAINT "ReviewNotice_draftId_fkey" FOREIGN KEY ("draftId") REFERENCES "Draft" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Each decided draft's link, as the draft kept it, and what became of it. The links of messages still
-- held were handed to their agents: they die here, and the operator decides those (GET /admin/held).
INSERT INTO "ReviewLink" ("tokenHash", "agentId", "draftId", "createdAt", "decision", "decidedAt", "reason")
SELECT "reviewTokenHash", "agentId", "id", "updatedAt",
  CASE WHEN "sendStatus" = 'rejected' AND "rejectReason" = 'expired' THEN 'expired'
       WHEN "sendStatus" = 'rejected' THEN 'rejected'
       ELSE 'approved' END,
  COALESCE("approvedAt", "updatedAt"),
  CASE WHEN "sendStatus" = 'rejected' AND "rejectReason" <> 'expired' THEN "rejectReason" END
FROM "Draft" WHERE "reviewTokenHash" IS NOT NULL AND "sendStatus" <> 'pending_approval';

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Draft" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agentId" TEXT NOT NULL,
    "toList" TEXT NOT NULL DEFAULT '[]',
    "ccList" TEXT NOT NULL DEFAULT '[]',
    "bccList" TEXT NOT NULL DEFAULT '[]',
    "subject" TEXT,
    "bodyText" TEXT,
    "bodyHtml" TEXT,
    "replyTo" TEXT,
    "attachments" TEXT NOT NULL DEFAULT '[]',
    "inReplyTo" TEXT,
    "inReplyToMessageId" TEXT,
    "references" TEXT,
    "threadId" TEXT,
    "autoSubmitted" TEXT NOT NULL DEFAULT 'auto-generated',
    "sendStatus" TEXT NOT NULL DEFAULT 'draft',
    "sendAt" DATETIME,
    "claimedUntil" DATETIME,
    "failureCode" TEXT,
    "failureMessage" TEXT,
    "reviewExpiresAt" DATETIME,
    "approvedAt" DATETIME,
    "rejectReason" TEXT,
    "size" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Draft_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Draft" ("agentId", "approvedAt", "attachments", "autoSubmitted", "bccList", "bodyHtml", "bodyText", "ccList", "claimedUntil", "createdAt", "failureCode", "failureMessage", "id", "inReplyTo", "inReplyToMessageId", "references", "rejectReason", "replyTo", "reviewExpiresAt", "sendAt", "sendStatus", "size", "subject", "threadId", "toList", "updatedAt") SELECT "agentId", "approvedAt", "attachments", "autoSubmitted", "bccList", "bodyHtml", "bodyText", "ccList", "claimedUntil", "createdAt", "failureCode", "failureMessage", "id", "inReplyTo", "inReplyToMessageId", "references", "rejectReason", "replyTo", "reviewExpiresAt", "sendAt", "sendStatus", "size", "subject", "threadId", "toList", "updatedAt" FROM "Draft";
DROP TABLE "Draft";
ALTER TABLE "new_Draft" RENAME TO "Draft";
CREATE INDEX "Draft_agentId_createdAt_id_idx" ON "Draft"("agentId", "createdAt", "id");
CREATE INDEX "Draft_sendStatus_sendAt_idx" ON "Draft"("sendStatus", "sendAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "ReviewLink_draftId_idx" ON "ReviewLink"("draftId");

-- CreateIndex
CREATE INDEX "ReviewLink_decidedAt_idx" ON "ReviewLink"("decidedAt");

-- CreateIndex
CREATE INDEX "ReviewNotice_status_nextAttemptAt_idx" ON "ReviewNotice"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "ReviewNotice_draftId_idx" ON "ReviewNotice"("draftId");


-- Review links go to a person, never to the agent: none is kept where the agent reads.
UPDATE "Event" SET "data" = json_remove("data", '$.reviewUrl') WHERE "type" = 'email.held';
UPDATE "WebhookDelivery" SET "payload" = json_remove("payload", '$.data.reviewUrl') WHERE "payload" LIKE '%"reviewUrl"%';
UPDATE "IdempotencyKey" SET "answer" = json_remove("answer", '$.value.pending.reviewUrl') WHERE "answer" LIKE '%"reviewUrl"%';
