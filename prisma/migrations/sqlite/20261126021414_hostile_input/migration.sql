-- AlterTable (in place: redefining "Webhook" would drop its deliveries with it)
ALTER TABLE "ImapCursor" ADD COLUMN "tries" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "ImapCursor" ADD COLUMN "attemptUid" BIGINT;
ALTER TABLE "Webhook" DROP COLUMN "givenUpInARow";
ALTER TABLE "Webhook" ADD COLUMN "failuresInARow" INTEGER NOT NULL DEFAULT 0;
ALTER TABLE "Webhook" ADD COLUMN "failingSince" DATETIME;
ALTER TABLE "Webhook" ADD COLUMN "pausedUntil" DATETIME;
