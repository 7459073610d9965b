import { describe, expect, test } from "vitest";
import { createAgent, uniqueId } from "./support/api.ts";
import { served } from "./support/served.ts";

// Pods over HTTP: the operator makes, lists, renames and deletes them (REST
// and GraphQL's admin), creates agents in them, and gives them domains that
// are closed to everyone else.

const TOKEN = "admin-token-pods-0123456789abcdef";

const { api } = served({
  env: { ADMIN_TOKEN: TOKEN, MAIL_DOMAINS: "main.example,pod.example,spare.example,closed.example" },
});

const admin = (method: string, path: string, body?: unknown) => api.call(method, `/admin${path}`, { key: TOKEN, body });

const podId = () => uniqueId("pod");

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
    const main = await admin("POST", "/pods", { id: podId(), name: "M", domains: ["main.example"] });
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
      domain: "main.example",
    });
    expect(astray.status).toBe(400);
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
});
