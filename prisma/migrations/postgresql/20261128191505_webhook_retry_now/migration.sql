-- AlterTable
ALTER TABLE "WebhookDelivery" ADD COLUMN     "retryNow" BOOLEAN NOT NULL DEFAULT false;

