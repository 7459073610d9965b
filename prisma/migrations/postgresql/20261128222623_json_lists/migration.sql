-- Lists and records kept as JSON text become JSONB, which Prisma converts to
-- and from arrays and objects. In place: every value was written by
-- JSON.stringify, so each casts; a text default cannot be cast, so it is
-- dropped and set again.

ALTER TABLE "Agent" ALTER COLUMN "senderAllow" DROP DEFAULT,
ALTER COLUMN "senderAllow" SET DATA TYPE JSONB USING "senderAllow"::JSONB,
ALTER COLUMN "senderAllow" SET DEFAULT '[]',
ALTER COLUMN "senderBlock" DROP DEFAULT,
ALTER COLUMN "senderBlock" SET DATA TYPE JSONB USING "senderBlock"::JSONB,
ALTER COLUMN "senderBlock" SET DEFAULT '[]';

ALTER TABLE "Email" ALTER COLUMN "toList" DROP DEFAULT,
ALTER COLUMN "toList" SET DATA TYPE JSONB USING "toList"::JSONB,
ALTER COLUMN "toList" SET DEFAULT '[]',
ALTER COLUMN "ccList" DROP DEFAULT,
ALTER COLUMN "ccList" SET DATA TYPE JSONB USING "ccList"::JSONB,
ALTER COLUMN "ccList" SET DEFAULT '[]',
ALTER COLUMN "replyToList" DROP DEFAULT,
ALTER COLUMN "replyToList" SET DATA TYPE JSONB USING "replyToList"::JSONB,
ALTER COLUMN "replyToList" SET DEFAULT '[]',
ALTER COLUMN "links" DROP DEFAULT,
ALTER COLUMN "links" SET DATA TYPE JSONB USING "links"::JSONB,
ALTER COLUMN "links" SET DEFAULT '[]',
ALTER COLUMN "codes" DROP DEFAULT,
ALTER COLUMN "codes" SET DATA TYPE JSONB USING "codes"::JSONB,
ALTER COLUMN "codes" SET DEFAULT '[]';

ALTER TABLE "IdempotencyKey" ALTER COLUMN "answer" SET DATA TYPE JSONB USING "answer"::JSONB;

ALTER TABLE "SentEmail" ALTER COLUMN "toList" DROP DEFAULT,
ALTER COLUMN "toList" SET DATA TYPE JSONB USING "toList"::JSONB,
ALTER COLUMN "toList" SET DEFAULT '[]',
ALTER COLUMN "ccList" DROP DEFAULT,
ALTER COLUMN "ccList" SET DATA TYPE JSONB USING "ccList"::JSONB,
ALTER COLUMN "ccList" SET DEFAULT '[]',
ALTER COLUMN "bccList" DROP DEFAULT,
ALTER COLUMN "bccList" SET DATA TYPE JSONB USING "bccList"::JSONB,
ALTER COLUMN "bccList" SET DEFAULT '[]';

ALTER TABLE "Event" ALTER COLUMN "data" SET DATA TYPE JSONB USING "data"::JSONB;

ALTER TABLE "Webhook" ALTER COLUMN "events" SET DATA TYPE JSONB USING "events"::JSONB;

ALTER TABLE "Draft" ALTER COLUMN "toList" DROP DEFAULT,
ALTER COLUMN "toList" SET DATA TYPE JSONB USING "toList"::JSONB,
ALTER COLUMN "toList" SET DEFAULT '[]',
ALTER COLUMN "ccList" DROP DEFAULT,
ALTER COLUMN "ccList" SET DATA TYPE JSONB USING "ccList"::JSONB,
ALTER COLUMN "ccList" SET DEFAULT '[]',
ALTER COLUMN "bccList" DROP DEFAULT,
ALTER COLUMN "bccList" SET DATA TYPE JSONB USING "bccList"::JSONB,
ALTER COLUMN "bccList" SET DEFAULT '[]',
ALTER COLUMN "attachments" DROP DEFAULT,
ALTER COLUMN "attachments" SET DATA TYPE JSONB USING "attachments"::JSONB,
ALTER COLUMN "attachments" SET DEFAULT '[]';

ALTER TABLE "Domain" ALTER COLUMN "lastCheck" SET DATA TYPE JSONB USING "lastCheck"::JSONB;

-- A sent email kept as an idempotent answer (for 24 hours) had its recipient
-- lists as JSON text inside the answer's JSON: they become arrays.
UPDATE "IdempotencyKey" SET "answer" = jsonb_set(jsonb_set(jsonb_set("answer",
  '{value,toList}', ("answer" #>> '{value,toList}')::JSONB),
  '{value,ccList}', ("answer" #>> '{value,ccList}')::JSONB),
  '{value,bccList}', ("answer" #>> '{value,bccList}')::JSONB)
WHERE jsonb_typeof("answer" #> '{value,toList}') = 'string';
