-- CreateTable
CREATE TABLE "Attachment" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "emailId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "filename" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "contentId" TEXT,
    "inline" BOOLEAN NOT NULL,
    "sha256" TEXT NOT NULL,
    CONSTRAINT "Attachment_emailId_fkey" FOREIGN KEY ("emailId") REFERENCES "Email" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Thread" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agentId" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "startedAt" DATETIME NOT NULL,
    "lastMessageAt" DATETIME NOT NULL,
    CONSTRAINT "Thread_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ThreadMessageId" (
    "agentId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,

    PRIMARY KEY ("agentId", "messageId"),
    CONSTRAINT "ThreadMessageId_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "IdempotencyKey" (
    "agentId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" INTEGER,
    "answer" TEXT,
    "createdAt" DATETIME NOT NULL,

    PRIMARY KEY ("agentId", "key"),
    CONSTRAINT "IdempotencyKey_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Email" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agentId" TEXT NOT NULL,
    "messageId" TEXT,
    "fromAddress" TEXT NOT NULL,
    "fromName" TEXT,
    "to" TEXT NOT NULL,
    "subject" TEXT,
    "bodyText" TEXT,
    "bodyHtml" TEXT,
    "raw" BLOB NOT NULL,
    "size" INTEGER NOT NULL,
    "receivedAt" DATETIME NOT NULL,
    "isRead" BOOLEAN NOT NULL DEFAULT false,
    "folder" TEXT NOT NULL DEFAULT 'inbox',
    "toList" TEXT NOT NULL DEFAULT '[]',
    "ccList" TEXT NOT NULL DEFAULT '[]',
    "replyToList" TEXT NOT NULL DEFAULT '[]',
    "inReplyTo" TEXT,
    "references" TEXT,
    "threadId" TEXT NOT NULL,
    CONSTRAINT "Email_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Email_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
-- Mail kept before threads: each message a thread of its own.
INSERT INTO "Thread" ("id", "agentId", "subject", "startedAt", "lastMessageAt")
  SELECT "id", "agentId", COALESCE("subject", ''), "receivedAt", "receivedAt" FROM "Email";
INSERT INTO "new_Email" ("agentId", "bodyHtml", "bodyText", "folder", "fromAddress", "fromName", "id", "isRead", "messageId", "raw", "receivedAt", "size", "subject", "to", "threadId") SELECT "agentId", "bodyHtml", "bodyText", "folder", "fromAddress", "fromName", "id", "isRead", "messageId", "raw", "receivedAt", "size", "subject", "to", "id" FROM "Email";
DROP TABLE "Email";
ALTER TABLE "new_Email" RENAME TO "Email";
CREATE INDEX "Email_agentId_receivedAt_id_idx" ON "Email"("agentId", "receivedAt", "id");
CREATE INDEX "Email_agentId_folder_receivedAt_id_idx" ON "Email"("agentId", "folder", "receivedAt", "id");
CREATE INDEX "Email_threadId_receivedAt_idx" ON "Email"("threadId", "receivedAt");
CREATE TABLE "new_SentEmail" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agentId" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "cc" TEXT,
    "bcc" TEXT,
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
    CONSTRAINT "SentEmail_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "SentEmail_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "Thread" ("id", "agentId", "subject", "startedAt", "lastMessageAt")
  SELECT "id", "agentId", "subject", "sentAt", "sentAt" FROM "SentEmail";
INSERT INTO "new_SentEmail" ("agentId", "bodyHtml", "bodyText", "id", "messageId", "providerId", "replyTo", "sentAt", "size", "subject", "to", "threadId") SELECT "agentId", "bodyHtml", "bodyText", "id", "messageId", "providerId", "replyTo", "sentAt", "size", "subject", "to", "id" FROM "SentEmail";
DROP TABLE "SentEmail";
ALTER TABLE "new_SentEmail" RENAME TO "SentEmail";
CREATE INDEX "SentEmail_agentId_sentAt_id_idx" ON "SentEmail"("agentId", "sentAt", "id");
CREATE INDEX "SentEmail_threadId_sentAt_idx" ON "SentEmail"("threadId", "sentAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- CreateIndex
CREATE INDEX "Attachment_emailId_position_idx" ON "Attachment"("emailId", "position");

-- CreateIndex
CREATE INDEX "Thread_agentId_lastMessageAt_id_idx" ON "Thread"("agentId", "lastMessageAt", "id");

-- CreateIndex
CREATE INDEX "ThreadMessageId_threadId_idx" ON "ThreadMessageId"("threadId");

-- CreateIndex
CREATE INDEX "IdempotencyKey_createdAt_idx" ON "IdempotencyKey"("createdAt");


-- Their Message-IDs, so that replies to them join their threads.
INSERT INTO "ThreadMessageId" ("agentId", "messageId", "threadId")
  SELECT "agentId", "messageId", "id" FROM "Email" WHERE "messageId" IS NOT NULL ON CONFLICT DO NOTHING;
INSERT INTO "ThreadMessageId" ("agentId", "messageId", "threadId")
  SELECT "agentId", "messageId", "id" FROM "SentEmail" WHERE true ON CONFLICT DO NOTHING;
