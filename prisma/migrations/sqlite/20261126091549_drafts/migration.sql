-- CreateTable
CREATE TABLE "Draft" (
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
    "sendStatus" TEXT NOT NULL DEFAULT 'draft',
    "size" INTEGER NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "updatedAt" DATETIME NOT NULL,
    CONSTRAINT "Draft_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "Draft_agentId_createdAt_id_idx" ON "Draft"("agentId", "createdAt", "id");

