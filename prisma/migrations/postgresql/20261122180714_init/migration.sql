-- CreateTable
CREATE TABLE "Agent" (
    "id" TEXT NOT NULL,
    "idKey" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "metadata" JSONB,
    "apiKeyHash" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "verifiedAt" TIMESTAMP(3),
    "socialUsername" TEXT,
    "verificationCode" TEXT,
    "verificationExpires" TIMESTAMP(3),
    "storageUsed" INTEGER NOT NULL DEFAULT 0,

    CONSTRAINT "Agent_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Agent_idKey_key" ON "Agent"("idKey");

-- CreateIndex
CREATE UNIQUE INDEX "Agent_apiKeyHash_key" ON "Agent"("apiKeyHash");

-- CreateIndex
CREATE UNIQUE INDEX "Agent_socialUsername_key" ON "Agent"("socialUsername");

-- CreateIndex
CREATE INDEX "Agent_verifiedAt_createdAt_idx" ON "Agent"("verifiedAt", "createdAt");

