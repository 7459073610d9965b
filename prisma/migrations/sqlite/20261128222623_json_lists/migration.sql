-- Lists and records kept as JSON become Prisma Json fields, which Prisma
-- converts to and from arrays and objects. Their columns stay as they are on
-- SQLite: it has no JSON type (a column declared JSONB gets NUMERIC affinity
-- and keeps text all the same), Prisma reads these fields as JSON by the data
-- model, and the copy a new column type would take renumbers "Email"'s
-- rowids, which its search index ("EmailSearch") is keyed by.
--
-- A sent email kept as an idempotent answer (for 24 hours) had its recipient
-- lists as JSON text inside the answer's JSON: they become arrays.
UPDATE "IdempotencyKey" SET "answer" = json_set("answer",
  '$.value.toList', json(json_extract("answer", '$.value.toList')),
  '$.value.ccList', json(json_extract("answer", '$.value.ccList')),
  '$.value.bccList', json(json_extract("answer", '$.value.bccList')))
WHERE json_type("answer", '$.value.toList') = 'text';
