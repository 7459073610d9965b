-- CreateTable
CREATE TABLE "Email" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agentId" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,
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
    CONSTRAINT "Email_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ImapCursor" (
    "mailbox" TEXT NOT NULL PRIMARY KEY,
    "uidValidity" BIGINT NOT NULL,
    "lastUid" BIGINT NOT NULL
);

-- CreateTable
CREATE TABLE "Lease" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "holder" TEXT NOT NULL,
    "expiresAt" DATETIME NOT NULL
);

-- CreateIndex
CREATE INDEX "Email_agentId_receivedAt_id_idx" ON "Email"("agentId", "receivedAt", "id");

-- CreateIndex
CREATE INDEX "Email_agentId_folder_receivedAt_id_idx" ON "Email"("agentId", "folder", "receivedAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Email_agentId_dedupeKey_key" ON "Email"("agentId", "dedupeKey");

