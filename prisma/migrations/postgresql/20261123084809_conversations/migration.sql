-- CreateTable
CREATE TABLE "Thread" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "subject" TEXT NOT NULL,
    "startedAt" TIMESTAMP(3) NOT NULL,
    "lastMessageAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Thread_pkey" PRIMARY KEY ("id")
);

-- AlterTable
ALTER TABLE "Email" ADD COLUMN     "ccList" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN     "inReplyTo" TEXT,
ADD COLUMN     "references" TEXT,
ADD COLUMN     "replyToList" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN     "threadId" TEXT,
ADD COLUMN     "toList" TEXT NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "SentEmail" ADD COLUMN     "bcc" TEXT,
ADD COLUMN     "cc" TEXT,
ADD COLUMN     "inReplyTo" TEXT,
ADD COLUMN     "references" TEXT,
ADD COLUMN     "threadId" TEXT;

-- Mail kept before threads: each message a thread of its own.
INSERT INTO "Thread" ("id", "agentId", "subject", "startedAt", "lastMessageAt")
  SELECT "id", "agentId", COALESCE("subject", ''), "receivedAt", "receivedAt" FROM "Email";
UPDATE "Email" SET "threadId" = "id";
INSERT INTO "Thread" ("id", "agentId", "subject", "startedAt", "lastMessageAt")
  SELECT "id", "agentId", "subject", "sentAt", "sentAt" FROM "SentEmail";
UPDATE "SentEmail" SET "threadId" = "id";
ALTER TABLE "Email" ALTER COLUMN "threadId" SET NOT NULL;
ALTER TABLE "SentEmail" ALTER COLUMN "threadId" SET NOT NULL;

-- CreateTable
CREATE TABLE "Attachment" (
    "id" TEXT NOT NULL,
    "emailId" TEXT NOT NULL,
    "position" INTEGER NOT NULL,
    "filename" TEXT NOT NULL,
    "contentType" TEXT NOT NULL,
    "size" INTEGER NOT NULL,
    "contentId" TEXT,
    "inline" BOOLEAN NOT NULL,
    "sha256" TEXT NOT NULL,

    CONSTRAINT "Attachment_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "ThreadMessageId" (
    "agentId" TEXT NOT NULL,
    "messageId" TEXT NOT NULL,
    "threadId" TEXT NOT NULL,

    CONSTRAINT "ThreadMessageId_pkey" PRIMARY KEY ("agentId","messageId")
);

-- CreateTable
CREATE TABLE "IdempotencyKey" (
    "agentId" TEXT NOT NULL,
    "key" TEXT NOT NULL,
    "fingerprint" TEXT NOT NULL,
    "status" INTEGER,
    "answer" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "IdempotencyKey_pkey" PRIMARY KEY ("agentId","key")
);

-- CreateIndex
CREATE INDEX "Attachment_emailId_position_idx" ON "Attachment"("emailId", "position");

-- CreateIndex
CREATE INDEX "Thread_agentId_lastMessageAt_id_idx" ON "Thread"("agentId", "lastMessageAt", "id");

-- CreateIndex
CREATE INDEX "ThreadMessageId_threadId_idx" ON "ThreadMessageId"("threadId");

-- CreateIndex
CREATE INDEX "IdempotencyKey_createdAt_idx" ON "IdempotencyKey"("createdAt");

-- CreateIndex
CREATE INDEX "Email_threadId_receivedAt_idx" ON "Email"("threadId", "receivedAt");

-- CreateIndex
CREATE INDEX "SentEmail_threadId_sentAt_idx" ON "SentEmail"("threadId", "sentAt");

-- AddForeignKey
ALTER TABLE "Email" ADD CONSTRAINT "Email_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Attachment" ADD CONSTRAINT "Attachment_emailId_fkey" FOREIGN KEY ("emailId") REFERENCES "Email"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "Thread" ADD CONSTRAINT "Thread_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ThreadMessageId" ADD CONSTRAINT "ThreadMessageId_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "IdempotencyKey" ADD CONSTRAINT "IdempotencyKey_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SentEmail" ADD CONSTRAINT "SentEmail_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Their Message-IDs, so that replies to them join their threads.
INSERT INTO "ThreadMessageId" ("agentId", "messageId", "threadId")
  SELECT "agentId", "messageId", "id" FROM "Email" WHERE "messageId" IS NOT NULL ON CONFLICT DO NOTHING;
INSERT INTO "ThreadMessageId" ("agentId", "messageId", "threadId")
  SELECT "agentId", "messageId", "id" FROM "SentEmail" ON CONFLICT DO NOTHING;
