-- AlterTable
ALTER TABLE "Email" ADD COLUMN "headerDate" DATETIME;
