import { describe, expect, test, vi } from "vitest";
import { memoryOfFile, rawMessage } from "../testing/memory.ts";
import { NOT_EVALUATED } from "./authentication.ts";
import { getEmail, listEmails } from "./emails.ts";
import { agentEvents } from "./events.ts";
import { type Arrival, dropped, type Filed, fileDelivered } from "./filing.ts";
import { NOT_SCANNED } from "./inspection.ts";
import type { AgentRecord } from "./records.ts";
import { setSenders } from "./senders.ts";

// Filing received mail: each recipient once, and only for an agent that
// exists, is verified, takes the sender and has room.

const memory = memoryOfFile({ STORAGE_LIMIT_BYTES: "2000", VERIFICATION_MODE: "social" });

const outcomes = async (raw: string, recipients: string[]) =>
  (await memory.receive(raw, recipients)).map((filed) => [filed.recipient, filed.outcome]);

describe("filing", () => {
  test("a message is stored for each agent it names, with its fields, and said in an event", async () => {
    const one = await memory.agent("one");
    const two = await memory.agent("two");
    const raw = rawMessage({ To: "one@agents.example, two@agents.example", Subject: "Both" }, "Hello both.");
    expect(await outcomes(raw, ["one@agents.example", "two@agents.example"])).toEqual([
      ["one@agents.example", "stored"],
      ["two@agents.example", "stored"],
    ]);
    const [email] = (await listEmails(memory.services, one, {})).data;
    expect(email).toMatchObject({
      fromAddress: "pat@sender.example",
      fromName: "Pat",
      subject: "Both",
      folder: "inbox",
      isRead: false,
    });
    expect(email?.bodyText).toContain("Hello both.");
    expect((await listEmails(memory.services, two, {})).total).toBe(1);
    const events = (await agentEvents(memory.services, one, {})).data;
    expect(events).toMatchObject([{ type: "email.received", data: { emailId: email?.id, folder: "inbox" } }]);
  });

  test("the same message again is a duplicate, filed once", async () => {
    const agent = await memory.agent("once");
    const raw = rawMessage({ To: "once@agents.example" });
    expect(await outcomes(raw, ["once@agents.example"])).toEqual([["once@agents.example", "stored"]]);
    expect(await outcomes(raw, ["once@agents.example"])).toEqual([["once@agents.example", "duplicate"]]);
    expect((await listEmails(memory.services, agent, {})).total).toBe(1);
  });

  test("nobody at the address, or an agent not yet verified: dropped", async () => {
    await memory.agent("unverified", "self");
    const raw = rawMessage({});
    expect(await outcomes(raw, ["nobody@agents.example", "unverified@agents.example"])).toEqual([
      ["nobody@agents.example", "unknown_recipient"],
      ["unverified@agents.example", "unverified"],
    ]);
    expect(dropped("unknown_recipient") && dropped("unverified") && !dropped("duplicate")).toBe(true);
  });

  test("a sender the agent's lists turn away is refused", async () => {
    const agent = await memory.agent("picky");
    await setSenders(memory.services, agent, { allow: ["@friends.example"], block: ["foe@friends.example"] });
    const from = (address: string) => rawMessage({ From: address, To: "picky@agents.example" });
    expect(await outcomes(from("pal@friends.example"), ["picky@agents.example"])).toEqual([
      ["picky@agents.example", "stored"],
    ]);
    expect(await outcomes(from("FOE@friends.example"), ["picky@agents.example"])).toEqual([
      ["picky@agents.example", "sender_refused"],
    ]);
    expect(await outcomes(from("pat@sender.example"), ["picky@agents.example"])).toEqual([
      ["picky@agents.example", "sender_refused"],
    ]);
  });

  test("over the storage limit: refused, and the same message is filed once there is room", async () => {
    const agent = await memory.agent("full");
    const raw = rawMessage({ To: "full@agents.example" }, "x".repeat(2_500));
    expect(await outcomes(raw, ["full@agents.example"])).toEqual([["full@agents.example", "over_quota"]]);
    expect((await memory.reload(agent)).storageUsed).toBe(0);
    const small = rawMessage({ To: "full@agents.example" }, "x".repeat(1_500));
    expect(await outcomes(small, ["full@agents.example"])).toEqual([["full@agents.example", "stored"]]);
    const [email] = (await listEmails(memory.services, agent, {})).data;
    expect((await memory.reload(agent)).storageUsed).toBe(email?.size);
    expect(await getEmail(memory.services, agent, email?.id ?? "")).toMatchObject({ size: email?.size });
  });

  test("one message handed over many times at once is filed once", async () => {
    const agent = await memory.agent("popular");
    const raw = rawMessage({ To: "popular@agents.example" });
    const filed = await Promise.all(Array.from({ length: 5 }, () => memory.receive(raw, ["popular@agents.example"])));
    expect(
      filed
        .flat()
        .map((f) => f.outcome)
        .sort(),
    ).toEqual(["duplicate", "duplicate", "duplicate", "duplicate", "stored"]);
    expect((await listEmails(memory.services, agent, {})).total).toBe(1);
  });
});

