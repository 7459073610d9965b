-- AlterTable
ALTER TABLE "Email" ADD COLUMN     "reportIgnored" TEXT;

-- CreateTable
CREATE TABLE "InstanceSecret" (
    "name" TEXT NOT NULL,
    "value" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "InstanceSecret_pkey" PRIMARY KEY ("name")
);

