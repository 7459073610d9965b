import { expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";

// Request limits on SQLite (counted in memory): registrations per client
// address per hour, and requests per key, refused with when to retry.

const memory = memoryOfFile({ RATE_LIMIT_REGISTRATIONS_PER_HOUR: "2", RATE_LIMIT_REQUESTS_PER_SECOND: "1" });

test("registrations past the hour's limit are refused for that address only", async () => {
  const { limits } = memory.services;
  await limits.registration("192.0.2.1");
  await limits.registration("192.0.2.1");
  const refused = limits.registration("192.0.2.1");
  await expect(refused).rejects.toMatchObject({ kind: "RATE_LIMITED", details: { code: "REQUEST_RATE_LIMITED" } });
  await expect(refused).rejects.toMatchObject({
    headers: { "RateLimit-Policy": '"registration";q=2;w=3600' },
  });
  await limits.registration("192.0.2.2");
});

test("requests with one key past its rate, bursts included, are refused; another key is counted apart", async () => {
  const { limits } = memory.services;
  // Fifty at once: far past one a second and a burst of one more, however slowly they run.
  const outcomes = await Promise.allSettled(Array.from({ length: 50 }, () => limits.perKey("ph_one")));
  expect(outcomes.filter((outcome) => outcome.status === "rejected").length).toBeGreaterThan(0);
  await limits.perKey("ph_two");
});
