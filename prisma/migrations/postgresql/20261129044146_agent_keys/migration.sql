-- CreateTable
CREATE TABLE "Key" (
    "id" TEXT NOT NULL,
    "agentId" TEXT NOT NULL,
    "hash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "permissions" JSONB NOT NULL DEFAULT '[]',
    "expiresAt" TIMESTAMP(3),
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Key_pkey" PRIMARY KEY ("id")
);

-- CreateIndex
CREATE UNIQUE INDEX "Key_hash_key" ON "Key"("hash");

-- CreateIndex
CREATE INDEX "Key_agentId_createdAt_idx" ON "Key"("agentId", "createdAt");

-- AddForeignKey
ALTER TABLE "Key" ADD CONSTRAINT "Key_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

