-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "podId" TEXT;

-- CreateTable
CREATE TABLE "Pod" (
    "id" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,

    CONSTRAINT "Pod_pkey" PRIMARY KEY ("id")
);

-- CreateTable
CREATE TABLE "PodDomain" (
    "name" TEXT NOT NULL,
    "podId" TEXT NOT NULL,

    CONSTRAINT "PodDomain_pkey" PRIMARY KEY ("name")
);

-- CreateIndex
CREATE INDEX "PodDomain_podId_idx" ON "PodDomain"("podId");

-- CreateIndex
CREATE INDEX "Agent_podId_idx" ON "Agent"("podId");

-- AddForeignKey
ALTER TABLE "Agent" ADD CONSTRAINT "Agent_podId_fkey" FOREIGN KEY ("podId") REFERENCES "Pod"("id") ON DELETE RESTRICT ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "PodDomain" ADD CONSTRAINT "PodDomain_podId_fkey" FOREIGN KEY ("podId") REFERENCES "Pod"("id") ON DELETE CASCADE ON UPDATE CASCADE;
