-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "senderAllow" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN     "senderBlock" TEXT NOT NULL DEFAULT '[]';

