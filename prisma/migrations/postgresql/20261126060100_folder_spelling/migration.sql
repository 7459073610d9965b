-- Custom folders whose names differ only in case are one folder, spelled as
-- its oldest mail has it (on SQLite, LOWER folds ASCII letters only).
UPDATE "Email" SET "folder" = (
    SELECT "first"."folder" FROM "Email" AS "first"
    WHERE "first"."agentId" = "Email"."agentId" AND LOWER("first"."folder") = LOWER("Email"."folder")
    ORDER BY "first"."receivedAt", "first"."id"
    LIMIT 1
) WHERE "folder" NOT IN ('inbox', 'archive', 'trash');
