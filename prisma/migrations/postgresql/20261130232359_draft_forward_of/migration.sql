-- AlterTable
ALTER TABLE "Draft" ADD COLUMN     "forwardOf" TEXT;

