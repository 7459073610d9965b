-- CreateTable
CREATE TABLE "Agent" (
    "id" TEXT NOT NULL,
    "idKey" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "metadata" JSONB,
    "apiKeyHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "verifiedAt" TIMESTAMP(3),
    "socialUsername" TEXT,
    "verificationCode" TEXT,
    "verificationExpires" TIMESTAMP(3),
    "storageUsed" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Agent_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Email" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "messageId" TEXT,
    "fromAddress" TEXT NOT NULL,
    "fromName" TEXT,
    "to" TEXT NOT NULL,
    "subject" TEXT,
    "bodyText" TEXT,
    "bodyHtml" TEXT,
    "raw" BYTEA NOT NULL,
    "size" INTEGER NOT NULL,
    "receivedAt" TIMESTAMP(3) NOT NULL,
    "isRead" BOOLEAN NOT NULL DEFAULT false,
    "folder" TEXT NOT NULL DEFAULT 'inbox',

    CONSTRAINT "Email_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "Delivery" (
    "agentId" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,

    CONSTRAINT "Delivery_pkey" PRIMARY KEY ("agentId","dedupeKey")
);

-- CreateTable
CREATE TABLE "SentEmail" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "to" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "bodyText" TEXT,
    "bodyHtml" TEXT,
    "replyTo" TEXT,
    "messageId" TEXT NOT NULL,
    "providerId" TEXT,
    "size" INTEGER NOT NULL,
    "sentAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "SentEmail_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "SendCounter" (
    "agentId" TEXT NOT NULL,
    "day" TEXT NOT NULL,
    "count" INTEGER NOT NULL,

    CONSTRAINT "SendCounter_pkey" PRIMARY KEY ("agentId","day")
);

-- CreateTable
CREATE TABLE "ImapCursor" (
    "mailbox" TEXT NOT NULL,
    "uidValidity" BIGINT NOT NULL,
    "lastUid" BIGINT NOT NULL,

    CONSTRAINT "ImapCursor_pkey" PRIMARY KEY ("mailbox")
);

-- CreateTable
CREATE TABLE "Lease" (
    "name" TEXT NOT NULL,
    "holder" TEXT NOT NULL,
    "expiresAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Lease_pkey" PRIMARY KEY ("name")
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

-- AddForeignKey
ALTER TABLE "Email" ADD CONSTRAINT "Email_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Delivery" ADD CONSTRAINT "Delivery_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SentEmail" ADD CONSTRAINT "SentEmail_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SendCounter" ADD CONSTRAINT "SendCounter_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

