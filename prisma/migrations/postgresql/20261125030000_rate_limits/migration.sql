-- Request rate limits, counted here so that every instance counts together
-- (src/mailbox/request-limits.ts). The table is rate-limiter-flexible's own
-- layout; it is not a Prisma model. SQLite counts in memory: one instance.
CREATE TABLE "RateLimit" (
    "key" VARCHAR(255) PRIMARY KEY,
    "points" INTEGER NOT NULL DEFAULT 0,
    "expire" BIGINT
);
