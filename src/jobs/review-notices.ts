import { Cron } from "croner";
import { describeFault } from "../log.ts";
import { sendDueNotices } from "../mailbox/review-notices.ts";
import type { Services } from "../mailbox/services.ts";

// Held mail's review links go to their reviewers within a second or two of
// the hold: a look every second, `protect` skipping one while the previous
// still sends. The first look, at start-up, sends those left while no
// instance ran.

export interface ReviewNotices {
  /** No more looks; resolves once the one under way is done (an attempt in flight is abandoned). */
  stop(): Promise<void>;
}

export function scheduleReviewNotices(services: Services): ReviewNotices {
  const stopping = new AbortController();
  let running: Promise<void> = Promise.resolve();
  const look = () => {
    running = sendDueNotices(services, stopping.signal).then(() => {});
    return running;
  };
  const catchError = (error: unknown) =>
    services.log("error", "review_notices_failed", { error: describeFault(error) });
  const cron = new Cron("* * * * * *", { protect: true, catch: catchError }, look);
  void cron.trigger();
  return {
    async stop() {
      cron.stop();
      stopping.abort();
      await running.catch(() => {});
    },
  };
}
