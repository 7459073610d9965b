import { readFile } from "node:fs/promises";

// How many connections the kernel holds for a listening port that this
// process has not taken yet: its accept queue. While the event loop is busy
// (a batch of mail being filed, a burst of requests), Node takes them a few
// at a time and hundreds may wait there; closing the listening socket resets
// every one. Linux says how many in /proc/net/tcp and /proc/net/tcp6: a
// listener's rx_queue is its accept queue (what `ss -lt` shows as Recv-Q).
// Elsewhere nothing says it, and null is answered.

/** /proc/net/tcp's state of a listening socket (TCP_LISTEN). */
const LISTENING = "0A";

/** The connections waiting in the accept queue of the port's listening sockets; null where the system does not say. */
export async function acceptQueue(port: number): Promise<number | null> {
  const tables = await Promise.all(
    ["/proc/net/tcp", "/proc/net/tcp6"].map((path) => readFile(path, "utf8").catch(() => null)),
  );
  if (tables.every((table) => table === null)) return null;
  const local = `:${port.toString(16).toUpperCase().padStart(4, "0")}`;
  let waiting = 0;
  for (const row of tables.flatMap((table) => table?.split("\n").slice(1) ?? [])) {
    // sl local_address rem_address st tx_queue:rx_queue …
    const [, address, , state, queues] = row.trim().split(/\s+/);
    if (state === LISTENING && address?.endsWith(local)) waiting += Number.parseInt(queues?.split(":")[1] ?? "0", 16);
  }
  return waiting;
}
