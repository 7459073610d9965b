import { setTimeout as sleep } from "node:timers/promises";

/** Polls until check returns something truthy, or fails after timeoutMs. */
export async function waitFor<T>(
  check: () => Promise<T | null> | T | null,
  timeoutMs = 15_000,
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
