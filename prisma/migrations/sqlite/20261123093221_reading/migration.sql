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
    "text" TEXT,
    "preview" TEXT NOT NULL DEFAULT '',
    "replyText" TEXT,
    "links" TEXT NOT NULL DEFAULT '[]',
    "codes" TEXT NOT NULL DEFAULT '[]',
    CONSTRAINT "Email_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Email_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_Email" ("agentId", "bodyHtml", "bodyText", "ccList", "folder", "fromAddress", "fromName", "id", "inReplyTo", "isRead", "messageId", "raw", "receivedAt", "references", "replyToList", "size", "subject", "threadId", "to", "toList") SELECT "agentId", "bodyHtml", "bodyText", "ccList", "folder", "fromAddress", "fromName", "id", "inReplyTo", "isRead", "messageId", "raw", "receivedAt", "references", "replyToList", "size", "subject", "threadId", "to", "toList" FROM "Email";
DROP TABLE "Email";
ALTER TABLE "new_Email" RENAME TO "Email";
CREATE INDEX "Email_agentId_receivedAt_id_idx" ON "Email"("agentId", "receivedAt", "id");
CREATE INDEX "Email_agentId_folder_receivedAt_id_idx" ON "Email"("agentId", "folder", "receivedAt", "id");
CREATE INDEX "Email_threadId_receivedAt_idx" ON "Email"("threadId", "receivedAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;


-- Mail filed before: its text part is its text; the other fields are worked out for mail filed from now on.
UPDATE "Email" SET "text" = "bodyText" WHERE "bodyText" IS NOT NULL AND "bodyText" <> '';
