import { beforeAll, describe, expect, test } from "vitest";
import { Api, createAgent, uniqueId } from "./support/api.ts";
import { adminOf, makePodKey, makePodWithMail, type PodWithMail } from "./support/pods.ts";
import { served } from "./support/served.ts";

// Pods over HTTP: the operator makes, lists, renames and deletes them (REST
// and GraphQL's admin), creates agents in them, and gives them domains that
// are closed to everyone else.

const TOKEN = "admin-token-pods-0123456789abcdef";

const { svc, api } = served({
  env: {
    ADMIN_TOKEN: TOKEN,
    MAIL_DOMAINS: "localhost,pod.example,spare.example,closed.example",
    VERIFICATION_MODE: "none",
  },
});

const admin = adminOf(api, TOKEN);

const podId = () => uniqueId("pod");

/** A pod without domains holding three agents, each with mail. */
let team: PodWithMail;

/** A key of the team's pod the operator makes. */
const teamKey = (body: Record<string, unknown>) => makePodKey(admin, team.id, body);

const lacks = (permission: string) => ({ error: "Forbidden", message: expect.any(String), permission });

beforeAll(async () => {
  team = await makePodWithMail(api, admin);
});

describe("happy", () => {
  test("the operator makes, shows, lists, renames and deletes a pod", async () => {
    const id = podId();
    const made = await admin("POST", "/pods", { id, name: "Support team" });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ id, name: "Support team", domains: [], agents: 0 });
    expect(typeof made.body.createdAt).toBe("number");
    expect((await admin("GET", `/pods/${id}`)).body).toEqual(made.body);
    expect((await admin("GET", "/pods")).body.data.map((pod: { id: string }) => pod.id)).toContain(id);
    const renamed = await admin("PATCH", `/pods/${id}`, { name: "Helpdesk" });
    expect([renamed.status, renamed.body.name]).toEqual([200, "Helpdesk"]);
    expect((await admin("DELETE", `/pods/${id}`)).body).toMatchObject({ success: true });
    expect((await admin("GET", `/pods/${id}`)).status).toBe(404);
  });

  test("GraphQL's admin carries the same acts", async () => {
    const id = podId();
    const made = await api.graphql(
      'mutation($id: ID!) { admin { createPod(id: $id, name: "G") { id name domains agents } } }',
      { id },
      TOKEN,
    );
    expect(made.body.data.admin.createPod).toEqual({ id, name: "G", domains: [], agents: 0 });
    const read = await api.graphql("query($id: ID!) { admin { pod(id: $id) { name } pods { id } } }", { id }, TOKEN);
    expect(read.body.data.admin.pod.name).toBe("G");
    const gone = await api.graphql("mutation($id: ID!) { admin { deletePod(id: $id) { success } } }", { id }, TOKEN);
    expect(gone.body.data.admin.deletePod.success).toBe(true);
  });

  test("an agent the operator makes in a pod with a domain has its address there and names its pod", async () => {
    const id = podId();
    expect((await admin("POST", "/pods", { id, name: "Mailroom", domains: ["pod.example"] })).status).toBe(201);
    const agentId = uniqueId("member");
    const made = await admin("POST", "/agents", { id: agentId, name: "Member", podId: id });
    expect(made.status).toBe(201);
    expect(made.body.agent.email).toBe(`${agentId}@pod.example`);
    expect((await admin("GET", `/agents/${agentId}`)).body.podId).toBe(id);
    expect((await admin("GET", `/pods/${id}`)).body.agents).toBe(1);
    const elsewhere = await createAgent(api);
    expect((await admin("GET", `/agents/${elsewhere.id}`)).body.podId).toBeNull();
  });
  test("a pod's key reads the mail of each agent of its pod as the agent's own key would", async () => {
    const { key } = await teamKey({ permissions: ["read", "manage"] });
    for (const agentId of team.agents) {
      const list = await api.get(`/agents/${agentId}/emails`, { key });
      expect(list.status).toBe(200);
      expect(list.body.data).toHaveLength(1);
      const one = await api.get(`/agents/${agentId}/emails/${list.body.data[0].id}`, { key });
      expect(one.body.subject).toMatch(/^Hello /);
    }
    const viaGraphql = await api.graphql(
      "query($a: ID!) { agent(id: $a) { emails { total } } }",
      { a: team.agents[0] },
      key,
    );
    expect(viaGraphql.body.data.agent.emails.total).toBe(1);
  });

  test("the operator makes a pod's key (secret once); it lists its pod's keys, makes narrower ones and agents' keys", async () => {
    const made = await admin("POST", `/pods/${team.id}/keys`, { name: "owner", permissions: ["read", "manage"] });
    expect(made.status).toBe(201);
    expect(made.body).toMatchObject({ name: "owner", permissions: ["read", "manage"], agents: null, expiresAt: null });
    const listed = await api.get(`/pods/${team.id}/keys`, { key: made.body.key });
    expect(listed.body.data.map((key: { id: string }) => key.id)).toContain(made.body.id);
    expect(listed.text).not.toContain(made.body.key);
    const child = await api.post(`/pods/${team.id}/keys`, {
      key: made.body.key,
      body: { name: "dash", permissions: ["read"], agents: [team.agents[0]] },
    });
    expect(child.status).toBe(201);
    expect(child.body).toMatchObject({ permissions: ["read"], agents: [team.agents[0]] });
    const agentKey = await api.post(`/agents/${team.agents[1]}/keys`, {
      key: made.body.key,
      body: { name: "worker", permissions: ["read"] },
    });
    expect(agentKey.status).toBe(201);
    expect((await api.get(`/agents/${team.agents[1]}/emails`, { key: agentKey.body.key })).status).toBe(200);
    expect((await api.get(`/agents/${team.agents[0]}/emails`, { key: agentKey.body.key })).status).toBe(403);
  });
  test("a pod's key with agents makes an agent (its key once) and a send-only key of it that cannot read", async () => {
    const { key } = await teamKey({ permissions: ["read", "send", "manage", "events", "agents"] });
    const id = uniqueId("made");
    const made = await api.post(`/pods/${team.id}/agents`, { key, body: { id, name: "Made by the pod" } });
    expect(made.status).toBe(201);
    expect(made.body.agent).toMatchObject({ id, email: `${id}@localhost`, verified: true });
    expect(made.body.apiKey).toEqual(expect.any(String));
    expect((await api.get(`/agents/${id}`, { key: made.body.apiKey })).status).toBe(200);
    const listed = await api.get(`/pods/${team.id}/agents`, { key });
    expect(listed.body.data.map((agent: { id: string }) => agent.id)).toEqual([...team.agents, id]);
    expect(listed.text).not.toContain(made.body.apiKey);
    expect((await admin("GET", `/agents/${id}`)).body).toMatchObject({ podId: team.id, createdBy: "pod" });
    const sendOnly = await api.post(`/agents/${id}/keys`, { key, body: { name: "worker", permissions: ["send"] } });
    expect(sendOnly.status).toBe(201);
    const read = await api.get(`/agents/${id}/emails`, { key: sendOnly.body.key });
    expect(read.body).toMatchObject(lacks("read"));
    const sent = await api.post(`/agents/${id}/send`, {
      key: sendOnly.body.key,
      body: { to: `${team.outsider.id}@localhost`, subject: "Hello", text: "Hi." },
    });
    expect(sent.status).toBe(201);
    const viaGraphql = await api.graphql(
      "query($p: ID!) { podAgents(podId: $p) { id verified } }",
      { p: team.id },
      key,
    );
    expect(viaGraphql.body.data.podAgents).toContainEqual({ id, verified: true });
  });
});

