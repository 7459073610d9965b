import { describe, expect, test } from "vitest";
import { memoryOfFile, rawMessage } from "../testing/memory.ts";
import { createPodWithAgents, podGrant } from "../testing/pods.ts";
import { addressOf, createAgent, deleteAgent } from "./agents.ts";
import { listEmails, updateEmail } from "./emails.ts";
import { podEventStream, podEvents, podWebhookOwner } from "./pod-events.ts";
import type { AgentRecord } from "./records.ts";
import { claimDueDeliveries } from "./webhook-deliveries.ts";
import { createWebhook, listDeliveries } from "./webhooks.ts";

// A pod's events: the log of the pod's agents a key reaches, read from one
// position across them; and the pod's webhooks, which get every event of the
// pod's agents and nothing else.

const memory = memoryOfFile({ VERIFICATION_MODE: "none" });

const mail = (agent: AgentRecord, subject: string) => memory.mailTo(agent, { Subject: subject });
const subjects = (page: { data: { data: Record<string, unknown> }[] }) => page.data.map((event) => event.data.subject);

describe("a pod's events", () => {
  test("the pod's agents' events in one order, after an id across agents; none of an agent outside", async () => {
    const [one, two] = await createPodWithAgents(memory, "reading", ["r-one", "r-two"]);
    const outsider = await memory.agent("r-outsider");
    await mail(one, "first");
    await mail(outsider, "elsewhere");
    await mail(two, "second");
    await mail(one, "third");
    const grant = podGrant("reading", ["events"]);
    const first = await podEvents(memory.services, "Reading", grant, { limit: 2 });
    expect(first.data.map((event) => [event.agentId, event.data.subject])).toEqual([
      ["r-one", "first"],
      ["r-two", "second"],
    ]);
    const rest = await podEvents(memory.services, "reading", grant, { after: first.nextAfter });
    expect(subjects(rest)).toEqual(["third"]);
  });

  test("a key limited to some agents reads theirs only; without events it is refused, naming it", async () => {
    const [one, two] = await createPodWithAgents(memory, "limited", ["l-one", "l-two"]);
    await mail(one, "for one");
    await mail(two, "for two");
    const page = await podEvents(
      memory.services,
      "limited",
      podGrant("limited", ["events"], { agents: ["l-two"] }),
      {},
    );
    expect(page.data.map((event) => event.agentId)).toEqual(["l-two"]);
    await expect(podEvents(memory.services, "limited", podGrant("limited", ["read"]), {})).rejects.toMatchObject({
      kind: "FORBIDDEN",
      details: { permission: "events" },
    });
  });

  test("label keeps the events about an email with the label, each agent's emails read as its own", async () => {
    const [one, two] = await createPodWithAgents(memory, "labelled", ["lb-one", "lb-two"]);
    await mail(one, "marked");
    await mail(two, "unmarked");
    const [mine] = (await listEmails(memory.services, one, {})).data;
    await updateEmail(memory.services, one, mine?.id ?? "", { addLabels: ["todo"] });
    const grant = podGrant("labelled", ["events"]);
    const page = await podEvents(memory.services, "labelled", grant, { types: ["email.received"], label: ["todo"] });
    expect(page.data.map((event) => [event.agentId, event.data.subject])).toEqual([["lb-one", "marked"]]);
  });

  test("a wait ends at an event of any agent of the pod", async () => {
    const [, two] = await createPodWithAgents(memory, "waiting", ["w-one", "w-two"]);
    const waiting = podEvents(memory.services, "waiting", podGrant("waiting", ["events"]), { waitSeconds: 10 });
    await mail(two, "woke it");
    expect(subjects(await waiting)).toEqual(["woke it"]);
  });

  test("a stream hears of an agent made in the pod after it started", async () => {
    const [one] = await createPodWithAgents(memory, "streaming", ["s-one"]);
    const stream = podEventStream(
      memory.services,
      "streaming",
      podGrant("streaming", ["events"]),
      {},
      async () => true,
    );
    const next = stream.next();
    await mail(one, "before");
    expect((await next).value?.data.subject).toBe("before");
    await createAgent(memory.services, { id: "s-late", name: "late", podId: "streaming" }, "operator");
    const late = await memory.reload({ id: "s-late" } as AgentRecord);
    const after = stream.next();
    await mail(late, "late one");
    expect((await after).value).toMatchObject({ agentId: "s-late", data: { subject: "late one" } });
    await stream.return(undefined);
  });
});

