-- RedefineTables
PRAGMA defer_foreign_keys=ON;
PRAGMA foreign_keys=OFF;
CREATE TABLE "new_DkimKey" (
    "id" TEXT NOT NULL PRIMARY KEY,
    "domainName" TEXT NOT NULL,
    "selector" TEXT NOT NULL,
    "publicKey" TEXT NOT NULL,
    "privateKey" TEXT,
    "state" TEXT NOT NULL,
    "createdAt" DATETIME NOT NULL,
    CONSTRAINT "DkimKey_domainName_fkey" FOREIGN KEY ("domainName") REFERENCES "Domain" ("name") ON DELETE CASCADE ON UPDATE CASCADE
);
INSERT INTO "new_DkimKey" ("createdAt", "domainName", "id", "privateKey", "publicKey", "selector", "state") SELECT "createdAt", "domainName", "id", "privateKey", "publicKey", "selector", "state" FROM "DkimKey";
DROP TABLE "DkimKey";
ALTER TABLE "new_DkimKey" RENAME TO "DkimKey";
CREATE INDEX "DkimKey_domainName_state_idx" ON "DkimKey"("domainName", "state");
CREATE UNIQUE INDEX "DkimKey_domainName_selector_key" ON "DkimKey"("domainName", "selector");
PRAGMA foreign_keys=ON;
PRAGMA defer_foreign_keys=OFF;

