import nodemailer from "nodemailer";
import { beforeAll, describe, expect, test } from "vitest";
import { createAgent, type TestAgent, uniqueId } from "./support/api.ts";
import { rawMessage } from "./support/mail.ts";
import { adminOf, makePodAgent, makePodKey } from "./support/pods.ts";
import { served } from "./support/served.ts";
import { doorPort } from "./support/service.ts";

// A pod's allow and block lists and its send policy over HTTP: set by the
// operator (REST and GraphQL's admin) and by a key of the pod holding manage;
// a pod's block refuses a sender at the SMTP door's RCPT TO and before a
// message is read, for the pod's agents only, unless the agent's own list
// allows it; a pod's policy holds its agents' sends unless an agent has a
// policy of its own.

const ADMIN = "admin-token-pod-lists-0123456789";
const INBOUND = "inbound-token-pod-lists-0123456789";

const { api, svc } = served({
  smtp: true,
  env: {
    SMTP_INGRESS_PORT: "0",
    SMTP_INGRESS_HOST: "127.0.0.1",
    ADMIN_TOKEN: ADMIN,
    INBOUND_TOKEN: INBOUND,
    VERIFICATION_MODE: "none",
  },
});

const admin = adminOf(api, ADMIN);
const lacks = (permission: string) => ({ error: "Forbidden", message: expect.any(String), permission });
/** The door, once it listens. */
const door = () => nodemailer.createTransport({ host: "127.0.0.1", port: doorPort(svc), ignoreTLS: true });

/** A pod holding two agents (one that allows a vendor's sales address itself), an agent outside it, and a key. */
const pod = { id: "", member: undefined as unknown as TestAgent, allowing: undefined as unknown as TestAgent };
let outsider: TestAgent;
let manager: string;

/** An agent the operator makes in the pod, with its key. */
const memberOf = (podId: string) => makePodAgent(admin, podId, "member");

const podKey = async (permissions: string[], agents?: string[]) =>
  (await makePodKey(admin, pod.id, { permissions, agents })).key;

const address = (agent: TestAgent) => `${agent.id}@mail.example`;

beforeAll(async () => {
  pod.id = uniqueId("pod");
  expect((await admin("POST", "/pods", { id: pod.id, name: "Team" })).status).toBe(201);
  pod.member = await memberOf(pod.id);
  pod.allowing = await memberOf(pod.id);
  outsider = await createAgent(api);
  manager = await podKey(["manage"]);
  const own = await api.call("PUT", `/agents/${pod.allowing.id}/senders`, {
    key: pod.allowing.apiKey,
    body: { allow: ["sales@vendor.example"], allowOnly: false },
  });
  expect(own.status).toBe(200);
});

