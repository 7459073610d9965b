-- AlterTable
ALTER TABLE "ReviewLink" ADD COLUMN     "quarantinedId" TEXT,
ALTER COLUMN "draftId" DROP NOT NULL;

-- AlterTable
ALTER TABLE "ReviewNotice" ADD COLUMN     "quarantinedId" TEXT,
ALTER COLUMN "draftId" DROP NOT NULL;

-- CreateIndex
CREATE INDEX "ReviewLink_quarantinedId_idx" ON "ReviewLink"("quarantinedId");

-- CreateIndex
CREATE INDEX "ReviewNotice_quarantinedId_idx" ON "ReviewNotice"("quarantinedId");

-- AddForeignKey
ALTER TABLE "ReviewNotice" ADD CONSTRAINT "ReviewNotice_quarantinedId_fkey" FOREIGN KEY ("quarantinedId") REFERENCES "Quarantined"("id") ON DELETE CASCADE ON UPDATE CASCADE;

