-- A sent email's recipients become JSON arrays, as an email keeps the
-- addresses it names; they were joined with ", ".
ALTER TABLE "SentEmail" ADD COLUMN "toList" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN "ccList" TEXT NOT NULL DEFAULT '[]',
ADD COLUMN "bccList" TEXT NOT NULL DEFAULT '[]';
UPDATE "SentEmail" SET
  "toList" = to_json(string_to_array("to", ', '))::text,
  "ccList" = COALESCE(to_json(string_to_array(NULLIF("cc", ''), ', '))::text, '[]'),
  "bccList" = COALESCE(to_json(string_to_array(NULLIF("bcc", ''), ', '))::text, '[]');
ALTER TABLE "SentEmail" DROP COLUMN "bcc",
DROP COLUMN "cc",
DROP COLUMN "to";