describe("a pod's lists", () => {
  test("a key of the pod with manage sets them (both directions); the operator reads them as the pod's", async () => {
    const lists = { receive: { block: ["@Vendor.example"] }, send: { block: ["@competitor.example"] } };
    const set = await api.call("PUT", `/pods/${pod.id}/lists`, { key: manager, body: lists });
    expect(set.status).toBe(200);
    const expected = {
      receive: { allow: [], block: ["@vendor.example"] },
      send: { allow: [], block: ["@competitor.example"] },
    };
    expect(set.body).toEqual(expected);
    expect((await api.get(`/pods/${pod.id}/lists`, { key: manager })).body).toEqual(expected);
    expect((await admin("GET", `/pods/${pod.id}/lists`)).body).toEqual(expected);
    const viaGraphql = await api.graphql(
      "query($podId: ID!) { admin { lists(podId: $podId) { receive { block } allowOnly } } }",
      { podId: pod.id },
      ADMIN,
    );
    expect(viaGraphql.body.data.admin.lists).toEqual({ receive: { block: ["@vendor.example"] }, allowOnly: null });
  });

  test("a pod's block is refused at RCPT TO for its agents, not for one outside it nor one whose own list allows it", async () => {
    const to = [address(pod.member), address(pod.allowing), address(outsider)];
    const info = await door().sendMail({
      envelope: { from: "sales@vendor.example", to },
      raw: rawMessage({ from: "sales@vendor.example", to: to.join(", "), subject: "Offer" }),
    });
    expect(info.rejected).toEqual([address(pod.member)]);
    expect(info.accepted).toEqual([address(pod.allowing), address(outsider)]);
    expect(info.rejectedErrors?.[0]?.response).toMatch(/^550 5\.7\.1 /);
  });

  test("before a message is read: /inbound/raw files nothing for the pod's agents the pod blocks", async () => {
    const subject = `Offer ${uniqueId("raw")}`;
    const to = [address(pod.member), address(outsider)];
    const posted = await fetch(`${api.url}/inbound/raw`, {
      method: "POST",
      body: rawMessage({ from: "news@vendor.example", to: to.join(", "), subject }),
      headers: {
        Authorization: `Bearer ${INBOUND}`,
        "Content-Type": "message/rfc822",
        "X-Envelope-To": to.join(","),
        "X-Envelope-From": "news@vendor.example",
      },
    });
    expect(posted.status).toBe(200);
    const subjects = async (agent: TestAgent) =>
      (await api.get(`/agents/${agent.id}/emails?limit=100`, { key: agent.apiKey })).body.data.map(
        (email: { subject: string }) => email.subject,
      );
    expect(await subjects(outsider)).toContain(subject);
    expect(await subjects(pod.member)).not.toContain(subject);
  });

  test("a pod's send block refuses its agents' sends naming the pod's list; an agent outside sends", async () => {
    const message = { to: "ceo@competitor.example", subject: "Hi", text: "Hello" };
    const refused = await api.post(`/agents/${pod.member.id}/send`, { key: pod.member.apiKey, body: message });
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ code: "RECIPIENT_BLOCKED", message: expect.stringContaining("pod's") });
    expect((await api.post(`/agents/${outsider.id}/send`, { key: outsider.apiKey, body: message })).status).toBe(201);
  });

  test("GraphQL's setPodLists replaces a direction given, a key's send lists only stricter; the operator sets any", async () => {
    const blocks = ["@competitor.example", "@rival.example"];
    const viaGraphql = await api.graphql(
      `mutation($podId: ID!, $block: [String!]) { setPodLists(podId: $podId, change: { send: { block: $block } }) {
        receive { block } send { allow block } } }`,
      { podId: pod.id, block: blocks },
      manager,
    );
    expect(viaGraphql.body.data.setPodLists).toEqual({
      receive: { block: ["@vendor.example"] },
      send: { allow: [], block: blocks },
    });
    // An allow at the pod's scope would decide over the operator's blocks of the domain and the instance.
    for (const send of [{ allow: ["ok@competitor.example"], block: blocks }, { block: ["@competitor.example"] }]) {
      const looser = await api.call("PUT", `/pods/${pod.id}/lists`, { key: manager, body: { send } });
      expect([looser.status, looser.body.message]).toEqual([403, expect.stringContaining("stricter, never looser")]);
    }
    const send = { allow: ["ok@competitor.example"], block: ["@competitor.example"] };
    expect((await admin("PUT", `/pods/${pod.id}/lists`, { send })).body.send).toEqual(send);
  });
});

