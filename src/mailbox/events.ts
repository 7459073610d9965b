import { appendEvents, type EventScope, eventsAfter, newestEventId, type StoredEvent } from "../db/events.ts";
import { emailsLabelled, type LabelSelector } from "../db/labels.ts";
import type { Tx } from "../db/statements.ts";
import { DELIVERIES_QUEUED } from "../db/wakeups.ts";
import { enabledWebhooks } from "../db/webhook-deliveries.ts";
import { withDeadline } from "../deadline.ts";
import { ServiceError } from "../errors.ts";
import type { Reader } from "./emails.ts";
import { checkedEventTypes, EVENT_TYPES, type EventData, type EventType } from "./event-types.ts";
import { labelSelector } from "./labels.ts";
import { LIMIT_PROBLEM } from "./pages.ts";
import type { Services } from "./services.ts";
import { queueDeliveries } from "./webhooks.ts";

export { EVENT_TYPES, type EventType };

// The event log: what happened to an agent's mail, written by the domain in
// the same transaction as the change it reports, read in id order. Long
// polls, subscriptions and webhooks all read it; wake-ups only say when to
// look again. A read may be narrowed by type, and by label: to events about
// an email that carries the labels when they are read. A read is of a source:
// one agent's events, or those of a pod's agents together (pod-events.ts).

export type NewEvent = { [T in EventType]: { type: T; agentId: string; data: EventData[T] } }[EventType];

/** An event as read; its id in decimal digits, increasing: compare them as numbers. */
export type EventRecord = StoredEvent & { type: EventType };

export const MAX_EVENTS_PER_READ = 100;
/** Longest wait a request may ask for, inside the 30-second request timeout. */
export const MAX_WAIT_SECONDS = 25;

/**
 * Appends the transaction's events once its work is done. What needs no order
 * first: each agent's webhooks, and the NOTIFY (PostgreSQL delivers it when
 * the transaction commits), and the webhook worker's when one of the agents
 * has webhooks. Then the appending takes its turn, held until commit, so that
 * event ids become visible in the order they were handed out (a sequence
 * alone hands them out before commit, and id 101 could be seen before 100).
 * Last and short: transactions on other agents' mail run side by side up to
 * it, on several instances too; and one holding it waits on no row another
 * holds, so none waits on another in a circle. Answers whether one of the
 * agents has webhooks: the worker in this process is then woken at commit.
 */
async function appendAll(tx: Tx, services: Services, events: NewEvent[]): Promise<boolean> {
  const { clock, sql, wakeups } = services;
  const agentIds = [...new Set(events.map(({ agentId }) => agentId))];
  const webhooks = await enabledWebhooks(tx, agentIds);
  const withWebhooks = [...webhooks.values()].some((enabled) => enabled.length > 0);
  await wakeups.announce(tx, withWebhooks ? [...agentIds, DELIVERIES_QUEUED] : agentIds);
  await sql.takeTurns(tx, "events");
  const stored = events.map((event) => ({ ...event, createdAt: clock.now() }));
  const ids = await appendEvents(tx, stored);
  for (const [index, event] of stored.entries()) {
    const id = ids[index] as string;
    await queueDeliveries(tx, { ...event, id }, webhooks.get(event.agentId) ?? []);
  }
  return withWebhooks;
}

/** Appends an event to the transaction's work. */
export type Emit = (event: NewEvent) => Promise<void>;

/**
 * Runs the work in one transaction together with the events it emits; once
 * it commits, the agents' waiters in this process are woken.
 */
export async function withEvents<T>(services: Services, work: (tx: Tx, emit: Emit) => Promise<T>): Promise<T> {
  const agents = new Set<string>();
  const { sql } = services;
  const result = await sql.transaction(async (tx) => {
    const emitted: NewEvent[] = [];
    const done = await work(tx, async (event) => {
      emitted.push(event);
    });
    if (emitted.length === 0) return done;
    if (await appendAll(tx, services, emitted)) agents.add(DELIVERIES_QUEUED);
    for (const { agentId } of emitted) agents.add(agentId);
    return done;
  });
  services.wakeups.committed(agents);
  return result;
}

export interface EventsRequest {
  /** Events after this id; 0 for all that are kept. */
  after?: string | null;
  limit?: number | null;
  types?: readonly string[] | null;
  /** Only events about an email with each of these labels (-label: without it). */
  label?: readonly string[] | null;
}

interface ValidRequest {
  after: string;
  limit: number;
  types: string[] | null;
  labels: LabelSelector | null;
}

function validated(request: EventsRequest): ValidRequest {
  const after = request.after ?? "0";
  if (!/^\d{1,19}$/.test(after)) throw new ServiceError("BAD_REQUEST", "after must be an event id: decimal digits");
  const limit = request.limit ?? MAX_EVENTS_PER_READ;
  if (limit < 1) throw new ServiceError("BAD_REQUEST", LIMIT_PROBLEM);
  const types = request.types?.length ? checkedEventTypes(request.types, "types") : null;
  const labels = labelSelector(request.label);
  return { after: String(BigInt(after)), limit: Math.min(limit, MAX_EVENTS_PER_READ), types, labels };
}

