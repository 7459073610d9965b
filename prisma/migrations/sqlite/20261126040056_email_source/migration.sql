-- CreateTable
CREATE TABLE "EmailSource" (
    "emailId" TEXT NOT NULL PRIMARY KEY,
    "raw" BLOB NOT NULL,
    CONSTRAINT "EmailSource_emailId_fkey" FOREIGN KEY ("emailId") REFERENCES "Email" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- The raw messages move beside their emails.
INSERT INTO "EmailSource" ("emailId", "raw") SELECT "id", "raw" FROM "Email";

-- AlterTable (in place: redefining "Email" would cascade its drop into its attachments and search entries)
ALTER TABLE "Email" DROP COLUMN "raw";
