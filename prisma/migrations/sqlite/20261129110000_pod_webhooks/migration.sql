-- RedefineTables (agentId becomes nullable; a webhook is an agent's or a pod's, exactly one). The migration runs with
-- foreign keys off (db/migrate.ts), so dropping the old table leaves its deliveries be.
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Webhook" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agentId" TEXT,
    "podId" TEXT,
    "url" TEXT NOT NULL,
    "events" TEXT NOT NULL,
    "description" TEXT,
    "secret" TEXT NOT NULL,
    "enabled" BOOLEAN NOT NULL,
    "disabledReason" TEXT,
    "failuresInARow" INTEGER NOT NULL DEFAULT 0,
    "failingSince" DATETIME,
    "pausedUntil" DATETIME,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "Webhook_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Webhook_podId_fkey" FOREIGN KEY ("podId") REFERENCES "Pod" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Webhook_one_owner" CHECK (("agentId" IS NULL) <> ("podId" IS NULL))
);
INSERT INTO "new_Webhook" ("id", "agentId", "url", "events", "description", "secret", "enabled", "disabledReason", "failuresInARow", "failingSince", "pausedUntil", "createdAt") SELECT "id", "agentId", "url", "events", "description", "secret", "enabled", "disabledReason", "failuresInARow", "failingSince", "pausedUntil", "createdAt" FROM "Webhook";
DROP TABLE "Webhook";
ALTER TABLE "new_Webhook" RENAME TO "Webhook";
CREATE INDEX "Webhook_agentId_idx" ON "Webhook"("agentId");
CREATE INDEX "Webhook_podId_idx" ON "Webhook"("podId");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

-- AlterTable (a nullable column with a foreign key is added in place: no table to redefine)
ALTER TABLE "WebhookDelivery" ADD COLUMN "agentId" TEXT REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- Every delivery so far is of its webhook's agent's event.
UPDATE "WebhookDelivery" SET "agentId" = (SELECT "agentId" FROM "Webhook" WHERE "Webhook"."id" = "WebhookDelivery"."webhookId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_agentId_idx" ON "WebhookDelivery"("agentId");
