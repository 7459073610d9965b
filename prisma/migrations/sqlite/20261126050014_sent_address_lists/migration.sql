-- A sent email's recipients become JSON arrays, as an email keeps the
-- addresses it names. In place: the addresses were checked as plain
-- local@domain (no quotes, no backslashes) and joined with ", ".
ALTER TABLE "SentEmail" ADD COLUMN "toList" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "SentEmail" ADD COLUMN "ccList" TEXT NOT NULL DEFAULT '[]';
ALTER TABLE "SentEmail" ADD COLUMN "bccList" TEXT NOT NULL DEFAULT '[]';
UPDATE "SentEmail" SET "toList" = '["' || REPLACE("to", ', ', '","') || '"]';
UPDATE "SentEmail" SET "ccList" = '["' || REPLACE("cc", ', ', '","') || '"]' WHERE "cc" IS NOT NULL AND "cc" <> '';
UPDATE "SentEmail" SET "bccList" = '["' || REPLACE("bcc", ', ', '","') || '"]' WHERE "bcc" IS NOT NULL AND "bcc" <> '';
ALTER TABLE "SentEmail" DROP COLUMN "to";
ALTER TABLE "SentEmail" DROP COLUMN "cc";
ALTER TABLE "SentEmail" DROP COLUMN "bcc";