/** Of the events read, those about an email the selector picks (each agent's emails read for that agent). */
async function labelled(services: Services, events: EventRecord[], labels: LabelSelector | null) {
  if (labels === null) return events;
  const emailIdOf = (event: EventRecord) => (typeof event.data.emailId === "string" ? event.data.emailId : null);
  const picked = new Set<EventRecord>();
  for (const agentId of new Set(events.map((event) => event.agentId))) {
    const own = events.filter((event) => event.agentId === agentId);
    const ids = [...new Set(own.flatMap((event) => emailIdOf(event) ?? []))];
    const emails = await emailsLabelled(services.sql, agentId, ids, labels);
    for (const event of own) if (emails.has(emailIdOf(event) ?? "")) picked.add(event);
  }
  return events.filter((event) => picked.has(event));
}

/**
 * Whose events a read is of (one agent's, or those of the agents of a pod a
 * key reaches), and how to hear that more may have come: registered at once,
 * so that an event written during the read that follows still wakes it.
 */
export interface EventSource {
  scope: EventScope;
  woken(signal: AbortSignal): Promise<void>;
  /** The folder whose mail the reader is barred from (hiddenFolder), null for none. */
  hidden: string | null;
}

/** The agent's events as its reader sees them, woken by its own. */
const agentSource = (services: Services, agent: Reader & { id: string }): EventSource => ({
  scope: { agentId: agent.id },
  woken: (signal) => services.wakeups.next([agent.id], signal),
  hidden: agent.hidden ?? null,
});

/**
 * Of the events read, all but those about mail in the folder the source is barred from: filed there
 * (email.received, message.screened), left there by a change (email.updated) or deleted from there
 * (email.deleted).
 */
const shownTo = (source: EventSource, events: EventRecord[]) =>
  source.hidden === null ? events : events.filter((event) => event.data.folder !== source.hidden);

/** The source's events after an id, oldest first. */
async function read(services: Services, source: EventSource, after: string, limit: number, types: string[] | null) {
  return (await eventsAfter(services, source.scope, after, limit, types)) as EventRecord[];
}

export interface EventPage {
  data: EventRecord[];
  /** Where the next read starts: the last id given, or the same `after` when none was. */
  nextAfter: string;
}

/** A request's events: a page read after an id, with a wait in seconds. */
export type EventsWait = EventsRequest & { waitSeconds?: number | null };

/** Events after an id, oldest first; with a wait, holds on until at least one exists or the time runs out. */
export function agentEvents(
  services: Services,
  agent: Reader & { id: string },
  request: EventsWait,
  signal?: AbortSignal,
): Promise<EventPage> {
  return sourceEvents(services, agentSource(services, agent), request, signal);
}

/** The source's events after an id, oldest first; with a wait, holds on until at least one exists or the time runs out. */
export async function sourceEvents(
  services: Services,
  source: EventSource,
  request: EventsWait,
  signal?: AbortSignal,
): Promise<EventPage> {
  const { after, limit, types, labels } = validated(request);
  const wait = request.waitSeconds ?? 0;
  if (wait < 0 || wait > MAX_WAIT_SECONDS) {
    throw new ServiceError("BAD_REQUEST", `Invalid wait: expected an integer from 0 to ${MAX_WAIT_SECONDS}`);
  }
  return withDeadline(wait * 1000, signal, async (deadline) => {
    let from = after;
    for (;;) {
      const woken = source.woken(deadline);
      const events = await read(services, source, from, limit, types);
      const kept = shownTo(source, await labelled(services, events, labels));
      if (kept.length > 0 || deadline.aborted) return { data: kept, nextAfter: events.at(-1)?.id ?? from };
      // None about mail with the labels: move past them.
      if (events.length > 0) {
        from = events.at(-1)?.id ?? from;
        continue;
      }
      // Nothing of the asked types: move past what there is, up to the first that is (it may have come since).
      const others = types ? await read(services, source, from, limit, null) : [];
      if (others.length > 0) {
        const firstWanted = others.findIndex((event) => types?.includes(event.type));
        from = (firstWanted < 0 ? others.at(-1) : others[firstWanted - 1])?.id ?? from;
        continue;
      }
      await woken;
    }
  });
}

/** How often a stream with nothing to say checks that its caller may still read. */
const RECHECK_SECONDS = 5;

/**
 * The agent's events as they come: those after `after` first, then live,
 * without a gap or a repeat at the seam. Ends when the signal aborts, or when
 * `allowed` says the caller may no longer read (its key rotated, its agent gone).
 */
export function eventStream(
  services: Services,
  agent: Reader & { id: string },
  request: Omit<EventsRequest, "limit">,
  allowed: () => Promise<boolean>,
  signal?: AbortSignal,
): AsyncGenerator<EventRecord> {
  return sourceStream(services, () => agentSource(services, agent), request, allowed, signal);
}

/**
 * The source's events as they come, as eventStream's; the source is made
 * again for each wait, so that a pod's stream hears of agents made since.
 * Without `after`, it starts at the newest of the source's events.
 */
export async function* sourceStream(
  services: Services,
  sourceNow: () => EventSource | Promise<EventSource>,
  request: Omit<EventsRequest, "limit">,
  allowed: () => Promise<boolean>,
  signal?: AbortSignal,
): AsyncGenerator<EventRecord> {
  let after = request.after ?? (await newestEventId(services, (await sourceNow()).scope));
  while (!signal?.aborted) {
    const source = await sourceNow();
    const page = await sourceEvents(services, source, { ...request, after, waitSeconds: RECHECK_SECONDS }, signal);
    for (const event of page.data) yield event;
    after = page.nextAfter;
    if (!(await allowed())) return;
  }
}