describe("a pod's webhooks", () => {
  test("only a key with manage that reaches every agent of the pod has them", () => {
    expect(podWebhookOwner("Hooks", podGrant("hooks", ["manage"]))).toEqual({ podId: "hooks" });
    for (const grant of [podGrant("hooks", ["events"]), podGrant("hooks", ["manage"], { agents: ["h-one"] })]) {
      expect(() => podWebhookOwner("hooks", grant)).toThrow(
        expect.objectContaining({ details: { permission: "manage" } }),
      );
    }
  });

  test("a pod's webhook gets a delivery of each event of the pod's agents, naming the agent, and no other", async () => {
    const [one, two] = await createPodWithAgents(memory, "hooked", ["h-one", "h-two"]);
    const outsider = await memory.agent("h-outsider");
    const { webhook } = await createWebhook(memory.services, { podId: "hooked" }, { url: "https://hooks.example/pod" });
    await mail(one, "to one");
    await mail(outsider, "to the outsider");
    await mail(two, "to two");
    const due = (await claimDueDeliveries(memory.services, 50)).filter((d) => d.webhookId === webhook.id);
    // Claimed by when they are due, the same moment here: in no order.
    expect(due.map((delivery) => JSON.parse(delivery.payload).data.agentId).sort()).toEqual(["h-one", "h-two"]);
    expect(due.every((delivery) => delivery.webhookAgentId === null)).toBe(true);
  });

  test("one message filed for several agents at once: each event goes to its agent's webhooks and its pod's only", async () => {
    const [one, two] = await createPodWithAgents(memory, "together", ["t-one", "t-two"]);
    const [outsider, bare] = [await memory.agent("t-outsider"), await memory.agent("t-bare")];
    const pod = await createWebhook(memory.services, { podId: "together" }, { url: "https://hooks.example/pod" });
    const own = await createWebhook(memory.services, { agentId: outsider.id }, { url: "https://hooks.example/own" });
    const addresses = [one, outsider, bare, two].map((agent) => addressOf(agent, memory.services.config));
    await memory.receive(rawMessage({ To: addresses.join(", "), Subject: "to all" }), addresses);
    const due = await claimDueDeliveries(memory.services, 50);
    const agentsOf = (webhookId: string) =>
      due
        .filter((delivery) => delivery.webhookId === webhookId)
        .map((delivery) => JSON.parse(delivery.payload).data.agentId)
        .sort();
    expect(agentsOf(pod.webhook.id)).toEqual(["t-one", "t-two"]);
    expect(agentsOf(own.webhook.id)).toEqual(["t-outsider"]);
    expect(due.filter((delivery) => JSON.parse(delivery.payload).data.agentId === bare.id)).toEqual([]);
  });

  test("deleting an agent deletes its events' deliveries to its pod's webhooks", async () => {
    const [one, two] = await createPodWithAgents(memory, "forgetting", ["f-one", "f-two"]);
    const owner = { podId: "forgetting" };
    const { webhook } = await createWebhook(memory.services, owner, { url: "https://hooks.example/forget" });
    await mail(one, "kept");
    await mail(two, "forgotten");
    expect((await listDeliveries(memory.services, owner, webhook.id, {})).total).toBe(2);
    await deleteAgent(memory.services, two);
    const left = await listDeliveries(memory.services, owner, webhook.id, {});
    expect(left.data.map((delivery) => JSON.parse(delivery.payload).data.agentId)).toEqual(["f-one"]);
    expect(subjects(await podEvents(memory.services, "forgetting", podGrant("forgetting", ["events"]), {}))).toEqual([
      "kept",
    ]);
  });
});
