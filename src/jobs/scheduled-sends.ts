import { sendDueDrafts } from "../mailbox/drafts.ts";
import type { Services } from "../mailbox/services.ts";
import { type EverySecond, everySecond } from "./every-second.ts";

// Scheduled drafts go out within a second or two of their time; at start-up,
// those that came due while no instance ran. Stopping waits for the sends
// under way.

export function scheduleSends(services: Services): EverySecond {
  return everySecond(services, "scheduled_sends_failed", () => sendDueDrafts(services));
}
