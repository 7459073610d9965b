-- AlterTable
ALTER TABLE "Draft" ADD COLUMN     "forwards" BOOLEAN NOT NULL DEFAULT false;

-- Forwards kept as drafts before they were marked: a forward takes the thread of the email it quotes and answers
-- none, while a reply answers one and any other draft or send has no thread.
UPDATE "Draft" SET "forwards" = true WHERE "inReplyTo" IS NULL AND "threadId" IS NOT NULL;
