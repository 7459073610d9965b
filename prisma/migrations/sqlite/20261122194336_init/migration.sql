-- CreateTable
CREATE TABLE "Agent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "idKey" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "metadata" JSONB,
    "apiKeyHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "verifiedAt" DATETIME,
    "socialUsername" TEXT,
    "verificationCode" TEXT,
    "verificationExpires" DATETIME,
    "storageUsed" INTEGER NOT NULL DEFAULT 0
);

-- CreateTable
CREATE TABLE "Email" (
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
    CONSTRAINT "Email_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "Delivery" (
    "agentId" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,

    PRIMARY KEY ("agentId", "dedupeKey"),
    CONSTRAINT "Delivery_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SentEmail" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agentId" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "bodyText" TEXT,
    "bodyHtml" TEXT,
    "replyTo" TEXT,
    "messageId" TEXT NOT NULL,
    "providerId" TEXT,
    "size" INTEGER NOT NULL,
    "sentAt" DATETIME NOT NULL,
    CONSTRAINT "SentEmail_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "SendCounter" (
    "agentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    PRIMARY KEY ("agentId", "day"),
    CONSTRAINT "SendCounter_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
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
CREATE UNIQUE INDEX "Agent_idKey_key" ON "Agent"("idKey");

-- CreateIndex
CREATE UNIQUE INDEX "Agent_apiKeyHash_key" ON "Agent"("apiKeyHash");

-- CreateIndex
CREATE UNIQUE INDEX "Agent_socialUsername_key" ON "Agent"("socialUsername");

-- CreateIndex
CREATE INDEX "Agent_verifiedAt_createdAt_idx" ON "Agent"("verifiedAt", "createdAt");

-- CreateIndex
CREATE INDEX "Email_agentId_receivedAt_id_idx" ON "Email"("agentId", "receivedAt", "id");

-- CreateIndex
CREATE INDEX "Email_agentId_folder_receivedAt_id_idx" ON "Email"("agentId", "folder", "receivedAt", "id");

-- CreateIndex
CREATE INDEX "SentEmail_agentId_sentAt_id_idx" ON "SentEmail"("agentId", "sentAt", "id");

