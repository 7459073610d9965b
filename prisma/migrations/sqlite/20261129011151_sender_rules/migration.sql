-- Allow and block lists at three scopes (instance, domain, agent), for
-- receiving and for sending, in a table of their own. Each agent's sender
-- lists move into it as its agent-scope receive lists; a non-empty allow
-- list meant "only these senders", which is now the agent's allowOnly.
-- SQLite drops the old columns in place (3.35): no copy of "Agent".

-- CreateTable
CREATE TABLE "ListEntry" (
    "scope" TEXT NOT NULL,
    "scopeId" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "entry" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "domainName" TEXT,
    "agentId" TEXT,

    PRIMARY KEY ("scope", "scopeId", "direction", "kind", "entry"),
    CONSTRAINT "ListEntry_domainName_fkey" FOREIGN KEY ("domainName") REFERENCES "Domain" ("name") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "ListEntry_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE
);

-- CreateIndex
CREATE INDEX "ListEntry_direction_entry_idx" ON "ListEntry"("direction", "entry");

-- CreateIndex
CREATE INDEX "ListEntry_agentId_idx" ON "ListEntry"("agentId");

-- CreateIndex
CREATE INDEX "ListEntry_domainName_idx" ON "ListEntry"("domainName");

-- AlterTable
ALTER TABLE "Agent" ADD COLUMN "allowOnly" BOOLEAN NOT NULL DEFAULT false;

-- The agents' lists in their order, each entry once (they were kept so), dated now as Prisma writes a DateTime here.
INSERT INTO "ListEntry" ("scope", "scopeId", "direction", "kind", "entry", "createdAt", "position", "agentId")
SELECT 'agent', "Agent"."id", 'receive', 'allow', lower("list"."value"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), min("list"."key"), "Agent"."id"
FROM "Agent", json_each("Agent"."senderAllow") AS "list"
GROUP BY "Agent"."id", lower("list"."value");

INSERT INTO "ListEntry" ("scope", "scopeId", "direction", "kind", "entry", "createdAt", "position", "agentId")
SELECT 'agent', "Agent"."id", 'receive', 'block', lower("list"."value"), strftime('%Y-%m-%dT%H:%M:%f+00:00', 'now'), min("list"."key"), "Agent"."id"
FROM "Agent", json_each("Agent"."senderBlock") AS "list"
GROUP BY "Agent"."id", lower("list"."value");

UPDATE "Agent" SET "allowOnly" = true WHERE json_array_length("senderAllow") > 0;

-- AlterTable
ALTER TABLE "Agent" DROP COLUMN "senderAllow";

-- AlterTable
ALTER TABLE "Agent" DROP COLUMN "senderBlock";
