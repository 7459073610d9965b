import { describe, expect, test } from "vitest";
import { memoryOfFile } from "../testing/memory.ts";
import { deleteAgentById } from "./admin.ts";
import { createAgent } from "./agents.ts";
import { addDomain, deleteDomain } from "./domains.ts";
import { recipientRefusal, refusedBeforeReading } from "./intake.ts";
import { returnPathFor } from "./return-path.ts";
import {
  addListEntry,
  entriesFor,
  explicitlyAllowed,
  getLists,
  getSenders,
  type ListHolder,
  received,
  removeListEntry,
  senderAllowed,
  setLists,
  setSenders,
  standingOf,
} from "./senders.ts";

const memory = memoryOfFile({ MAIL_DOMAINS: "agents.example,other.example" });

const INSTANCE = { scope: "instance" } as const;
const domainOwner = (name: string) => ({ scope: "domain", name }) as const;
const agentOwner = (id: string) => ({ scope: "agent", id }) as const;

/** A fresh agent, on the default domain unless named. */
async function agentAt(domain?: string): Promise<ListHolder> {
  const id = `a${Math.random().toString(36).slice(2, 10)}`;
  return (await createAgent(memory.services, { id, name: id, domain }, "operator")).agent;
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
  ] as const)("%j: %j (the narrowest scope naming it; block over allow within one)", (entries, standing) => {
    expect(standingOf([...entries])).toEqual(standing);
  });

  test.each([
    [null, false, true],
    [null, true, false],
    [{ verdict: "allow", scope: "instance" }, true, false],
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

describe("before a message is read", () => {
  test("the recipients whose lists refuse its From, by the rule filing applies: three scopes, allow-only mode", async () => {
    const [open, strict, blocking] = [await agentAt(), await agentAt(), await agentAt("other.example")];
    const at = (agent: ListHolder, domain = "agents.example") => `${(agent as { id: string }).id}@${domain}`;
    await setLists(memory.services, INSTANCE, { receive: { block: ["@spam.example"] } });
    await setLists(memory.services, domainOwner("other.example"), { receive: { block: ["@*.bulk.example"] } });
    await setSenders(memory.services, strict, { allow: ["boss@work.example"], allowOnly: true });
    await setSenders(memory.services, open, { allow: ["ok@spam.example"], allowOnly: false });
    const recipients = [at(open), at(strict), at(blocking, "other.example"), "nobody@agents.example"];
    const refused = (from: string) => refusedBeforeReading(memory.services, from, recipients);
    expect(await refused("x@spam.example")).toEqual([at(open), at(strict), at(blocking, "other.example")]);
    expect(await refused("OK@spam.example")).toEqual([at(strict), at(blocking, "other.example")]);
    expect(await refused("x@mx.bulk.example")).toEqual([at(strict), at(blocking, "other.example")]);
    expect(await refused("Boss@Work.example")).toEqual([]);
    // No From at all: only allow-only mode refuses it, as filing would.
    expect(await refused("")).toEqual([at(strict)]);
    await setLists(memory.services, INSTANCE, { receive: {} });
    await setLists(memory.services, domainOwner("other.example"), { receive: {} });
  });

  test("left to filing: a sent email's return path, where a report may come whatever the lists", async () => {
    const agent = await memory.agent(`r${Math.random().toString(36).slice(2, 8)}`);
    await setSenders(memory.services, agent, { allow: ["boss@work.example"], allowOnly: true });
    const sent = await memory.sendNow(agent, { to: ["pat@elsewhere.example"], subject: "Hi", text: "Hello" });
    const returnPath = await returnPathFor(memory.services, sent.id, "agents.example");
    const own = `${agent.id}@agents.example`;
    expect(await refusedBeforeReading(memory.services, "mailer-daemon@elsewhere.example", [returnPath, own])).toEqual([
      own,
    ]);
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
