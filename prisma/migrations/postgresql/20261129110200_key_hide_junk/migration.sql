-- AlterTable
ALTER TABLE "Key" ADD COLUMN     "hideJunk" BOOLEAN NOT NULL DEFAULT false;
