-- AlterTable
ALTER TABLE "Email" ADD COLUMN "codes" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "Email" ADD COLUMN "links" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "Email" ADD COLUMN "preview" TEXT NOT NULL DEFAULT '';
ALTER TABLE "Email" ADD COLUMN "replyText" TEXT;
ALTER TABLE "Email" ADD COLUMN "text" TEXT;

-- Mail filed before: its text part is its text; the other fields are worked out for mail filed from now on.
UPDATE "Email" SET "text" = "bodyText" WHERE "bodyText" IS NOT NULL AND "bodyText" <> '';
