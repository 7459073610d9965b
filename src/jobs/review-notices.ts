import { sendDueNotices } from "../mailbox/review-notices.ts";
import type { Services } from "../mailbox/services.ts";
import { type EverySecond, everySecond } from "./every-second.ts";

// Held mail's review links go to their reviewers within a second or two of
// the hold; at start-up, those left while no instance ran. Stopping abandons
// an attempt in flight, to be tried again.

export function scheduleReviewNotices(services: Services): EverySecond {
  return everySecond(services, "review_notices_failed", (stopping) => sendDueNotices(services, stopping));
}
