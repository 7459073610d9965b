-- CreateTable
CREATE TABLE "Pod" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "name" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL
);

-- CreateTable
CREATE TABLE "PodDomain" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "podId" TEXT NOT NULL,
    CONSTRAINT "PodDomain_podId_fkey" FOREIGN KEY ("podId") REFERENCES "Pod" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "PodDomain_podId_idx" ON "PodDomain"("podId");

-- AlterTable (a nullable column with a foreign key is added in place: no table to redefine)
ALTER TABLE "Agent" ADD COLUMN "podId" TEXT REFERENCES "Pod" ("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- CreateIndex
CREATE INDEX "Agent_podId_idx" ON "Agent"("podId");
