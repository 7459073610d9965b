import { agentsOfPod } from "../db/pods.ts";
import {
  type EventPage,
  type EventRecord,
  type EventSource,
  type EventsRequest,
  type EventsWait,
  sourceEvents,
  sourceStream,
} from "./events.ts";
import { assertPermitted, type Grant, hiddenFolder, lacking } from "./permissions.ts";
import type { Services } from "./services.ts";
import type { WebhookOwner } from "./webhooks.ts";

// A pod's events through one of its keys: the event log of the pod's agents
// the key reaches, read together from one position (event ids are one
// sequence across agents, so `after` holds across them), long polled and
// streamed as an agent's are, each event naming its agent. And the pod's
// webhooks, which receive every event of every agent of the pod: a key
// limited to some agents manages none (they carry the others' events too).
// An agent outside the pod is never read; a deleted agent's events and
// pending deliveries go with it.

/** The pod's agents the key reaches, as a source of events woken by any of theirs, as the key may see them. */
async function podSource(services: Services, podId: string, grant: Grant): Promise<EventSource> {
  const scope = { podId, idKeys: grant.agents ?? null };
  const agentIds = (await agentsOfPod(services, podId, scope.idKeys)).map((agent) => agent.id);
  return { scope, woken: (signal) => services.wakeups.next(agentIds, signal), hidden: hiddenFolder(grant) };
}

/** The events of the pod's agents the key reaches after an id, oldest first; with a wait, as an agent's. */
export async function podEvents(
  services: Services,
  podId: string,
  grant: Grant,
  request: EventsWait,
  signal?: AbortSignal,
): Promise<EventPage> {
  assertPermitted(grant, "events");
  return sourceEvents(services, await podSource(services, podId.toLowerCase(), grant), request, signal);
}

/**
 * The events of the pod's agents the key reaches as they come, as an agent's
 * stream; the pod's agents are listed again at each wait, so that one made
 * meanwhile is heard of.
 */
export function podEventStream(
  services: Services,
  podId: string,
  grant: Grant,
  request: Omit<EventsRequest, "limit">,
  allowed: () => Promise<boolean>,
  signal?: AbortSignal,
): AsyncGenerator<EventRecord> {
  assertPermitted(grant, "events");
  return sourceStream(services, () => podSource(services, podId.toLowerCase(), grant), request, allowed, signal);
}

/**
 * The pod as the owner of its webhooks (webhooks.ts acts on them as on an
 * agent's), for a key holding `manage` that reaches all its agents.
 */
export function podWebhookOwner(podId: string, grant: Grant): WebhookOwner {
  assertPermitted(grant, "manage");
  if (grant.agents) {
    throw lacking("manage", "A key limited to some of the pod's agents does not manage the pod's webhooks");
  }
  return { podId: podId.toLowerCase() };
}
