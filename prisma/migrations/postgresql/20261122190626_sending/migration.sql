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

-- CreateIndex
CREATE INDEX "SentEmail_agentId_sentAt_id_idx" ON "SentEmail"("agentId", "sentAt", "id");

-- AddForeignKey
ALTER TABLE "SentEmail" ADD CONSTRAINT "SentEmail_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "SendCounter" ADD CONSTRAINT "SendCounter_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

