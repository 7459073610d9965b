import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { describe, expect, test } from "vitest";
import { withDeadline } from "./deadline.ts";

setFlagsFromString("--expose-gc");
const gc = runInNewContext("gc") as () => void;

/** Waits for the signal to abort, and answers its reason's name. */
const aborted = (signal: AbortSignal) =>
  new Promise<string>((resolve) => signal.addEventListener("abort", () => resolve(signal.reason.name)));

describe("withDeadline", () => {
  test("the time limit fires even when a garbage collection runs during the wait", async () => {
    const waiting = withDeadline(200, undefined, aborted);
    await new Promise((r) => setTimeout(r, 50));
    gc();
    const outcome = await Promise.race([waiting, new Promise((r) => setTimeout(() => r("never"), 2_000))]);
    expect(outcome).toBe("TimeoutError");
  });

  test("the stop signal ends it early, with its own reason", async () => {
    const stop = new AbortController();
    const waiting = withDeadline(10_000, stop.signal, aborted);
    stop.abort(new DOMException("stopping", "AbortError"));
    expect(await waiting).toBe("AbortError");
  });

  test("an already stopped signal aborts at once; work that finishes first answers its value", async () => {
    const stopped = AbortSignal.abort();
    expect(await withDeadline(10_000, stopped, async (signal) => signal.aborted)).toBe(true);
    expect(await withDeadline(10_000, undefined, async () => 42)).toBe(42);
  });
});
