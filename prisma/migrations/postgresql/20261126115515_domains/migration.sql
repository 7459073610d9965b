-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "domain" TEXT;

-- CreateTable
CREATE TABLE "Domain" (
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "lastCheck" TEXT,
    "checkedAt" TIMESTAMP(3),

    CONSTRAINT "Domain_pkey" PRIMARY KEY ("name")
);

-- CreateTable
CREATE TABLE "DkimKey" (
    "id" TEXT NOT NULL,
    "domainName" TEXT NOT NULL,
    "selector" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "privateKey" TEXT NOT NULL,
    "state" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "DkimKey_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE INDEX "DkimKey_domainName_state_idx" ON "DkimKey"("domainName", "state");

-- CreateIndex
CREATE UNIQUE INDEX "DkimKey_domainName_selector_key" ON "DkimKey"("domainName", "selector");

-- AddForeignKey
ALTER TABLE "DkimKey" ADD CONSTRAINT "DkimKey_domainName_fkey" FOREIGN KEY ("domainName") REFERENCES "Domain"("name") ON DELETE CASCADE ON UPDATE CASCADE;

