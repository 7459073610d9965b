-- AlterTable
ALTER TABLE "Email" ADD COLUMN "reportIgnored" TEXT;

-- CreateTable
CREATE TABLE "InstanceSecret" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "value" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL
);

