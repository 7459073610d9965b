-- AlterTable (added in place: redefining "Agent" would cascade through every table that belongs to an agent)
ALTER TABLE "Agent" ADD COLUMN "senderAllow" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "Agent" ADD COLUMN "senderBlock" TEXT NOT NULL DEFAULT '[]';
