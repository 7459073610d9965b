-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "sendPolicy" TEXT;

-- AlterTable
ALTER TABLE "Draft" ADD COLUMN     "approvedAt" TIMESTAMP(3),
ADD COLUMN     "autoSubmitted" TEXT NOT NULL DEFAULT 'auto-generated',
ADD COLUMN     "rejectReason" TEXT,
ADD COLUMN     "inReplyToMessageId" TEXT,
ADD COLUMN     "references" TEXT,
ADD COLUMN     "reviewExpiresAt" TIMESTAMP(3),
ADD COLUMN     "reviewTokenHash" TEXT,
ADD COLUMN     "threadId" TEXT;

-- CreateTable
CREATE TABLE "ApprovedRecipient" (
    "agentId" TEXT NOT NULL,
    "address" TEXT NOT NULL,
    "approvedAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "ApprovedRecipient_pkey" PRIMARY KEY ("agentId","address")
);

-- CreateIndex
CREATE UNIQUE INDEX "Draft_reviewTokenHash_key" ON "Draft"("reviewTokenHash");

-- AddForeignKey
ALTER TABLE "ApprovedRecipient" ADD CONSTRAINT "ApprovedRecipient_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;


-- Reply drafts written before their threading was kept: worked out from the email they answer.
UPDATE "Draft" SET
  "threadId" = (SELECT "threadId" FROM "Email" WHERE "Email"."id" = "Draft"."inReplyTo"),
  "inReplyToMessageId" = (SELECT "messageId" FROM "Email" WHERE "Email"."id" = "Draft"."inReplyTo"),
  "references" = (SELECT TRIM(COALESCE("references", '') || ' ' || COALESCE("messageId", '')) FROM "Email" WHERE "Email"."id" = "Draft"."inReplyTo"),
  "autoSubmitted" = 'auto-replied'
WHERE "inReplyTo" IS NOT NULL;
