-- AlterTable
ALTER TABLE "Email" ADD COLUMN     "headerDate" TIMESTAMP(3);
