-- AlterTable
ALTER TABLE "ImapCursor" ADD COLUMN     "attemptUid" BIGINT,
ADD COLUMN     "tries" INTEGER NOT NULL DEFAULT 0;

-- AlterTable
ALTER TABLE "Webhook" DROP COLUMN "givenUpInARow",
ADD COLUMN     "failingSince" TIMESTAMP(3),
ADD COLUMN     "failuresInARow" INTEGER NOT NULL DEFAULT 0,
ADD COLUMN     "pausedUntil" TIMESTAMP(3);

