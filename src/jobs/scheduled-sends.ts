import { Cron } from "croner";
import { describeFault } from "../log.ts";
import { sendDueDrafts } from "../mailbox/drafts.ts";
import type { Services } from "../mailbox/services.ts";

// Scheduled drafts go out within a second or two of their time: a look every
// second, `protect` skipping one while the previous still sends. The first
// look, at start-up, sends those that came due while no instance ran.

export interface ScheduledSends {
  /** No more looks; resolves once the one under way has sent what it claimed. */
  stop(): Promise<void>;
}

export function scheduleSends(services: Services): ScheduledSends {
  let running: Promise<void> = Promise.resolve();
  const look = () => {
    running = sendDueDrafts(services).then(() => {});
    return running;
  };
  const catchError = (error: unknown) =>
    services.log("error", "scheduled_sends_failed", { error: describeFault(error) });
  const cron = new Cron("* * * * * *", { protect: true, catch: catchError }, look);
  void cron.trigger();
  return {
    async stop() {
      cron.stop();
      await running.catch(() => {});
    },
  };
}
