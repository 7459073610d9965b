-- AlterTable
ALTER TABLE "Key" ADD COLUMN     "agents" JSONB,
ADD COLUMN     "podId" TEXT,
ALTER COLUMN "agentId" DROP NOT NULL;

-- A key is an agent's or a pod's: exactly one (not in the Prisma schema, which has no CHECK)
ALTER TABLE "Key" ADD CONSTRAINT "Key_one_owner" CHECK (("agentId" IS NULL) <> ("podId" IS NULL));

-- CreateIndex
CREATE INDEX "Key_podId_createdAt_idx" ON "Key"("podId", "createdAt");

-- AddForeignKey
ALTER TABLE "Key" ADD CONSTRAINT "Key_podId_fkey" FOREIGN KEY ("podId") REFERENCES "Pod"("id") ON DELETE CASCADE ON UPDATE CASCADE;
