-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Agent" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "idKey" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "metadata" JSONB,
    "apiKeyHash" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    "verifiedAt" DATETIME,
    "socialUsername" TEXT,
    "verificationCode" TEXT,
    "verificationExpires" DATETIME,
    "storageUsed" INTEGER NOT NULL DEFAULT 0,
    "senderAllow" TEXT NOT NULL DEFAULT '[]',
    "senderBlock" TEXT NOT NULL DEFAULT '[]'
);
INSERT INTO "new_Agent" ("apiKeyHash", "createdAt", "id", "idKey", "metadata", "name", "socialUsername", "storageUsed", "verificationCode", "verificationExpires", "verifiedAt") SELECT "apiKeyHash", "createdAt", "id", "idKey", "metadata", "name", "socialUsername", "storageUsed", "verificationCode", "verificationExpires", "verifiedAt" FROM "Agent";
DROP TABLE "Agent";
ALTER TABLE "new_Agent" RENAME TO "Agent";
CREATE UNIQUE INDEX "Agent_idKey_key" ON "Agent"("idKey");
CREATE UNIQUE INDEX "Agent_apiKeyHash_key" ON "Agent"("apiKeyHash");
CREATE UNIQUE INDEX "Agent_socialUsername_key" ON "Agent"("socialUsername");
CREATE INDEX "Agent_verifiedAt_createdAt_idx" ON "Agent"("verifiedAt", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

