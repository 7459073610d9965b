-- AlterTable
ALTER TABLE "Agent" ADD COLUMN "domain" TEXT;

-- CreateTable
CREATE TABLE "Domain" (
    "name" TEXT NOT NULL PRIMARY KEY,
    "createdAt" DATETIME NOT NULL,
    "lastCheck" TEXT,
    "checkedAt" DATETIME
);

-- CreateTable
CREATE TABLE "DkimKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "domainName" TEXT NOT NULL,
    "selector" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "privateKey" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "DkimKey_domainName_fkey" FOREIGN KEY ("domainName") REFERENCES "Domain" ("name") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "DkimKey_domainName_state_idx" ON "DkimKey"("domainName", "state");

-- CreateIndex
CREATE UNIQUE INDEX "DkimKey_domainName_selector_key" ON "DkimKey"("domainName", "selector");

