-- Allow and block lists and the send policy at a pod's scope: a pod's list
-- entries name it by foreign key (they go with it), and a pod may have a send
-- policy for its agents without one of their own.

-- AlterTable
ALTER TABLE "Pod" ADD COLUMN "sendPolicy" TEXT;

-- AlterTable (a nullable column with a foreign key is added in place: no table to redefine)
ALTER TABLE "ListEntry" ADD COLUMN "podId" TEXT REFERENCES "Pod" ("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- CreateIndex
CREATE INDEX "ListEntry_podId_idx" ON "ListEntry"("podId");
