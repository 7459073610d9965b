-- CreateTable
CREATE TABLE "Key" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agentId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "permissions" JSONB NOT NULL DEFAULT [],
    "expiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "Key_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE UNIQUE INDEX "Key_hash_key" ON "Key"("hash");

-- CreateIndex
CREATE INDEX "Key_agentId_createdAt_idx" ON "Key"("agentId", "createdAt");

