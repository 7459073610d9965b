-- CreateTable
CREATE TABLE "EmailSource" (
    "emailId" TEXT NOT NULL,
    "raw" BYTEA NOT NULL,

    CONSTRAINT "EmailSource_pkey" PRIMARY KEY ("emailId")
);

-- AddForeignKey
ALTER TABLE "EmailSource" ADD CONSTRAINT "EmailSource_emailId_fkey" FOREIGN KEY ("emailId") REFERENCES "Email"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- The raw messages move beside their emails.
INSERT INTO "EmailSource" ("emailId", "raw") SELECT "id", "raw" FROM "Email";

-- AlterTable
ALTER TABLE "Email" DROP COLUMN "raw";
