-- Full-text search over received mail: an FTS5 index beside "Email", keyed by
-- its rowid and kept in step by triggers, so every insert, change and delete
-- (an agent's deletion's cascade included) updates it in the same transaction.
-- unicode61 with remove_diacritics matches without case or accents.
-- A later migration that redefines "Email" (a new table, rows copied) must
-- rebuild this index, since the copied rows may get other rowids.
CREATE VIRTUAL TABLE "EmailSearch" USING fts5(
    "subject", "sender", "body",
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3 4'
);

CREATE TRIGGER "Email_search_insert" AFTER INSERT ON "Email" BEGIN
    INSERT INTO "EmailSearch" ("rowid", "subject", "sender", "body")
    VALUES (new."rowid", COALESCE(new."subject", ''), COALESCE(new."fromName", '') || ' ' || new."fromAddress", COALESCE(new."text", ''));
END;

CREATE TRIGGER "Email_search_update" AFTER UPDATE OF "subject", "fromName", "fromAddress", "text" ON "Email" BEGIN
    DELETE FROM "EmailSearch" WHERE "rowid" = old."rowid";
    INSERT INTO "EmailSearch" ("rowid", "subject", "sender", "body")
    VALUES (new."rowid", COALESCE(new."subject", ''), COALESCE(new."fromName", '') || ' ' || new."fromAddress", COALESCE(new."text", ''));
END;

CREATE TRIGGER "Email_search_delete" AFTER DELETE ON "Email" BEGIN
    DELETE FROM "EmailSearch" WHERE "rowid" = old."rowid";
END;

INSERT INTO "EmailSearch" ("rowid", "subject", "sender", "body")
    SELECT "rowid", COALESCE("subject", ''), COALESCE("fromName", '') || ' ' || "fromAddress", COALESCE("text", '') FROM "Email";

CREATE INDEX "Email_agentId_fromAddress_idx" ON "Email"("agentId", "fromAddress");
