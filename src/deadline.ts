// Work given a time limit and, optionally, a signal to stop early. Not
// AbortSignal.any over AbortSignal.timeout: on Node 20 a timeout signal that
// only the combined signal listens to can be garbage-collected before it
// fires, and a wait on it would never end. The timer here is held until the
// work is done.

/** Runs the work with a signal that aborts after `ms`, or when `stop` does; the reason says which. */
export async function withDeadline<T>(
  ms: number,
  stop: AbortSignal | undefined,
  work: (signal: AbortSignal) => Promise<T>,
): Promise<T> {
  const controller = new AbortController();
  const timer = setTimeout(() => controller.abort(new DOMException(`No end within ${ms} ms`, "TimeoutError")), ms);
  const stopped = () => controller.abort(stop?.reason);
  if (stop?.aborted) stopped();
  stop?.addEventListener("abort", stopped, { once: true });
  try {
    return await work(controller.signal);
  } finally {
    clearTimeout(timer);
    stop?.removeEventListener("abort", stopped);
  }
}