describe("messages handed over together", () => {
  const arrival = async (
    agent: AgentRecord,
    subject: string,
    headers: Record<string, string> = {},
    body?: string,
  ): Promise<Arrival> => {
    const raw = Buffer.from(
      rawMessage({ To: `${agent.id}@agents.example`, Subject: subject, ...headers }, body).replace(/\r?\n/g, "\r\n"),
    );
    const message = await memory.services.reader.read(raw);
    const recipients = [`${agent.id}@agents.example`];
    const envelope = { from: message.from.address, to: recipients };
    return { uid: 0n, raw, message, recipients, authentication: NOT_EVALUATED, scans: NOT_SCANNED, envelope };
  };
  const subjects = async (agent: AgentRecord) =>
    (await listEmails(memory.services, agent, {})).data.map((email) => email.subject).sort();

  test("messages handed over in one turn are filed in one transaction; those that come while it files, in the next", async () => {
    const agent = await memory.agent("grouped");
    const handOver = (arrivals: Arrival[]) => Promise.all(arrivals.map((one) => fileDelivered(memory.services, one)));
    const { sql } = memory.services;
    const transaction = sql.transaction.bind(sql);
    const together = await Promise.all(["a", "b", "c", "d", "e"].map((subject) => arrival(agent, subject)));
    const alone = vi.spyOn(sql, "transaction");
    expect((await handOver(together)).map(([one]) => one?.outcome)).toEqual(Array(5).fill("stored"));
    expect(alone).toHaveBeenCalledTimes(1);
    alone.mockRestore();

    const arrivals = await Promise.all(["f", "g", "h", "i", "j"].map((subject) => arrival(agent, subject)));
    const [early, late] = [arrivals.slice(0, 3), arrivals.slice(3)];
    let meanwhile: Promise<Filed[][]> | undefined;
    const interleaved = vi.spyOn(sql, "transaction").mockImplementation((work) => {
      meanwhile ??= handOver(late);
      return transaction(work);
    });
    const filed = [...(await handOver(early)), ...(await (meanwhile as Promise<Filed[][]>))];
    expect(filed.map(([one]) => one?.outcome)).toEqual(Array(5).fill("stored"));
    expect(interleaved).toHaveBeenCalledTimes(2);
    interleaved.mockRestore();
    expect(await subjects(agent)).toEqual(["a", "b", "c", "d", "e", "f", "g", "h", "i", "j"]);
  });

  test("a message that fails its group's transaction fails the others of it, and none of them is kept", async () => {
    const agent = await memory.agent("failing");
    const [first, second, broken, after] = await Promise.all(
      ["first", "second", "broken", "after"].map((s) => arrival(agent, s)),
    );
    const unreadable = { ...(broken as Arrival), message: { ...(broken as Arrival).message, from: null as never } };
    const results = await Promise.allSettled(
      [first, second, unreadable].map((one) => fileDelivered(memory.services, one as Arrival)),
    );
    expect(results.map((result) => result.status)).toEqual(["rejected", "rejected", "rejected"]);
    // The next group is filed as if nothing had happened.
    expect((await fileDelivered(memory.services, after as Arrival))[0]?.outcome).toBe("stored");
    expect(await subjects(agent)).toEqual(["after"]);
  });

  /** Files the arrivals in one group: handed over in one turn. */
  const fileTogether = async (arrivals: Arrival[]) =>
    (await Promise.all(arrivals.map((one) => fileDelivered(memory.services, one)))).map(([one]) => one?.outcome);
  const threadsOf = async (agent: AgentRecord) =>
    Object.fromEntries(
      (await listEmails(memory.services, agent, {})).data.map((email) => [email.subject, email.threadId]),
    );

  test("a reply filed after its parent, and a parent after its reply, in one group: each pair shares one thread", async () => {
    const agent = await memory.agent("threaded");
    const parent = await arrival(agent, "parent", { "Message-ID": "<p@x>" });
    const reply = await arrival(agent, "reply", { "In-Reply-To": "<p@x>", References: "<p@x>" });
    const child = await arrival(agent, "child", { "In-Reply-To": "<late@x>", References: "<late@x>" });
    const late = await arrival(agent, "late", { "Message-ID": "<late@x>" });
    const alone = await arrival(agent, "alone");
    expect(await fileTogether([parent, reply, child, late, alone])).toEqual(Array(5).fill("stored"));
    const threads = await threadsOf(agent);
    expect(threads.reply).toBe(threads.parent);
    expect(threads.late).toBe(threads.child);
    expect(new Set(Object.values(threads)).size).toBe(3);
  });

  test("the same message twice in one group is filed once; twice without room, it is refused twice", async () => {
    const agent = await memory.agent("twice");
    const once = await arrival(agent, "once");
    expect(await fileTogether([once, once])).toEqual(["stored", "duplicate"]);
    const big = await arrival(agent, "big", {}, "x".repeat(2_500));
    expect(await fileTogether([big, big])).toEqual(["over_quota", "over_quota"]);
    expect(await subjects(agent)).toEqual(["once"]);
    expect((await memory.reload(agent)).storageUsed).toBe(once.raw.length);
  });

  test("storage in one group: each message takes its own in order while it fits, and what was not used is given back", async () => {
    const agent = await memory.agent("sized");
    const [one, two, three] = await Promise.all(["1", "2", "3"].map((n) => arrival(agent, n, {}, "x".repeat(600))));
    const small = await arrival(agent, "small");
    expect(await fileTogether([one, two, three, small] as Arrival[])).toEqual([
      "stored",
      "stored",
      "over_quota",
      "stored",
    ]);
    const used = [one, two, small].reduce((sum, each) => sum + (each as Arrival).raw.length, 0);
    expect((await memory.reload(agent)).storageUsed).toBe(used);

    const roomy = await memory.agent("roomy");
    await setSenders(memory.services, roomy, { block: ["foe@sender.example"] });
    const [a, b] = await Promise.all(["a", "b"].map((n) => arrival(roomy, n)));
    const foe = await arrival(roomy, "foe", { From: "foe@sender.example" });
    expect(await fileTogether([a, foe, b] as Arrival[])).toEqual(["stored", "sender_refused", "stored"]);
    expect((await memory.reload(roomy)).storageUsed).toBe((a as Arrival).raw.length + (b as Arrival).raw.length);
  });
});
