import { beforeAll, describe, expect, test } from "vitest";
import { createAgent, type TestAgent, uniqueId } from "./support/api.ts";
import { adminOf, makePodAgent, makePodKey } from "./support/pods.ts";
import { served } from "./support/served.ts";
import { sseSubscription } from "./support/streams.ts";
import { waitFor } from "./support/wait.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

// A pod's events over HTTP, through keys of the pod: its event stream (long
// poll, GraphQL, SSE) from one position across its agents, and its webhooks,
// which a real receiver checks the signature of; never an event of an agent
// outside the pod, and a key limited to some agents sees theirs only.

const TOKEN = "admin-token-pod-events-0123456789";

const { svc, api } = served({
  env: { ADMIN_TOKEN: TOKEN, MAIL_DOMAINS: "localhost", VERIFICATION_MODE: "none", WEBHOOK_ALLOW_PRIVATE: "true" },
});

const admin = adminOf(api, TOKEN);

interface Event {
  id: string;
  type: string;
  agentId: string;
  data: { subject?: string };
}

/** A pod with two agents, an agent outside it, and a key of the pod with every permission. */
const team = { id: "", one: "", two: "", outsider: undefined as unknown as TestAgent, key: "" };

/** A key of the team's pod the operator makes. */
const teamKey = async (body: Record<string, unknown>) => (await makePodKey(admin, team.id, body)).key;

/** An agent of the team's pod, made by the operator. */
const podAgent = async (name: string) => (await makePodAgent(admin, team.id, name)).id;

/** Mail from the outsider to the agent, filed at once (localhost); its subject. */
async function mailTo(agentId: string, subject = uniqueId("subject")): Promise<string> {
  const sent = await api.post(`/agents/${team.outsider.id}/send`, {
    key: team.outsider.apiKey,
    body: { to: `${agentId}@localhost`, subject, text: "Hi." },
  });
  expect(sent.status).toBe(201);
  return subject;
}

const events = (query: string, key = team.key) => api.get(`/pods/${team.id}/events?${query}`, { key });

/** The pod's email.received events the key reads after an id, once the last one has come. */
async function receivedUntil(subject: string, after = "0", key = team.key): Promise<Event[]> {
  return waitFor(
    async () => {
      const page = await events(`after=${after}&types=email.received`, key);
      expect(page.status).toBe(200);
      const data = page.body.data as Event[];
      return data.some((event) => event.data.subject === subject) ? data : null;
    },
    15_000,
    `the event of "${subject}"`,
  );
}

const lacks = (permission: string) => ({
  error: "Forbidden",
  message: expect.any(String),
  statusCode: 403,
  permission,
});

beforeAll(async () => {
  team.id = uniqueId("pod");
  expect((await admin("POST", "/pods", { id: team.id, name: "Team" })).status).toBe(201);
  team.one = await podAgent("one");
  team.two = await podAgent("two");
  team.outsider = await createAgent(api);
  team.key = await teamKey({ permissions: ["read", "send", "manage", "events", "agents"] });
});

