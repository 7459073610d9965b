-- The search index gains the agent as a word of its own ('a' and its id in
-- hex), so a search reads only the entries of the agent it is for, however
-- much mail the other agents hold. Rebuilt from "Email"; the triggers that
-- keep it in step are made anew with it.
DROP TRIGGER "Email_search_insert";
DROP TRIGGER "Email_search_update";
DROP TRIGGER "Email_search_delete";
DROP TABLE "EmailSearch";

CREATE VIRTUAL TABLE "EmailSearch" USING fts5(
    "subject", "sender", "body", "agent",
    tokenize = 'unicode61 remove_diacritics 2',
    prefix = '2 3 4'
);

CREATE TRIGGER "Email_search_insert" AFTER INSERT ON "Email" BEGIN
    INSERT INTO "EmailSearch" ("rowid", "subject", "sender", "body", "agent")
    VALUES (new."rowid", COALESCE(new."subject", ''), COALESCE(new."fromName", '') || ' ' || new."fromAddress", COALESCE(new."text", ''), 'a' || hex(new."agentId"));
END;

CREATE TRIGGER "Email_search_update" AFTER UPDATE OF "subject", "fromName", "fromAddress", "text", "agentId" ON "Email" BEGIN
    DELETE FROM "EmailSearch" WHERE "rowid" = old."rowid";
    INSERT INTO "EmailSearch" ("rowid", "subject", "sender", "body", "agent")
    VALUES (new."rowid", COALESCE(new."subject", ''), COALESCE(new."fromName", '') || ' ' || new."fromAddress", COALESCE(new."text", ''), 'a' || hex(new."agentId"));
END;

CREATE TRIGGER "Email_search_delete" AFTER DELETE ON "Email" BEGIN
    DELETE FROM "EmailSearch" WHERE "rowid" = old."rowid";
END;

INSERT INTO "EmailSearch" ("rowid", "subject", "sender", "body", "agent")
    SELECT "rowid", COALESCE("subject", ''), COALESCE("fromName", '') || ' ' || "fromAddress", COALESCE("text", ''), 'a' || hex("agentId") FROM "Email";