describe("errors", () => {
  test("a pod's id, name and domains are checked: 400 for a bad one, 409 for one taken, 404 for none", async () => {
    expect((await admin("POST", "/pods", { id: "Upper", name: "U" })).status).toBe(400);
    expect((await admin("POST", "/pods", { id: podId(), name: " " })).status).toBe(400);
    const unserved = await admin("POST", "/pods", { id: podId(), name: "N", domains: ["nowhere.example"] });
    expect([unserved.status, unserved.body.message]).toEqual([
      400,
      'domains: "nowhere.example" is not served here (GET /admin/domains)',
    ]);
    const id = podId();
    await admin("POST", "/pods", { id, name: "First" });
    expect((await admin("POST", "/pods", { id, name: "Again" })).status).toBe(409);
    const main = await admin("POST", "/pods", { id: podId(), name: "M", domains: ["localhost"] });
    expect(main.status).toBe(409);
    for (const [method, path] of [
      ["GET", "/pods/none"],
      ["PATCH", "/pods/none"],
      ["DELETE", "/pods/none"],
    ] as const) {
      expect((await admin(method, path, method === "PATCH" ? { name: "x" } : undefined)).status).toBe(404);
    }
  });

  test("a pod holding agents is not deleted (409); emptied, it is", async () => {
    const id = podId();
    await admin("POST", "/pods", { id, name: "Busy" });
    const agentId = uniqueId("busy");
    await admin("POST", "/agents", { id: agentId, name: "Busy", podId: id });
    const refused = await admin("DELETE", `/pods/${id}`);
    expect([refused.status, refused.body.message]).toEqual([409, `Pod ${id} holds agents: delete them first`]);
    await admin("DELETE", `/agents/${agentId}`);
    expect((await admin("DELETE", `/pods/${id}`)).status).toBe(200);
  });

  test("an agent in an unknown pod is 404; outside its pod's domains, 400", async () => {
    const made = await admin("POST", "/agents", { id: uniqueId("lost"), name: "Lost", podId: "no-such-pod" });
    expect(made.status).toBe(404);
    const id = podId();
    await admin("POST", "/pods", { id, name: "Spare", domains: ["spare.example"] });
    const astray = await admin("POST", "/agents", {
      id: uniqueId("astray"),
      name: "A",
      podId: id,
      domain: "localhost",
    });
    expect(astray.status).toBe(400);
  });
  test("a send-only pod key cannot read (403 naming read); a read-only one is refused writes (403 naming what it lacks)", async () => {
    const [agentId] = team.agents as [string];
    const sendOnly = await teamKey({ permissions: ["send"] });
    expect((await api.get(`/agents/${agentId}/emails`, { key: sendOnly.key })).body).toMatchObject(lacks("read"));
    const sent = await api.post(`/agents/${agentId}/send`, {
      key: sendOnly.key,
      body: { to: `${team.outsider.id}@localhost`, subject: "From the pod", text: "Hi." },
    });
    expect(sent.status).toBe(201);
    const readOnly = await teamKey({ permissions: ["read"] });
    const emailId = (await api.get(`/agents/${agentId}/emails`, { key: readOnly.key })).body.data[0].id;
    const writes: [string, string, unknown, string][] = [
      ["POST", `/agents/${agentId}/send`, { to: "x@localhost", subject: "s", text: "t" }, "send"],
      ["PATCH", `/agents/${agentId}/emails/${emailId}`, { isRead: true }, "manage"],
      ["DELETE", `/agents/${agentId}/emails/${emailId}`, undefined, "manage"],
      ["POST", `/agents/${agentId}/keys`, { name: "k", permissions: ["read"] }, "manage"],
      ["POST", `/pods/${team.id}/keys`, { name: "k", permissions: ["read"] }, "manage"],
      ["GET", `/pods/${team.id}/keys`, undefined, "manage"],
    ];
    for (const [method, path, body, permission] of writes) {
      const reply = await api.call(method, path, { key: readOnly.key, body });
      expect([reply.status, reply.body.permission], `${method} ${path}`).toEqual([403, permission]);
    }
    const viaGraphql = await api.graphql(
      "mutation($a: ID!, $e: ID!) { deleteEmail(agentId: $a, emailId: $e) { success } }",
      { a: agentId, e: emailId },
      readOnly.key,
    );
    expect(viaGraphql.body.errors[0].extensions).toMatchObject({ status: 403, permission: "manage" });
  });

  test("a pod's key names agents of its pod only, and its name and permissions are checked", async () => {
    const outside = await admin("POST", `/pods/${team.id}/keys`, {
      name: "x",
      permissions: ["read"],
      agents: [team.outsider.id],
    });
    expect(outside.status).toBe(400);
    expect((await admin("POST", `/pods/${team.id}/keys`, { name: "x", permissions: [] })).status).toBe(400);
    expect((await admin("POST", "/pods/no-such-pod/keys", { name: "x", permissions: ["read"] })).status).toBe(404);
    const agentKey = await api.post(`/agents/${team.outsider.id}/keys`, {
      key: team.outsider.apiKey,
      body: { name: "x", permissions: ["agents"] },
    });
    expect(agentKey.status).toBe(400);
  });
  test("making an agent hands out its primary key: a key short of one makes none (403), and lists the pod's agents", async () => {
    const made = (key: string) => api.post(`/pods/${team.id}/agents`, { key, body: { id: uniqueId("no"), name: "N" } });
    const every = ["read", "send", "manage", "events", "agents"];
    const short: [Record<string, unknown>, string][] = [
      [{ permissions: ["agents"] }, "read"],
      [{ permissions: ["read", "manage", "events", "agents"] }, "send"],
      [{ permissions: every, expiresAt: Date.now() + 3_600_000 }, "manage"],
      [{ permissions: every, hideJunk: true }, "manage"],
    ];
    for (const [body, permission] of short) {
      const { key } = await teamKey(body);
      expect((await made(key)).body, JSON.stringify(body)).toMatchObject(lacks(permission));
      expect((await api.get(`/pods/${team.id}/agents`, { key })).status).toBe(200);
    }
  });
  test("making agents needs agents (403 naming it) and a key reaching every agent; ids are checked (400, 409)", async () => {
    const noAgents = await teamKey({ permissions: ["read", "manage"] });
    const refused = await api.post(`/pods/${team.id}/agents`, {
      key: noAgents.key,
      body: { id: uniqueId(), name: "N" },
    });
    expect(refused.body).toMatchObject(lacks("agents"));
    expect((await api.get(`/pods/${team.id}/agents`, { key: noAgents.key })).body).toMatchObject(lacks("agents"));
    const every = ["read", "send", "manage", "events", "agents"];
    const limited = await teamKey({ permissions: every, agents: [team.agents[0]] });
    const byLimited = await api.post(`/pods/${team.id}/agents`, {
      key: limited.key,
      body: { id: uniqueId(), name: "L" },
    });
    expect(byLimited.body).toMatchObject(lacks("agents"));
    const listed = await api.get(`/pods/${team.id}/agents`, { key: limited.key });
    expect(listed.body.data.map((agent: { id: string }) => agent.id)).toEqual([team.agents[0]]);
    const { key } = await teamKey({ permissions: every });
    const make = (body: unknown) => api.post(`/pods/${team.id}/agents`, { key, body });
    expect((await make({ id: "postmaster", name: "P" })).status).toBe(400);
    expect((await make({ id: "bad id!", name: "B" })).status).toBe(400);
    expect((await make({ id: team.outsider.id, name: "Taken" })).status).toBe(409);
  });
});

