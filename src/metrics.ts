import { Counter, collectDefaultMetrics, Gauge, Histogram, Registry } from "prom-client";

// What /metrics shows, in Prometheus' conventions: pigeonhole_…_total for
// counts, _seconds for times, base units. One registry per running service,
// so that several in one process (as the tests run them) never mix.

export interface Metrics {
  registry: Registry;
  request(labels: { method: string; route: string; status: number }, seconds: number): void;
  operation(name: string): void;
  /** A message read from the catch-all, and what became of it: stored, duplicate, or why it was dropped. */
  inbound(outcome: string, count?: number): void;
  /** A scanner's verdict on an inbound message: scanned, clean, infected or unscanned. */
  scan(scanner: "rspamd" | "clamav", result: string): void;
  /** A message handed to the provider: accepted, unconfirmed (no answer by the deadline) or failed. */
  send(outcome: string, seconds: number): void;
  quotaRefused(code: string): void;
}

/** What the poller's gauges read of it (src/inbound/state.ts keeps it up to date). */
export interface PollerReadings {
  /** This instance holds the catch-all's lease (one instance polls at a time). */
  polling: boolean;
  connected: boolean;
  /** When the mailbox was last read to the end. */
  lastPollAt: Date | null;
  /** Messages on the server not yet filed, as of the last look. */
  lag: number | null;
}

/** The time buckets of a request or a send, in seconds. */
const BUCKETS = [0.001, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30];

export function createMetrics(inbound: PollerReadings | null): Metrics {
  const registry = new Registry();
  collectDefaultMetrics({ register: registry });
  const requests = new Histogram({
    name: "pigeonhole_http_request_duration_seconds",
    help: "HTTP requests by method, route template and status, and how long they took",
    labelNames: ["method", "route", "status"],
    buckets: BUCKETS,
    registers: [registry],
  });
  const operations = new Counter({
    name: "pigeonhole_graphql_operations_total",
    help: "GraphQL operations run, by name (REST routes run theirs too)",
    labelNames: ["operation"],
    registers: [registry],
  });
  const inboundMessages = new Counter({
    name: "pigeonhole_inbound_messages_total",
    help: "Messages read from the catch-all, by outcome: stored, report (recorded on the sent email it is about), duplicate, or the reason they were dropped",
    labelNames: ["outcome"],
    registers: [registry],
  });
  const scans = new Counter({
    name: "pigeonhole_inbound_scans_total",
    help: "Inbound messages put to a scanner, by scanner and result: scanned or clean, infected, or unscanned (it did not answer)",
    labelNames: ["scanner", "result"],
    registers: [registry],
  });
  const sends = new Histogram({
    name: "pigeonhole_smtp_send_duration_seconds",
    help: "Messages handed to the provider, by outcome, and how long the provider took",
    labelNames: ["outcome"],
    buckets: BUCKETS,
    registers: [registry],
  });
  const refusals = new Counter({
    name: "pigeonhole_quota_refusals_total",
    help: "Requests refused for a quota, by code",
    labelNames: ["code"],
    registers: [registry],
  });
  pollerGauges(registry, inbound);
  return {
    registry,
    request: ({ method, route, status }, seconds) =>
      requests.observe({ method, route, status: String(status) }, seconds),
    operation: (name) => operations.inc({ operation: name }),
    inbound: (outcome, count = 1) => inboundMessages.inc({ outcome }, count),
    scan: (scanner, result) => scans.inc({ scanner, result }),
    send: (outcome, seconds) => sends.observe({ outcome }, seconds),
    quotaRefused: (code) => refusals.inc({ code }),
  };
}

/** The poller's state, read when scraped. */
function pollerGauges(registry: Registry, inbound: PollerReadings | null): void {
  if (!inbound) return;
  const gauge = (name: string, help: string, value: () => number | null) =>
    new Gauge({
      name,
      help,
      registers: [registry],
      collect() {
        const current = value();
        if (current !== null) this.set(current);
      },
    });
  gauge("pigeonhole_imap_polling", "1 while this instance holds the catch-all's lease", () => Number(inbound.polling));
  gauge("pigeonhole_imap_connected", "1 while connected to the catch-all", () => Number(inbound.connected));
  gauge("pigeonhole_imap_last_poll_timestamp_seconds", "When the catch-all was last read to the end", () =>
    inbound.lastPollAt ? inbound.lastPollAt.getTime() / 1000 : null,
  );
  gauge("pigeonhole_imap_lag_messages", "Messages on the server not yet filed, at the last look", () => inbound.lag);
}
