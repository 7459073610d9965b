-- Labels: an email's and a thread's, kept twice: the row's "labels" (JSON),
-- which every read shows, and one row a label in "EmailLabel" and
-- "ThreadLabel", for the filters (label=, label=-x) to find by key.
-- AlterTable
ALTER TABLE "Email" ADD COLUMN     "labels" JSONB NOT NULL DEFAULT '[]';

-- AlterTable
ALTER TABLE "Thread" ADD COLUMN     "labels" JSONB NOT NULL DEFAULT '[]';

-- CreateTable
CREATE TABLE "EmailLabel" (
    "emailId" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "EmailLabel_pkey" PRIMARY KEY ("emailId","name")
);

-- CreateTable
CREATE TABLE "ThreadLabel" (
    "threadId" TEXT NOT NULL,
    "name" TEXT NOT NULL,

    CONSTRAINT "ThreadLabel_pkey" PRIMARY KEY ("threadId","name")
);

-- AddForeignKey
ALTER TABLE "EmailLabel" ADD CONSTRAINT "EmailLabel_emailId_fkey" FOREIGN KEY ("emailId") REFERENCES "Email"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ThreadLabel" ADD CONSTRAINT "ThreadLabel_threadId_fkey" FOREIGN KEY ("threadId") REFERENCES "Thread"("id") ON DELETE CASCADE ON UPDATE CASCADE;