describe("happy", () => {
  test("the pod's events come from one position across its agents, each naming its agent", async () => {
    const start = (await events("")).body.nextAfter as string;
    const first = await mailTo(team.one);
    await mailTo(team.outsider.id);
    const second = await mailTo(team.two);
    const seen = await receivedUntil(second, start);
    expect(seen.map((event) => [event.agentId, event.data.subject])).toEqual([
      [team.one, first],
      [team.two, second],
    ]);
    const [one] = seen as [Event];
    const rest = await events(`after=${one.id}&types=email.received`);
    expect(rest.body.data.map((event: Event) => event.agentId)).toEqual([team.two]);
    expect(rest.body.nextAfter).toBe(seen[1]?.id);
  });

  test("a long poll ends at an event of any agent of the pod", async () => {
    const start = (await events("")).body.nextAfter as string;
    const waiting = events(`after=${start}&wait=20&types=email.received`);
    const subject = await mailTo(team.two);
    const page = await waiting;
    expect(page.status).toBe(200);
    expect(page.body.data).toMatchObject([{ agentId: team.two, data: { subject } }]);
  });

  test("GraphQL's podEvents and the podEvents subscription over SSE carry the same", async () => {
    const start = (await events("")).body.nextAfter as string;
    const sse = await sseSubscription(
      svc.url,
      'subscription($podId: ID!, $after: ID) { podEvents(podId: $podId, after: $after, types: ["email.received"]) { id agentId data } }',
      { podId: team.id, after: start },
      team.key,
    );
    try {
      expect(sse.status).toBe(200);
      const subject = await mailTo(team.one);
      const streamed = (await sse.next(15_000)).data.podEvents;
      expect(streamed).toMatchObject({ agentId: team.one, data: { subject } });
      const read = await api.graphql(
        'query($podId: ID!, $after: ID) { podEvents(podId: $podId, after: $after, types: ["email.received"]) { data { id agentId } nextAfter } }',
        { podId: team.id, after: start },
        team.key,
      );
      expect(read.body.data.podEvents.data).toEqual([{ id: streamed.id, agentId: team.one }]);
    } finally {
      sse.close();
    }
  });

  test("a pod's webhook receives the events of every agent of the pod, signed, and none of an agent outside", async () => {
    const receiver = await WebhookReceiver.start();
    try {
      const made = await api.post(`/pods/${team.id}/webhooks`, {
        key: team.key,
        body: { url: receiver.url, events: ["email.received"], description: "the pod" },
      });
      expect(made.status).toBe(201);
      expect(made.body).toMatchObject({ url: receiver.url, events: ["email.received"], enabled: true });
      receiver.secrets.push(made.body.secret);
      const hook = `/pods/${team.id}/webhooks/${made.body.id}`;
      expect((await api.get(`/pods/${team.id}/webhooks`, { key: team.key })).body.data).toMatchObject([
        { id: made.body.id },
      ]);

      const outside = await mailTo(team.outsider.id);
      const first = await mailTo(team.one);
      const second = await mailTo(team.two);
      const got = await receiver.count(2);
      expect(got.map((r) => [r.body.type, r.body.data.agentId, r.body.data.subject]).sort()).toEqual(
        [
          ["email.received", team.one, first],
          ["email.received", team.two, second],
        ].sort(),
      );
      expect(got.every((r) => r.verifiedWith === made.body.secret && r.id === String(r.body.data.eventId))).toBe(true);
      // Deliveries are queued with their events: once the outsider's is in its log, none of it was queued.
      const outsiderEvents = await api.get(`/agents/${team.outsider.id}/events?types=email.received`, {
        key: team.outsider.apiKey,
      });
      expect(outsiderEvents.body.data.map((event: Event) => event.data.subject)).toContain(outside);
      const deliveries = await api.get(`${hook}/deliveries`, { key: team.key });
      expect(deliveries.body.total).toBe(2);

      const rotated = await api.post(`${hook}/rotate-secret`, { key: team.key });
      expect(rotated.status).toBe(200);
      expect(rotated.body.secret).not.toBe(made.body.secret);
      expect((await api.delete(hook, { key: team.key })).body).toMatchObject({ success: true });
      expect((await api.get(hook, { key: team.key })).status).toBe(404);
    } finally {
      await receiver.down();
    }
  });

  test("a deleted agent's events leave the pod's stream", async () => {
    const gone = await podAgent("gone");
    const subject = await mailTo(gone);
    expect((await receivedUntil(subject)).map((event) => event.agentId)).toContain(gone);
    expect((await admin("DELETE", `/agents/${gone}`)).status).toBe(200);
    const after = await events("types=email.received");
    expect(after.body.data.map((event: Event) => event.agentId)).not.toContain(gone);
  });
});

describe("refusals", () => {
  test("a key without events or manage is refused, naming it; an agent's key opens no pod's routes", async () => {
    const readOnly = await teamKey({ permissions: ["read"] });
    const refusedEvents = await events("", readOnly);
    expect([refusedEvents.status, refusedEvents.body]).toEqual([403, lacks("events")]);
    const hook = { url: "http://127.0.0.1:9/hook" };
    const refusedHook = await api.post(`/pods/${team.id}/webhooks`, { key: readOnly, body: hook });
    expect([refusedHook.status, refusedHook.body]).toEqual([403, lacks("manage")]);
    const listed = await api.get(`/pods/${team.id}/webhooks`, { key: readOnly });
    expect([listed.status, listed.body]).toEqual([403, lacks("manage")]);
    expect((await events("", team.outsider.apiKey)).status).toBe(403);
    const sse = await sseSubscription(
      svc.url,
      "subscription($podId: ID!) { podEvents(podId: $podId) { id } }",
      { podId: team.id },
      readOnly,
    );
    expect(sse.status).toBe(403);
    expect((await sse.next()).errors?.[0]?.extensions).toMatchObject({ permission: "events" });
    sse.close();
  });

  test("a manage-only key points no pod webhook anywhere nor takes its secret (403 naming events)", async () => {
    const made = await api.post(`/pods/${team.id}/webhooks`, { key: team.key, body: { url: "http://127.0.0.1:9/" } });
    expect(made.status).toBe(201);
    const hook = `/pods/${team.id}/webhooks/${made.body.id}`;
    const manageOnly = await teamKey({ permissions: ["manage"] });
    const refusals: [string, string, unknown][] = [
      ["POST", `/pods/${team.id}/webhooks`, { url: "http://127.0.0.1:9/elsewhere" }],
      ["PATCH", hook, { url: "http://127.0.0.1:9/elsewhere" }],
      // The secret signs what the pod's receiver believes: it would forge the service's events.
      ["POST", `${hook}/rotate-secret`, undefined],
    ];
    for (const [method, path, body] of refusals) {
      const reply = await api.call(method, path, { key: manageOnly, body });
      expect([path, reply.status, reply.body]).toEqual([path, 403, lacks("events")]);
    }
    expect((await api.delete(hook, { key: manageOnly })).status).toBe(200);
  });

  test("a key limited to one agent sees only that agent's events, and manages no pod webhook", async () => {
    const limited = await teamKey({ permissions: ["events", "manage"], agents: [team.one] });
    await mailTo(team.two);
    const last = await mailTo(team.one);
    const seen = await receivedUntil(last, "0", limited);
    expect(new Set(seen.map((event) => event.agentId))).toEqual(new Set([team.one]));
    const refused = await api.post(`/pods/${team.id}/webhooks`, { key: limited, body: { url: "http://127.0.0.1:9/" } });
    expect([refused.status, refused.body]).toEqual([403, lacks("manage")]);
  });
});
