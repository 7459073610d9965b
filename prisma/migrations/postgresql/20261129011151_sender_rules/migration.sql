-- Allow and block lists at three scopes (instance, domain, agent), for
-- receiving and for sending, in a table of their own. Each agent's sender
-- lists move into it as its agent-scope receive lists; a non-empty allow
-- list meant "only these senders", which is now the agent's allowOnly.

-- CreateTable
CREATE TABLE "ListEntry" (
    "scope" TEXT NOT NULL,
    "scopeId" TEXT NOT NULL,
    "direction" TEXT NOT NULL,
    "kind" TEXT NOT NULL,
    "entry" TEXT NOT NULL,
    "createdAt" TIMESTAMP(3) NOT NULL,
    "position" INTEGER NOT NULL DEFAULT 0,
    "domainName" TEXT,
    "agentId" TEXT,

    CONSTRAINT "ListEntry_pkey" PRIMARY KEY ("scope","scopeId","direction","kind","entry")
);

-- CreateIndex
CREATE INDEX "ListEntry_direction_entry_idx" ON "ListEntry"("direction", "entry");

-- CreateIndex
CREATE INDEX "ListEntry_agentId_idx" ON "ListEntry"("agentId");

-- CreateIndex
CREATE INDEX "ListEntry_domainName_idx" ON "ListEntry"("domainName");

-- AddForeignKey
ALTER TABLE "ListEntry" ADD CONSTRAINT "ListEntry_domainName_fkey" FOREIGN KEY ("domainName") REFERENCES "Domain"("name") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "ListEntry" ADD CONSTRAINT "ListEntry_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AlterTable
ALTER TABLE "Agent" ADD COLUMN     "allowOnly" BOOLEAN NOT NULL DEFAULT false;

-- The agents' lists in their order, each entry once (they were kept so).
INSERT INTO "ListEntry" ("scope", "scopeId", "direction", "kind", "entry", "createdAt", "position", "agentId")
SELECT 'agent', "Agent"."id", 'receive', 'allow', lower("list"."value"), CURRENT_TIMESTAMP, min("list"."n") - 1, "Agent"."id"
FROM "Agent", jsonb_array_elements_text("Agent"."senderAllow") WITH ORDINALITY AS "list"("value", "n")
GROUP BY "Agent"."id", lower("list"."value");

INSERT INTO "ListEntry" ("scope", "scopeId", "direction", "kind", "entry", "createdAt", "position", "agentId")
SELECT 'agent', "Agent"."id", 'receive', 'block', lower("list"."value"), CURRENT_TIMESTAMP, min("list"."n") - 1, "Agent"."id"
FROM "Agent", jsonb_array_elements_text("Agent"."senderBlock") WITH ORDINALITY AS "list"("value", "n")
GROUP BY "Agent"."id", lower("list"."value");

UPDATE "Agent" SET "allowOnly" = true WHERE jsonb_array_length("senderAllow") > 0;

-- AlterTable
ALTER TABLE "Agent" DROP COLUMN "senderAllow",
DROP COLUMN "senderBlock";
