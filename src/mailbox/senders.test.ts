import { describe, expect, test } from "vitest";
import { requestScope } from "../log.ts";
import { memoryOfFile } from "../testing/memory.ts";
import { deleteAgentById, findAgent } from "./admin.ts";
import { createAgent } from "./agents.ts";
import { addDomain, deleteDomain } from "./domains.ts";
import { recipientRefusal, refusedBeforeReading } from "./intake.ts";
import { FULL_GRANT } from "./permissions.ts";
import { createPod, deletePod } from "./pods.ts";
import { returnPathFor } from "./return-path.ts";
import {
  addListEntry,
  entriesFor,
  explicitlyAllowed,
  getLists,
  getPodLists,
  getSenders,
  type ListHolder,
  received,
  removeListEntry,
  senderAllowed,
  senderStandings,
  setLists,
  setPodLists,
  setSenders,
  standingOf,
} from "./senders.ts";

const memory = memoryOfFile({ MAIL_DOMAINS: "agents.example,other.example" });

const INSTANCE = { scope: "instance" } as const;
const domainOwner = (name: string) => ({ scope: "domain", name }) as const;
const podOwner = (id: string) => ({ scope: "pod", id }) as const;
const agentOwner = (id: string) => ({ scope: "agent", id }) as const;
const heading = (from: string, recipients: string[]) => ({ from, recipients });

/** A fresh agent, on the default domain unless named, in a pod when named. */
async function agentAt(domain?: string, podId?: string): Promise<ListHolder & { id: string }> {
  const id = `a${Math.random().toString(36).slice(2, 10)}`;
  return (await createAgent(memory.services, { id, name: id, domain, podId }, "operator")).agent;
}

/** A fresh pod, without domains. */
async function newPod(): Promise<string> {
  const id = `p${Math.random().toString(36).slice(2, 10)}`;
  return (await createPod(memory.services, { id, name: id })).id;
}

const mayMail = (agent: ListHolder, sender: string) =>
  senderAllowed(memory.services.sql, memory.services, agent, sender);

describe("the deciding rule, on entries naming one address", () => {
  test("an address is named by itself, its domain, and @*. of its domain and each parent", () => {
    expect(entriesFor("Pat@Mail.Corp.Example")).toEqual([
      "pat@mail.corp.example",
      "@mail.corp.example",
      "@*.mail.corp.example",
      "@*.corp.example",
      "@*.example",
    ]);
  });

  test.each([
    [[], null],
    [[{ scope: "instance", kind: "block" }], { verdict: "block", scope: "instance" }],
    [
      [
        { scope: "instance", kind: "block" },
        { scope: "domain", kind: "allow" },
      ],
      { verdict: "allow", scope: "domain" },
    ],
    [
      [
        { scope: "domain", kind: "allow" },
        { scope: "agent", kind: "block" },
      ],
      { verdict: "block", scope: "agent" },
    ],
    [
      [
        { scope: "agent", kind: "allow" },
        { scope: "agent", kind: "block" },
      ],
      { verdict: "block", scope: "agent" },
    ],
    [
      [
        { scope: "domain", kind: "allow" },
        { scope: "pod", kind: "block" },
        { scope: "instance", kind: "allow" },
      ],
      { verdict: "block", scope: "pod" },
    ],
    [
      [
        { scope: "pod", kind: "block" },
        { scope: "agent", kind: "allow" },
      ],
      { verdict: "allow", scope: "agent" },
    ],
    [
      [
        { scope: "pod", kind: "allow" },
        { scope: "pod", kind: "block" },
        { scope: "domain", kind: "allow" },
      ],
      { verdict: "block", scope: "pod" },
    ],
  ] as const)("%j: %j (the narrowest scope naming it; block over allow within one)", (entries, standing) => {
    expect(standingOf([...entries])).toEqual(standing);
  });

  test.each([
    [null, false, true],
    [null, true, false],
    [{ verdict: "allow", scope: "instance" }, true, false],
    [{ verdict: "allow", scope: "pod" }, true, false],
    [{ verdict: "allow", scope: "agent" }, true, true],
    [{ verdict: "block", scope: "agent" }, false, false],
  ] as const)("%j, allowOnly %s: filed %s", (standing, allowOnly, filed) => {
    expect(received(standing, allowOnly)).toBe(filed);
  });
});