describe("security", () => {
  test("a pod's domain is closed to everyone else: registration there is 403, and so is the operator's agent outside the pod", async () => {
    const id = podId();
    expect((await admin("POST", "/pods", { id, name: "Closed", domains: ["closed.example"] })).status).toBe(201);
    const self = await api.post("/agents", { body: { id: uniqueId("self"), name: "Self", domain: "closed.example" } });
    expect([self.status, self.body.message]).toEqual([
      403,
      'domain: "closed.example" belongs to a pod: only that pod\'s agents have their address there',
    ]);
    const operator = await admin("POST", "/agents", { id: uniqueId("op"), name: "Op", domain: "closed.example" });
    expect(operator.status).toBe(403);
  });

  test("a pod taking or giving up a domain, or deleted, as an agent is made: one of the two is refused, never both done", async () => {
    const rounds = await Promise.all(
      Array.from({ length: 8 }, async () => {
        const [taken, kept] = [`${uniqueId("t")}.example`, `${uniqueId("k")}.example`];
        for (const name of [taken, kept]) await admin("POST", "/domains", { name, open: true });
        const id = podId();
        await admin("POST", "/pods", { id, name: "Racing", domains: [kept] });
        const [outsider, took] = await Promise.all([
          api.post("/agents", { body: { id: uniqueId("out"), name: "Outsider", domain: taken } }),
          admin("PATCH", `/pods/${id}`, { domains: [kept, taken] }),
        ]);
        const [member, gaveUp] = await Promise.all([
          admin("POST", "/agents", { id: uniqueId("in"), name: "Member", podId: id, domain: kept }),
          admin("PATCH", `/pods/${id}`, { domains: [taken] }),
        ]);
        const lone = podId();
        await admin("POST", "/pods", { id: lone, name: "Lone" });
        const [joined, deleted] = await Promise.all([
          admin("POST", "/agents", { id: uniqueId("lone"), name: "Joiner", podId: lone }),
          admin("DELETE", `/pods/${lone}`),
        ]);
        return {
          took: [outsider.status, took.status],
          gaveUp: [member.status, gaveUp.status],
          deleted: [joined.status, deleted.status],
        };
      }),
    );
    // The agent is refused as its placement says when it reads the pod's change (403, 400), or 409 when the
    // change came between its read and its write; the pod's change is refused 409.
    const done = (statuses: number[]) => statuses.filter((status) => status === 200 || status === 201);
    for (const { took, gaveUp, deleted } of rounds) {
      for (const pair of [took, gaveUp, deleted]) expect(done(pair)).toHaveLength(1);
      expect([...took, ...gaveUp, ...deleted].filter((status) => status >= 500)).toEqual([]);
    }
  });

  test("an agent's key opens no pod route of the operator's", async () => {
    const agent = await createAgent(api);
    for (const [method, path] of [
      ["GET", "/admin/pods"],
      ["POST", "/admin/pods"],
      ["DELETE", "/admin/pods/x"],
    ] as const) {
      const reply = await api.call(method, path, {
        key: agent.apiKey,
        body: method === "POST" ? { id: "x", name: "x" } : undefined,
      });
      expect(reply.status).toBe(403);
    }
  });
  test("a key limited to two agents cannot see a third, nor any agent outside its pod (answered as another agent is)", async () => {
    const [one, two, three] = team.agents as [string, string, string];
    const { key } = await teamKey({ permissions: ["read"], agents: [one, two] });
    for (const agentId of [one, two]) expect((await api.get(`/agents/${agentId}/emails`, { key })).status).toBe(200);
    const third = await api.get(`/agents/${three}/emails`, { key });
    const outsider = await api.get(`/agents/${team.outsider.id}/emails`, { key });
    const asAnotherAgent = await api.get(`/agents/${three}/emails`, { key: team.outsider.apiKey });
    for (const reply of [third, outsider]) {
      expect([reply.status, reply.body.message]).toEqual([403, asAnotherAgent.body.message]);
    }
    expect((await api.get("/agents/no-such-agent/emails", { key })).status).toBe(404);
    const viaGraphql = await api.graphql("query($a: ID!) { agent(id: $a) { emails { total } } }", { a: three }, key);
    expect(viaGraphql.body.errors[0].extensions).toMatchObject({ status: 403 });
  });

  test("a child key never exceeds its parent: permissions, agents, expiry (403 naming the permission)", async () => {
    const [one, two] = team.agents as [string, string];
    const expiresAt = Date.now() + 3_600_000;
    const parent = await teamKey({ permissions: ["read", "manage"], agents: [one], expiresAt });
    const make = (body: Record<string, unknown>) =>
      api.post(`/pods/${team.id}/keys`, { key: parent.key, body: { name: "child", ...body } });
    expect((await make({ permissions: ["send"], agents: [one], expiresAt })).body).toMatchObject(lacks("send"));
    expect((await make({ permissions: ["agents"], agents: [one], expiresAt })).body).toMatchObject(lacks("agents"));
    expect((await make({ permissions: ["read"], agents: [two], expiresAt })).body).toMatchObject(lacks("manage"));
    expect((await make({ permissions: ["read"], expiresAt })).body).toMatchObject(lacks("manage"));
    expect((await make({ permissions: ["read"], agents: [one] })).body).toMatchObject(lacks("manage"));
    expect((await make({ permissions: ["read"], agents: [one], expiresAt: expiresAt + 1 })).status).toBe(403);
    expect((await make({ permissions: ["read"], agents: [one], expiresAt })).status).toBe(201);
  });

  test("a key limited to some agents makes no key of theirs that may replace the primary one (403 naming manage)", async () => {
    const [one] = team.agents as [string, string];
    const limited = await teamKey({ permissions: ["read", "send", "manage", "events"], agents: [one] });
    const make = (body: Record<string, unknown>) =>
      api.post(`/agents/${one}/keys`, { key: limited.key, body: { name: "child", ...body } });
    const full = await make({ permissions: ["read", "send", "manage", "events"] });
    expect([full.status, full.body.permission]).toEqual([403, "manage"]);
    expect((await api.post(`/agents/${one}/rotate-key`, { key: limited.key })).status).toBe(403);
    const lapsing = await make({
      permissions: ["read", "send", "manage", "events"],
      expiresAt: Date.now() + 3_600_000,
    });
    expect(lapsing.status).toBe(201);
    expect((await api.post(`/agents/${one}/rotate-key`, { key: lapsing.body.key })).status).toBe(403);
    expect((await make({ permissions: ["read", "manage"] })).status).toBe(201);
  });

  test("a key limited to some agents sees and revokes only the pod's keys limited to agents it reaches", async () => {
    const [one, two] = team.agents as [string, string];
    const limited = await teamKey({ permissions: ["read", "manage"], agents: [one] });
    const wide = await teamKey({ permissions: ["read"] });
    const theirs = await teamKey({ permissions: ["read"], agents: [two] });
    const mine = await teamKey({ permissions: ["read"], agents: [one] });
    const listed = await api.get(`/pods/${team.id}/keys`, { key: limited.key });
    const ids = (listed.body.data as { id: string }[]).map((key) => key.id);
    expect(ids).toEqual(expect.arrayContaining([limited.id, mine.id]));
    expect(ids).not.toContain(wide.id);
    expect(ids).not.toContain(theirs.id);
    for (const key of [wide, theirs]) {
      expect((await api.delete(`/pods/${team.id}/keys/${key.id}`, { key: limited.key })).status).toBe(404);
      expect((await api.get(`/agents/${two}/emails`, { key: key.key })).status).toBe(200);
    }
    const revoked = await api.delete(`/pods/${team.id}/keys/${mine.id}`, { key: limited.key });
    expect([revoked.status, revoked.body.success]).toEqual([200, true]);
    expect((await api.get(`/agents/${one}/emails`, { key: mine.key })).status).toBe(401);
  });

  test("a revoked pod key stops at once, on every instance", async () => {
    const manager = await teamKey({ permissions: ["read", "manage"] });
    const doomed = await teamKey({ permissions: ["read"] });
    const other = new Api((await svc.startAnother()).url);
    const path = `/agents/${team.agents[0]}/emails`;
    for (const client of [api, other]) expect((await client.get(path, { key: doomed.key })).status).toBe(200);
    const revoked = await api.delete(`/pods/${team.id}/keys/${doomed.id}`, { key: manager.key });
    expect([revoked.status, revoked.body.success]).toEqual([200, true]);
    for (const client of [api, other]) expect((await client.get(path, { key: doomed.key })).status).toBe(401);
    expect((await api.delete(`/pods/${team.id}/keys/${doomed.id}`, { key: manager.key })).status).toBe(404);
  });

  test("a pod's key opens no other pod, no admin route and no me; an agent's key opens no pod route", async () => {
    const { key } = await teamKey({ permissions: ["read", "manage"] });
    const otherPod = podId();
    await admin("POST", "/pods", { id: otherPod, name: "Other" });
    expect((await api.get(`/pods/${otherPod}/keys`, { key })).status).toBe(403);
    const agentsKey = await teamKey({ permissions: ["agents"] });
    const intoOther = await api.post(`/pods/${otherPod}/agents`, {
      key: agentsKey.key,
      body: { id: uniqueId(), name: "X" },
    });
    expect(intoOther.status).toBe(403);
    expect((await api.get("/admin/pods", { key })).status).toBe(403);
    expect((await api.get(`/pods/${team.id}/keys`, { key: team.outsider.apiKey })).status).toBe(403);
    const me = await api.graphql("{ me { id } }", {}, key);
    expect(me.body.errors[0].extensions).toMatchObject({ status: 403 });
  });
});
