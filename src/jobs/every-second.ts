import { Cron } from "croner";
import { describeFault } from "../log.ts";
import type { Services } from "../mailbox/services.ts";

// A look every second for work that has come due, `protect` skipping one
// while the previous is still under way. The first look, at start-up, takes
// what came due while no instance ran.

export interface EverySecond {
  /** No more looks; the signal tells the one under way to stop; resolves once it has. */
  stop(): Promise<void>;
}

/** Runs `look` every second; a failure is logged as `failed` and the next look goes on. */
export function everySecond(
  services: Services,
  failed: string,
  look: (stopping: AbortSignal) => Promise<unknown>,
): EverySecond {
  const stopping = new AbortController();
  let running: Promise<void> = Promise.resolve();
  const catchError = (error: unknown) => services.log("error", failed, { error: describeFault(error) });
  const cron = new Cron("* * * * * *", { protect: true, catch: catchError }, () => {
    running = look(stopping.signal).then(() => {});
    return running;
  });
  void cron.trigger();
  return {
    async stop() {
      cron.stop();
      stopping.abort();
      await running.catch(() => {});
    },
  };
}
