-- Sender authentication verdicts, added in place: redefining "Email" would
-- drop the search triggers that hang on it.
ALTER TABLE "Email" ADD COLUMN "authSpf" TEXT;
ALTER TABLE "Email" ADD COLUMN "authDkim" TEXT;
ALTER TABLE "Email" ADD COLUMN "authDmarc" TEXT;
ALTER TABLE "Email" ADD COLUMN "authArc" TEXT;
ALTER TABLE "Email" ADD COLUMN "authVerdict" TEXT NOT NULL DEFAULT 'none';
