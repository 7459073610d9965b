-- Search moves to a table of its own, as narrow as a match's check and
-- rank need, with every word tagged by its agent (16 hex digits of its id's
-- SHA-256) in front, so a search's GIN lookup reads only the words of the
-- agent it is for: before, a common word or prefix found every agent's mail,
-- which was then checked against wide "Email" rows.
-- The service splits, folds and tags the words (src/db/search.ts, the code
-- that reads queries, as on SQLite), writes an email's entry in the
-- transaction that files it, and fills this table from "Email" right after
-- this migration. Deleting an email deletes its entry.
DROP TRIGGER "Email_search" ON "Email";
DROP FUNCTION "email_search_vector"();
DROP FUNCTION "email_search_words"(text);
DROP INDEX "Email_search_idx";
ALTER TABLE "Email" DROP COLUMN "search";

CREATE TABLE "EmailSearch" (
    "emailId" TEXT NOT NULL,
    "emailReceivedAt" TIMESTAMP(3) NOT NULL,
    "search" tsvector NOT NULL,
    CONSTRAINT "EmailSearch_pkey" PRIMARY KEY ("emailId"),
    CONSTRAINT "EmailSearch_emailId_fkey" FOREIGN KEY ("emailId") REFERENCES "Email"("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- Ranking reads every match's words: lz4 unpacks them several times faster
-- than the default where the server has it (PostgreSQL 14 and later; older
-- ones know no such statement, so it is run as text, its error caught).
DO $$
BEGIN
    EXECUTE 'ALTER TABLE "EmailSearch" ALTER COLUMN "search" SET COMPRESSION lz4';
EXCEPTION WHEN feature_not_supported OR syntax_error OR invalid_parameter_value THEN
    NULL;
END
$$;

CREATE INDEX "EmailSearch_search_idx" ON "EmailSearch" USING GIN ("search");
