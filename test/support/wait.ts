import { setTimeout as sleep } from "node:timers/promises";

/**
 * How long a test waits for a condition unless it says: far longer than it
 * takes, so that a machine busy with both databases' files, the scanners'
 * daemons and Chromium at once is never mistaken for a failure.
 */
export const WAIT_MS = 30_000;

/** Polls until check returns something truthy, or fails after timeoutMs. */
export async function waitFor<T>(
  check: () => Promise<T | null> | T | null,
  timeoutMs = WAIT_MS,
  what = "condition",
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(50);
  }
}
