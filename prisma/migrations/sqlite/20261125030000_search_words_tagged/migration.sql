-- Every word of the search index carries its agent's tag (16 hex digits of
-- its id's SHA-256) in front, so a search reads only the words of the agent
-- it is for: before, the agent was a word of its own AND-ed with the query,
-- and a common word or prefix read every agent's entries for it.
-- The service splits, folds and tags the words (src/db/search.ts, the code
-- that reads queries), writes an email's entry in the transaction that files
-- it, and fills this index from "Email" right after this migration. The
-- ascii tokenizer splits at the spaces it writes and nowhere else in a word.
-- Contentless: the text is in "Email"; contentless_delete lets the trigger
-- remove an entry by rowid. Prefix sizes: the tag and a word's first 2-4.
DROP TRIGGER "Email_search_insert";
DROP TRIGGER "Email_search_update";
DROP TRIGGER "Email_search_delete";
DROP TABLE "EmailSearch";

CREATE VIRTUAL TABLE "EmailSearch" USING fts5(
    "subject", "sender", "body",
    tokenize = 'ascii',
    content = '',
    contentless_delete = 1,
    prefix = '18 19 20'
);

CREATE TRIGGER "Email_search_delete" AFTER DELETE ON "Email" BEGIN
    DELETE FROM "EmailSearch" WHERE "rowid" = old."rowid";
END;