describe("three scopes, in the store", () => {
  test("a block at any scope refuses; a narrower allow wins over a wider block", async () => {
    const agent = await agentAt();
    const elsewhere = await agentAt("other.example");
    await setLists(memory.services, INSTANCE, { receive: { block: ["@spam.example", "@*.bulk.example"] } });
    await setLists(memory.services, domainOwner("agents.example"), {
      receive: { allow: ["friend@spam.example"], block: ["@noisy.example"] },
    });
    await setLists(memory.services, agentOwner(agent.id), { receive: { allow: ["@noisy.example"] } });
    const outcomes = async (holder: ListHolder, senders: string[]) =>
      Promise.all(senders.map((sender) => mayMail(holder, sender)));
    const senders = [
      "x@spam.example",
      "friend@spam.example",
      "x@bulk.example",
      "x@deep.mail.bulk.example",
      "x@notbulk.example",
      "x@noisy.example",
    ];
    expect(await outcomes(agent, senders)).toEqual([false, true, false, false, true, true]);
    // The domain's lists are its agents' only; the agent's, its own.
    expect(await outcomes(elsewhere, senders)).toEqual([false, false, false, false, true, true]);
    await setLists(memory.services, INSTANCE, { receive: {} });
  });

  test("explicitly allowed: an allow entry decides; a block never is", async () => {
    const agent = await agentAt();
    await setLists(memory.services, domainOwner("agents.example"), { receive: { allow: ["@trusted.example"] } });
    await setLists(memory.services, agentOwner(agent.id), { receive: { block: ["bad@trusted.example"] } });
    const allowed = (sender: string) => explicitlyAllowed(memory.services.sql, memory.services, agent, sender);
    expect([
      await allowed("ok@trusted.example"),
      await allowed("bad@trusted.example"),
      await allowed("x@y.example"),
    ]).toEqual([true, false, false]);
    await setLists(memory.services, domainOwner("agents.example"), { receive: {} });
  });

  test("allow only: its own allow list, not the operator's, lets a sender through", async () => {
    const agent = await agentAt();
    await setLists(memory.services, INSTANCE, { receive: { allow: ["@partner.example"] } });
    await setSenders(memory.services, agent, { allow: ["boss@work.example"], allowOnly: true });
    const holder = { ...agent, allowOnly: true };
    expect([
      await mayMail(holder, "BOSS@work.example"),
      await mayMail(holder, "x@partner.example"),
      await mayMail(holder, "x@work.example"),
    ]).toEqual([true, false, false]);
    await setLists(memory.services, INSTANCE, { receive: {} });
  });

  test("the SMTP door's RCPT TO answers by the lists, before the message is sent", async () => {
    const agent = await agentAt();
    const address = `${(agent as { id: string }).id.toLowerCase()}@agents.example`;
    await setLists(memory.services, INSTANCE, { receive: { block: ["@spam.example"] } });
    await setSenders(memory.services, agent, { allow: ["ok@spam.example"], allowOnly: false });
    const refusal = (sender: string) => recipientRefusal(memory.services, address, sender);
    expect(await refusal("x@spam.example")).toMatchObject({ code: 550, status: "5.7.1" });
    expect(await refusal("ok@spam.example")).toBeNull();
    expect(await refusal("")).toBeNull();
    await setLists(memory.services, INSTANCE, { receive: {} });
  });

  test("a send to a blocked recipient is refused whole, naming it; a narrower allow lets it go", async () => {
    const agent = await memory.agent(`s${Math.random().toString(36).slice(2, 8)}`);
    await setLists(memory.services, INSTANCE, { send: { block: ["@competitor.example"] } });
    const send = (to: string) => memory.sendNow(agent, { to: [to], subject: "Hi", text: "Hello" });
    await expect(send("ceo@competitor.example")).rejects.toMatchObject({
      kind: "BAD_REQUEST",
      details: { code: "RECIPIENT_BLOCKED", recipients: ["ceo@competitor.example"] },
      message: expect.stringContaining("ceo@competitor.example (the instance's send list)"),
    });
    await setLists(memory.services, agentOwner(agent.id), { send: { allow: ["ceo@competitor.example"] } });
    await expect(send("ceo@competitor.example")).resolves.toMatchObject({ toList: ["ceo@competitor.example"] });
    await setLists(memory.services, INSTANCE, { send: {} });
  });
});

