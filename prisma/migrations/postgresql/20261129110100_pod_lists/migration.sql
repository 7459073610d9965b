-- Allow and block lists and the send policy at a pod's scope: a pod's list
-- entries name it by foreign key (they go with it), and a pod may have a send
-- policy for its agents without one of their own.

-- AlterTable
ALTER TABLE "Pod" ADD COLUMN     "sendPolicy" TEXT;

-- AlterTable
ALTER TABLE "ListEntry" ADD COLUMN     "podId" TEXT;

-- CreateIndex
CREATE INDEX "ListEntry_podId_idx" ON "ListEntry"("podId");

-- AddForeignKey
ALTER TABLE "ListEntry" ADD CONSTRAINT "ListEntry_podId_fkey" FOREIGN KEY ("podId") REFERENCES "Pod"("id") ON DELETE CASCADE ON UPDATE CASCADE;
