-- DropIndex
DROP INDEX "Draft_reviewTokenHash_key";

-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "reviewerEmail" TEXT,
ADD COLUMN     "reviewerWebhookSecret" TEXT,
ADD COLUMN     "reviewerWebhookUrl" TEXT;


-- CreateTable
CREATE TABLE "ReviewLink" (
    "tokenHash" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "draftId" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "decision" TEXT,
    "decidedAt" TIMESTAMP(3),
    "reason" TEXT,

    CONSTRAINT "ReviewLink_pkey" PRIMARY KEY ("tokenHash")
);

-- CreateTable
CREATE TABLE "ReviewNotice" (
    "id" TEXT NOT NULL,
    "draftId" TEXT NOT NULL,
    "channel" TEXT NOT NULL,
    "target" TEXT NOT NULL,
    "secret" TEXT,
    "payload" TEXT NOT NULL,
    "status" TEXT NOT NULL,
    "attempts" INTEGER NOT NULL DEFAULT 0,
    "nextAttemptAt" TIMESTAMP(3),
    "claimedUntil" TIMESTAMP(3),
    "lastError" TEXT,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ReviewNotice_pkey" PRIMARY KEY ("id")
);

-- Each decided draft's link, as the draft kept it, and what became of it. The links of messages still
-- held were handed to their agents: they die here, and the operator decides those (GET /admin/held).
INSERT INTO "ReviewLink" ("tokenHash", "agentId", "draftId", "createdAt", "decision", "decidedAt", "reason")
SELECT "reviewTokenHash", "agentId", "id", "updatedAt",
  CASE WHEN "sendStatus" = 'rejected' AND "rejectReason" = 'expired' THEN 'expired'
       WHEN "sendStatus" = 'rejected' THEN 'rejected'
       ELSE 'approved' END,
  COALESCE("approvedAt", "updatedAt"),
  CASE WHEN "sendStatus" = 'rejected' AND "rejectReason" <> 'expired' THEN "rejectReason" END
FROM "Draft" WHERE "reviewTokenHash" IS NOT NULL AND "sendStatus" <> 'pending_approval';

-- AlterTable
ALTER TABLE "Draft" DROP COLUMN "reviewTokenHash";

-- CreateIndex
CREATE INDEX "ReviewLink_draftId_idx" ON "ReviewLink"("draftId");

-- CreateIndex
CREATE INDEX "ReviewLink_decidedAt_idx" ON "ReviewLink"("decidedAt");

-- CreateIndex
CREATE INDEX "ReviewNotice_status_nextAttemptAt_idx" ON "ReviewNotice"("status", "nextAttemptAt");

-- CreateIndex
CREATE INDEX "ReviewNotice_draftId_idx" ON "ReviewNotice"("draftId");

-- AddForeignKey
ALTER TABLE "ReviewLink" ADD CONSTRAINT "ReviewLink_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ReviewNotice" ADD CONSTRAINT "ReviewNotice_draftId_fkey" FOREIGN KEY ("draftId") REFERENCES "Draft"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Review links go to a person, never to the agent: none is kept where the agent reads.
UPDATE "Event" SET "data" = ("data"::jsonb - 'reviewUrl')::text WHERE "type" = 'email.held';
UPDATE "WebhookDelivery" SET "payload" = ("payload"::jsonb #- '{data,reviewUrl}')::text WHERE "payload" LIKE '%"reviewUrl"%';
UPDATE "IdempotencyKey" SET "answer" = ("answer"::jsonb #- '{value,pending,reviewUrl}')::text WHERE "answer" LIKE '%"reviewUrl"%';