describe("a pod's lists, between its agents' own and their domain's", () => {
  test("a pod's block refuses for its agents only; an agent's allow wins over it, and the pod's over the domain's", async () => {
    const podId = await newPod();
    const [member, allowing, outsider] = [
      await agentAt(undefined, podId),
      await agentAt(undefined, podId),
      await agentAt(),
    ];
    await setLists(memory.services, domainOwner("agents.example"), { receive: { allow: ["@vendor.example"] } });
    await setLists(memory.services, podOwner(podId), {
      receive: { allow: ["@spam.example"], block: ["@vendor.example"] },
    });
    await setLists(memory.services, INSTANCE, { receive: { block: ["@spam.example"] } });
    await setSenders(memory.services, allowing, { allow: ["sales@vendor.example"], allowOnly: false });
    const outcomes = (holder: ListHolder) =>
      Promise.all(["sales@vendor.example", "x@spam.example"].map((sender) => mayMail(holder, sender)));
    expect(await outcomes(member)).toEqual([false, true]);
    expect(await outcomes(allowing)).toEqual([true, true]);
    expect(await outcomes(outsider)).toEqual([true, false]);
    await setLists(memory.services, INSTANCE, { receive: {} });
    await setLists(memory.services, domainOwner("agents.example"), { receive: {} });
  });

  test("allow-only mode stays the agent's own: a pod's allow entry does not let a stranger through", async () => {
    const podId = await newPod();
    const strict = await agentAt(undefined, podId);
    await setLists(memory.services, podOwner(podId), { receive: { allow: ["@partner.example"] } });
    await setSenders(memory.services, strict, { allow: ["boss@work.example"], allowOnly: true });
    const holder = { ...strict, allowOnly: true };
    expect([await mayMail(holder, "x@partner.example"), await mayMail(holder, "boss@work.example")]).toEqual([
      false,
      true,
    ]);
    expect(await explicitlyAllowed(memory.services.sql, memory.services, strict, "x@partner.example")).toBe(true);
  });

  test("before reading, and at RCPT TO: the pod's block, in the same one read of the lists per recipient", async () => {
    const podId = await newPod();
    const [member, outsider] = [await agentAt(undefined, podId), await agentAt()];
    await setLists(memory.services, podOwner(podId), { receive: { block: ["@spam.example"] } });
    const at = (agent: { id: string }) => `${agent.id}@agents.example`;
    expect(
      await refusedBeforeReading(memory.services, [heading("x@spam.example", [at(member), at(outsider)])]),
    ).toEqual([[at(member)]]);
    expect(await recipientRefusal(memory.services, at(member), "x@spam.example")).toMatchObject({ code: 550 });
    expect(await recipientRefusal(memory.services, at(outsider), "x@spam.example")).toBeNull();
    const statements = async (address: string) => {
      const scope = { requestId: "r", agentId: null, clientIp: "127.0.0.1", statements: 0 };
      await requestScope.run(scope, () =>
        refusedBeforeReading(memory.services, [heading("x@spam.example", [address])]),
      );
      return scope.statements;
    };
    const [ofMember, ofOutsider] = [await statements(at(member)), await statements(at(outsider))];
    expect(ofMember).toBeGreaterThan(0);
    expect(ofMember).toBe(ofOutsider);
  });

  test("a send to a recipient the pod's send list blocks is refused, naming the pod's list", async () => {
    const podId = await newPod();
    const agent = await agentAt(undefined, podId);
    const sender = await findAgent(memory.services, agent.id);
    await setLists(memory.services, podOwner(podId), { send: { block: ["@competitor.example"] } });
    await expect(
      memory.sendNow(sender, { to: ["ceo@competitor.example"], subject: "Hi", text: "Hello" }),
    ).rejects.toMatchObject({
      details: { code: "RECIPIENT_BLOCKED" },
      message: expect.stringContaining("ceo@competitor.example (the pod's send list)"),
    });
  });

  test("a pod's key: manage to read or change them, and reaching every agent of the pod to change them", async () => {
    const podId = await newPod();
    const manager = { ...FULL_GRANT, keyId: "k1", podId };
    const change = { receive: { block: ["X@Spam.example"] } };
    expect(await setPodLists(memory.services, podId, manager, change)).toEqual({
      receive: { allow: [], block: ["x@spam.example"] },
      send: { allow: [], block: [] },
      allowOnly: null,
    });
    expect((await getPodLists(memory.services, podId, manager)).receive.block).toEqual(["x@spam.example"]);
    const reader = { ...manager, permissions: ["read" as const] };
    await expect(getPodLists(memory.services, podId, reader)).rejects.toMatchObject({
      kind: "FORBIDDEN",
      details: { permission: "manage" },
    });
    const limited = { ...manager, agents: ["someone"] };
    await expect(setPodLists(memory.services, podId, limited, change)).rejects.toMatchObject({
      kind: "FORBIDDEN",
      details: { permission: "manage" },
    });
    await expect(setPodLists(memory.services, podId, manager, { allowOnly: true })).rejects.toThrow(/only an agent's/);
  });

  test("a pod's key makes its send lists only stricter: an allow there would decide over the operator's blocks", async () => {
    const podId = await newPod();
    const manager = { ...FULL_GRANT, keyId: "k1", podId };
    await setLists(memory.services, podOwner(podId), { send: { block: ["@rival.example"] } });
    memory.clock.advance(1000);
    const stricter = { send: { block: ["@rival.example", "@other.example"] } };
    expect((await setPodLists(memory.services, podId, manager, stricter)).send).toEqual({
      allow: [],
      block: ["@rival.example", "@other.example"],
    });
    const allowing = { send: { allow: ["ceo@rival.example"], block: ["@rival.example", "@other.example"] } };
    await expect(setPodLists(memory.services, podId, manager, allowing)).rejects.toMatchObject({
      kind: "FORBIDDEN",
      message: expect.stringContaining("(allowing ceo@rival.example)"),
    });
    await expect(setPodLists(memory.services, podId, manager, { send: { block: [] } })).rejects.toMatchObject({
      message: expect.stringContaining("(lifting the block of @rival.example, lifting the block of @other.example)"),
    });
    // Receiving stays the pod's own to open: an allow there lets its agents hear from a sender.
    const receiving = { receive: { allow: ["ceo@rival.example"] } };
    expect((await setPodLists(memory.services, podId, manager, receiving)).receive.allow).toEqual([
      "ceo@rival.example",
    ]);
    expect(await setLists(memory.services, podOwner(podId), allowing)).toMatchObject({ send: allowing.send });
    // Taking the operator's allow away is stricter, so the key's.
    memory.clock.advance(1000);
    const narrowed = { send: { allow: [], block: ["@rival.example", "@other.example", "@third.example"] } };
    expect((await setPodLists(memory.services, podId, manager, narrowed)).send).toEqual(narrowed.send);
  });

  test("a deleted pod's lists go with it; a pod that is not there has none", async () => {
    const podId = await newPod();
    await setLists(memory.services, podOwner(podId), { send: { block: ["x@y.example"] } });
    await deletePod(memory.services, podId);
    await createPod(memory.services, { id: podId, name: podId });
    expect((await getLists(memory.services, podOwner(podId))).send).toEqual({ allow: [], block: [] });
    await expect(getLists(memory.services, podOwner("nowhere"))).rejects.toMatchObject({ kind: "NOT_FOUND" });
  });
});

describe("several agents at once", () => {
  test("one read stands each agent's senders as a read of its own would: its lists, its pod's, its domain's", async () => {
    const podId = await newPod();
    const [plain, member, elsewhere, own] = [
      await agentAt(),
      await agentAt(undefined, podId),
      await agentAt("other.example"),
      await agentAt(),
    ];
    await setLists(memory.services, podOwner(podId), { receive: { block: ["@pods-block.example"] } });
    await setLists(memory.services, domainOwner("other.example"), { receive: { block: ["@domain-block.example"] } });
    await setLists(memory.services, agentOwner(own.id), { receive: { allow: ["@pods-block.example"] } });
    const senders = ["a@pods-block.example", "b@domain-block.example", "c@fine.example"];
    const agents = [plain, member, elsewhere, own];
    const scope = { requestId: "standings", agentId: null, clientIp: "", statements: 0 };
    const together = await requestScope.run(scope, () =>
      senderStandings(
        memory.services.sql,
        memory.services,
        agents.map((agent) => ({ agent, senders })),
      ),
    );
    expect(scope.statements).toBe(1);
    for (const agent of agents) {
      const alone = await Promise.all(senders.map((sender) => mayMail(agent, sender)));
      expect([...(together.get(agent.id)?.values() ?? [])].map(({ filed }) => filed)).toEqual(alone);
    }
    expect(await Promise.all(agents.map((agent) => mayMail(agent, senders[0] as string)))).toEqual([
      true,
      false,
      true,
      true,
    ]);
  });
});

describe("before a message is read", () => {
  test("the recipients whose lists refuse its From, by the rule filing applies: three scopes, allow-only mode", async () => {
    const [open, strict, blocking] = [await agentAt(), await agentAt(), await agentAt("other.example")];
    const at = (agent: ListHolder, domain = "agents.example") => `${(agent as { id: string }).id}@${domain}`;
    await setLists(memory.services, INSTANCE, { receive: { block: ["@spam.example"] } });
    await setLists(memory.services, domainOwner("other.example"), { receive: { block: ["@*.bulk.example"] } });
    await setSenders(memory.services, strict, { allow: ["boss@work.example"], allowOnly: true });
    await setSenders(memory.services, open, { allow: ["ok@spam.example"], allowOnly: false });
    const recipients = [at(open), at(strict), at(blocking, "other.example"), "nobody@agents.example"];
    const refused = async (from: string) =>
      (await refusedBeforeReading(memory.services, [heading(from, recipients)]))[0];
    expect(await refused("x@spam.example")).toEqual([at(open), at(strict), at(blocking, "other.example")]);
    expect(await refused("OK@spam.example")).toEqual([at(strict), at(blocking, "other.example")]);
    expect(await refused("x@mx.bulk.example")).toEqual([at(strict), at(blocking, "other.example")]);
    expect(await refused("Boss@Work.example")).toEqual([]);
    // No From at all: only allow-only mode refuses it, as filing would.
    expect(await refused("")).toEqual([at(strict)]);
    await setLists(memory.services, INSTANCE, { receive: {} });
    await setLists(memory.services, domainOwner("other.example"), { receive: {} });
  });

  test("a batch of messages: each its own recipients refused, in one read of the recipients and one of the lists", async () => {
    const [open, strict] = [await agentAt(), await agentAt()];
    const at = (agent: ListHolder) => `${(agent as { id: string }).id}@agents.example`;
    await setSenders(memory.services, strict, { allow: ["boss@work.example"], allowOnly: true });
    await setSenders(memory.services, open, { block: ["@spam.example"] });
    const batch = [
      heading("x@spam.example", [at(open), at(strict)]),
      heading("Boss@Work.example", [at(open), at(strict)]),
      heading("pat@else.example", [at(strict), "nobody@agents.example"]),
      heading("", []),
    ];
    const scope = { requestId: "r", agentId: null, clientIp: "127.0.0.1", statements: 0 };
    const refused = await requestScope.run(scope, () => refusedBeforeReading(memory.services, batch));
    expect(refused).toEqual([[at(open), at(strict)], [], [at(strict)], []]);
    const alone = await Promise.all(batch.map((one) => refusedBeforeReading(memory.services, [one])));
    expect(alone.flat()).toEqual(refused);
    expect(scope.statements).toBe(2);
  });

  test("left to filing: a sent email's return path, where a report may come whatever the lists", async () => {
    const agent = await memory.agent(`r${Math.random().toString(36).slice(2, 8)}`);
    await setSenders(memory.services, agent, { allow: ["boss@work.example"], allowOnly: true });
    const sent = await memory.sendNow(agent, { to: ["pat@elsewhere.example"], subject: "Hi", text: "Hello" });
    const returnPath = await returnPathFor(memory.services, sent.id, "agents.example");
    const own = `${agent.id}@agents.example`;
    const from = "mailer-daemon@elsewhere.example";
    expect(await refusedBeforeReading(memory.services, [heading(from, [returnPath, own])])).toEqual([[own]]);
  });
});

describe("keeping lists", () => {
  test("the agent's lists: lower case, each entry once, replaced whole; allowOnly follows allow unless given", async () => {
    const agent = await memory.agent("lists");
    expect(await getSenders(memory.services, agent)).toEqual({ allow: [], block: [], allowOnly: false });
    const set = await setSenders(memory.services, agent, { allow: ["Pat@X.example", "pat@x.example", "@Y.example"] });
    expect(set).toEqual({ allow: ["pat@x.example", "@y.example"], block: [], allowOnly: true });
    await setSenders(memory.services, agent, { block: ["spam@z.example"] });
    expect(await getSenders(memory.services, agent)).toEqual({
      allow: [],
      block: ["spam@z.example"],
      allowOnly: false,
    });
    await setSenders(memory.services, agent, { allow: ["@*.Y.example"], allowOnly: false });
    expect(await getSenders(memory.services, agent)).toEqual({ allow: ["@*.y.example"], block: [], allowOnly: false });
    // The operator names an agent by its id in any case.
    expect((await getLists(memory.services, agentOwner("LISTS"))).receive.allow).toEqual(["@*.y.example"]);
  });

  test.each([
    [{ allow: ["not an address"] }, /allow: "not an address" is not an address, @domain or @\*\.domain/],
    [{ block: ["@"] }, /block: "@" is not/],
    [{ block: ["@*."] }, /block: "@\*\." is not/],
    [{ allow: Array.from({ length: 1001 }, (_, n) => `a${n}@x.example`) }, /at most 1000 entries/],
  ])("%#: a bad list is refused whole", async (lists, message) => {
    const agent = await memory.agent(`bad${Math.random().toString(36).slice(2, 8)}`);
    await expect(setSenders(memory.services, agent, lists)).rejects.toThrow(message);
    expect(await getSenders(memory.services, agent)).toEqual({ allow: [], block: [], allowOnly: false });
  });

  test("a direction left out is kept; one entry added and removed; only an agent has a mode", async () => {
    const owner = domainOwner("other.example");
    await setLists(memory.services, owner, { receive: { block: ["a@x.example"] }, send: { block: ["b@x.example"] } });
    await setLists(memory.services, owner, { receive: { allow: ["c@x.example"] } });
    await addListEntry(memory.services, owner, { direction: "send", kind: "allow" }, "D@x.example");
    await addListEntry(memory.services, owner, { direction: "send", kind: "allow" }, "d@x.example");
    expect(await getLists(memory.services, owner)).toEqual({
      receive: { allow: ["c@x.example"], block: [] },
      send: { allow: ["d@x.example"], block: ["b@x.example"] },
      allowOnly: null,
    });
    await removeListEntry(memory.services, owner, { direction: "send", kind: "block" }, "B@x.example");
    await expect(
      removeListEntry(memory.services, owner, { direction: "send", kind: "block" }, "b@x.example"),
    ).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(setLists(memory.services, owner, { allowOnly: true })).rejects.toThrow(/only an agent's/);
    await setLists(memory.services, owner, { receive: {}, send: {} });
  });

  test("a deleted agent's or domain's lists go with it: one made again under its name starts empty", async () => {
    const agent = await memory.agent("gone");
    await setSenders(memory.services, agent, { block: ["x@y.example"] });
    await deleteAgentById(memory.services, agent.id);
    expect(await getSenders(memory.services, await memory.agent("gone"))).toEqual({
      allow: [],
      block: [],
      allowOnly: false,
    });
    await addDomain(memory.services, "brief.example", false);
    await setLists(memory.services, domainOwner("brief.example"), { send: { block: ["x@y.example"] } });
    await deleteDomain(memory.services, "brief.example");
    await addDomain(memory.services, "brief.example", false);
    expect((await getLists(memory.services, domainOwner("brief.example"))).send).toEqual({ allow: [], block: [] });
  });

  test("an owner that is not there has no lists", async () => {
    await expect(getSenders(memory.services, { id: "ghost" })).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(setSenders(memory.services, { id: "ghost" }, {})).rejects.toMatchObject({ kind: "NOT_FOUND" });
    await expect(getLists(memory.services, domainOwner("nowhere.example"))).rejects.toMatchObject({
      kind: "NOT_FOUND",
      message: "Domain nowhere.example is not served here",
    });
  });
});
