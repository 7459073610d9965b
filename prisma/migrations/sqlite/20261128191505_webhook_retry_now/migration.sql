-- AlterTable
-- Added in place (SQLite takes a NOT NULL column with a constant default), rather than by copying the table.
ALTER TABLE "WebhookDelivery" ADD COLUMN "retryNow" BOOLEAN NOT NULL DEFAULT false;
