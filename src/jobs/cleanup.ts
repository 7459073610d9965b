import { Cron } from "croner";
import { describeFault } from "../log.ts";
import { cleanUp } from "../mailbox/cleanup.ts";
import type { Services } from "../mailbox/services.ts";

/** The cleanup every minute; `protect` skips a run while the previous one is still going. */
export function scheduleCleanup(services: Services): Cron {
  const catchError = (error: unknown) => services.log("error", "cleanup_failed", { error: describeFault(error) });
  return new Cron("* * * * *", { protect: true, catch: catchError }, () => cleanUp(services));
}
