import type { PollerReadings } from "../metrics.ts";

/** The poller's own account of itself, kept up to date as it works: its readings, and its last error. */
export interface InboundState extends PollerReadings {
  lastError: string | null;
}

/** How a poller starts out: not yet holding the lease, not connected, nothing read. */
export const initialInboundState = (): InboundState => ({
  polling: false,
  connected: false,
  lastPollAt: null,
  lag: null,
  lastError: null,
});