describe("a pod's send policy", () => {
  test("review_all holds a pod agent's send, unless the agent's own policy says otherwise", async () => {
    const message = { to: "pat@elsewhere.example", subject: "Hello", text: "Hi." };
    const send = (agent: TestAgent) => api.post(`/agents/${agent.id}/send`, { key: agent.apiKey, body: message });
    const set = await api.call("PUT", `/pods/${pod.id}/policy`, { key: manager, body: { sendPolicy: "review_all" } });
    expect(set.body).toEqual({ sendPolicy: "review_all", sendPolicyOverride: "review_all" });
    expect((await api.get(`/pods/${pod.id}/policy`, { key: manager })).body.sendPolicy).toBe("review_all");
    for (const looser of ["open", null]) {
      const refused = await api.call("PUT", `/pods/${pod.id}/policy`, { key: manager, body: { sendPolicy: looser } });
      expect([refused.status, refused.body.message]).toEqual([403, expect.stringContaining("stricter, never looser")]);
    }
    const held = await send(pod.member);
    expect([held.status, held.body.status]).toEqual([202, "pending_approval"]);
    expect((await send(outsider)).status).toBe(201);
    const agentPolicy = await admin("PUT", `/agents/${pod.member.id}/policy`, { sendPolicy: "open" });
    expect(agentPolicy.body).toMatchObject({ sendPolicy: "open", sendPolicyOverride: "open" });
    expect((await send(pod.member)).status).toBe(201);
    expect((await admin("GET", `/agents/${pod.allowing.id}`)).body).toMatchObject({
      sendPolicy: "review_all",
      sendPolicyOverride: null,
    });
  });

  test("the operator sets it too (REST and GraphQL) and sees it on the pod; null goes back to SEND_POLICY", async () => {
    const set = await admin("PUT", `/pods/${pod.id}/policy`, { sendPolicy: "review_new_recipients" });
    expect(set.body).toMatchObject({ id: pod.id, sendPolicy: "review_new_recipients" });
    const viaGraphql = await api.graphql(
      "mutation($id: ID!) { admin { setPodSendPolicy(id: $id, sendPolicy: null) { sendPolicy sendPolicyOverride } } }",
      { id: pod.id },
      ADMIN,
    );
    expect(viaGraphql.body.data.admin.setPodSendPolicy).toEqual({ sendPolicy: "open", sendPolicyOverride: null });
    expect((await admin("GET", `/pods/${pod.id}`)).body).toMatchObject({
      sendPolicy: "open",
      sendPolicyOverride: null,
    });
  });
});

describe("refused", () => {
  test("a pod's key without manage gets 403 naming it, on REST and GraphQL; so does one limited to some agents", async () => {
    const reader = await podKey(["read"]);
    for (const [method, path, body] of [
      ["GET", `/pods/${pod.id}/lists`, undefined],
      ["PUT", `/pods/${pod.id}/lists`, { receive: { block: [] } }],
      ["GET", `/pods/${pod.id}/policy`, undefined],
      ["PUT", `/pods/${pod.id}/policy`, { sendPolicy: "open" }],
    ] as const) {
      const refused = await api.call(method, path, { key: reader, body });
      expect(refused.status).toBe(403);
      expect(refused.body).toMatchObject(lacks("manage"));
    }
    const viaGraphql = await api.graphql(
      "mutation($podId: ID!) { setPodPolicy(podId: $podId, sendPolicy: open) { sendPolicy } }",
      { podId: pod.id },
      reader,
    );
    expect(viaGraphql.body.errors[0].extensions).toMatchObject({ status: 403, permission: "manage" });
    const limited = await podKey(["manage"], [pod.member.id]);
    const narrow = await api.call("PUT", `/pods/${pod.id}/lists`, { key: limited, body: { receive: { block: [] } } });
    expect(narrow.status).toBe(403);
    expect(narrow.body).toMatchObject(lacks("manage"));
    expect((await api.get(`/pods/${pod.id}/lists`, { key: limited })).status).toBe(200);
  });

  test("an agent's key, and a key of another pod, open no pod's lists", async () => {
    expect((await api.get(`/pods/${pod.id}/lists`, { key: pod.member.apiKey })).status).toBe(403);
    const other = uniqueId("pod");
    expect((await admin("POST", "/pods", { id: other, name: "Other" })).status).toBe(201);
    expect((await api.get(`/pods/${other}/lists`, { key: manager })).status).toBe(403);
    expect((await admin("GET", "/pods/nowhere-here/lists")).status).toBe(404);
  });
});
