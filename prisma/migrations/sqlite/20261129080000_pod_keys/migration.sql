-- RedefineTables (agentId becomes nullable; a key is an agent's or a pod's, exactly one)
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_Key" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "agentId" TEXT,
    "podId" TEXT,
    "hash" TEXT NOT NULL,
    "name" TEXT NOT NULL,
    "permissions" JSONB NOT NULL DEFAULT [],
    "agents" JSONB,
    "expiresAt" DATETIME,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "Key_agentId_fkey" FOREIGN KEY ("agentId") REFERENCES "Agent" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Key_podId_fkey" FOREIGN KEY ("podId") REFERENCES "Pod" ("id") ON DELETE CASCADE ON UPDATE CASCADE,
    CONSTRAINT "Key_one_owner" CHECK (("agentId" IS NULL) <> ("podId" IS NULL))
);
INSERT INTO "new_Key" ("agentId", "createdAt", "expiresAt", "hash", "id", "name", "permissions") SELECT "agentId", "createdAt", "expiresAt", "hash", "id", "name", "permissions" FROM "Key";
DROP TABLE "Key";
ALTER TABLE "new_Key" RENAME TO "Key";
CREATE UNIQUE INDEX "Key_hash_key" ON "Key"("hash");
CREATE INDEX "Key_agentId_createdAt_idx" ON "Key"("agentId", "createdAt");
CREATE INDEX "Key_podId_createdAt_idx" ON "Key"("podId", "createdAt");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;
