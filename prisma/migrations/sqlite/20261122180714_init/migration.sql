-- CreateTable
CREATE TABLE "Agent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "idKey" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "metadata" JSONB,
    "apiKeyHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "verifiedAt" DATETIME,
    "socialUsername" TEXT,
    "verificationCode" TEXT,
    "verificationExpires" DATETIME,
    "storageUsed" INTEGER NOT NULL DEFAULT 0
);

-- CreateIndex
CREATE UNIQUE INDEX "Agent_idKey_key" ON "Agent"("idKey");

-- CreateIndex
CREATE UNIQUE INDEX "Agent_apiKeyHash_key" ON "Agent"("apiKeyHash");

-- CreateIndex
CREATE UNIQUE INDEX "Agent_socialUsername_key" ON "Agent"("socialUsername");

-- CreateIndex
CREATE INDEX "Agent_verifiedAt_createdAt_idx" ON "Agent"("verifiedAt", "createdAt");

