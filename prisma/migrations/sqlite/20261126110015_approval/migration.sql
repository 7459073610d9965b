-- AlterTable
ALTER TABLE "Agent" ADD COLUMN "sendPolicy" TEXT;

-- CreateTable
CREATE TABLE "ApprovedRecipient" (
    "agentId" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "approvedAt" DATETIME NOT NULL,

    PRIMARY KEY ("agentId", "address"),
    CONSTRAINT "ApprovedRecipient_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

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
    "reviewTokenHash" TEXT,
    "reviewExpiresAt" DATETIME,
    "approvedAt" DATETIME,
    "rejectReason" TEXT,
    "size" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Draft_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Draft" ("agentId", "attachments", "bccList", "bodyHtml", "bodyText", "ccList", "claimedUntil", "createdAt", "failureCode", "failureMessage", "id", "inReplyTo", "replyTo", "sendAt", "sendStatus", "size", "subject", "toList", "updatedAt") SELECT "agentId", "attachments", "bccList", "bodyHtml", "bodyText", "ccList", "claimedUntil", "createdAt", "failureCode", "failureMessage", "id", "inReplyTo", "replyTo", "sendAt", "sendStatus", "size", "subject", "toList", "updatedAt" FROM "Draft";
DROP TABLE "Draft";
ALTER TABLE "new_Draft" RENAME TO "Draft";
CREATE UNIQUE INDEX "Draft_reviewTokenHash_key" ON "Draft"("reviewTokenHash");
CREATE INDEX "Draft_agentId_createdAt_id_idx" ON "Draft"("agentId", "createdAt", "id");
CREATE INDEX "Draft_sendStatus_sendAt_idx" ON "Draft"("sendStatus", "sendAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- Reply drafts written before their threading was kept: worked out from the email they answer.
UPDATE "Draft" SET
  "threadId" = (SELECT "threadId" FROM "Email" WHERE "Email"."id" = "Draft"."inReplyTo"),
  "inReplyToMessageId" = (SELECT "messageId" FROM "Email" WHERE "Email"."id" = "Draft"."inReplyTo"),
  "references" = (SELECT TRIM(COALESCE("references", '') || ' ' || COALESCE("messageId", '')) FROM "Email" WHERE "Email"."id" = "Draft"."inReplyTo"),
  "autoSubmitted" = 'auto-replied'
WHERE "inReplyTo" IS NOT NULL;
