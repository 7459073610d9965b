-- AlterTable
ALTER TABLE "DkimKey" ALTER COLUMN "privateKey" DROP NOT NULL;

