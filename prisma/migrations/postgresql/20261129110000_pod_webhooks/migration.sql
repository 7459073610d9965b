-- AlterTable
ALTER TABLE "Webhook" ADD COLUMN     "podId" TEXT,
ALTER COLUMN "agentId" DROP NOT NULL;

-- A webhook is an agent's or a pod's: exactly one (not in the Prisma schema, which has no CHECK)
ALTER TABLE "Webhook" ADD CONSTRAINT "Webhook_one_owner" CHECK (("agentId" IS NULL) <> ("podId" IS NULL));

-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "agentId" TEXT;

-- Every delivery so far is of its webhook's agent's event.
UPDATE "WebhookDelivery" SET "agentId" = "Webhook"."agentId" FROM "Webhook" WHERE "Webhook"."id" = "WebhookDelivery"."webhookId";

-- CreateIndex
CREATE INDEX "Webhook_podId_idx" ON "Webhook"("podId");

-- CreateIndex
CREATE INDEX "WebhookDelivery_agentId_idx" ON "WebhookDelivery"("agentId");

-- AddForeignKey
ALTER TABLE "Webhook" ADD CONSTRAINT "Webhook_podId_fkey" FOREIGN KEY ("podId") REFERENCES "Pod"("id") ON DELETE CASCADE ON UPDATE CASCADE;

-- AddForeignKey
ALTER TABLE "WebhookDelivery" ADD CONSTRAINT "WebhookDelivery_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent"("id") ON DELETE CASCADE ON UPDATE CASCADE;
