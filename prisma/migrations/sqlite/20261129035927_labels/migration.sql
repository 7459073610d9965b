-- Labels: an email's and a thread's, each kept twice. The row's "labels"
-- (JSON) is what every read shows, read with the row at no extra statement;
-- "EmailLabel" and "ThreadLabel" hold one row a label, for the filters
-- (label=, label=-x) to find by key, on both databases alike.
-- Columns are added in place: a copy of "Email" would renumber its rowids,
-- which its search index ("EmailSearch") is keyed by.
ALTER TABLE "Email" ADD COLUMN "labels" JSONB NOT NULL DEFAULT '[]';
ALTER TABLE "Thread" ADD COLUMN "labels" JSONB NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "EmailLabel" (
    "emailId" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    PRIMARY KEY ("emailId", "name"),
    CONSTRAINT "EmailLabel_emailId_fkey" FOREIGN KEY ("emailId") REFERENCES "Email" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateTable
CREATE TABLE "ThreadLabel" (
    "threadId" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    PRIMARY KEY ("threadId", "name"),
    CONSTRAINT "ThreadLabel_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);
