-- CreateTable
CREATE TABLE "Email" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "dedupeKey" TEXT NOT NULL,
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
CREATE INDEX "Email_agentId_receivedAt_id_idx" ON "Email"("agentId", "receivedAt", "id");

-- CreateIndex
CREATE INDEX "Email_agentId_folder_receivedAt_id_idx" ON "Email"("agentId", "folder", "receivedAt", "id");

-- CreateIndex
CREATE UNIQUE INDEX "Email_agentId_dedupeKey_key" ON "Email"("agentId", "dedupeKey");

-- AddForeignKey
ALTER TABLE "Email" ADD CONSTRAINT "Email_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

