import type { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { uniqueId } from "./support/api.ts";
import { callTool, connectMcp } from "./support/mcp.ts";
import { adminOf, makePodKey, makePodWithMail, type PodWithMail } from "./support/pods.ts";
import { served } from "./support/served.ts";
import { waitFor } from "./support/wait.ts";

// /mcp with a pod's key, through the MCP SDK's own client: every tool on a
// mailbox takes agentId, one of the pod's agents the key reaches, checked as
// REST checks it; the pod's own tools (its agents, its mail) are shown to a
// pod's key holding their permission and to no agent's key; a key sees no
// tool its permissions do not allow, and is refused one with 403 naming the
// permission.

const TOKEN = "admin-token-mcp-pods-0123456789abcdef";

const { svc, api } = served({ env: { ADMIN_TOKEN: TOKEN, MAIL_DOMAINS: "localhost", VERIFICATION_MODE: "none" } });

const admin = adminOf(api, TOKEN);

/** A pod of three agents, each with one email from an agent outside it. */
let pod: PodWithMail;

/** A key of the pod the operator makes. */
const podKey = async (body: Record<string, unknown>) => (await makePodKey(admin, pod.id, body)).key;

const clients: Client[] = [];
async function connect(key: string): Promise<Client> {
  const client = await connectMcp(svc.url, key);
  clients.push(client);
  return client;
}

const namesOf = async (client: Client) => (await client.listTools()).tools.map((tool) => tool.name);

/** The tools only a pod's key is shown. */
const POD_TOOLS = ["create_pod_agent", "list_pod_agents", "list_pod_emails", "search_pod_emails"];

/** Each fenced answer has a nonce of its own. */
const anyNonce = (answer: unknown) => JSON.parse(JSON.stringify(answer).replace(/nonce=[0-9a-f]{32}/g, "nonce=…"));

beforeAll(async () => {
  pod = await makePodWithMail(api, admin);
  const key = await podKey({ permissions: ["read"] });
  await waitFor(async () => (await api.get(`/pods/${pod.id}/emails`, { key })).body.total === 3);
});

afterAll(async () => {
  for (const client of clients) await client.close();
});

describe("a pod's key", () => {
  test("its tools on a mailbox take agentId besides what an agent's key's take; the pod's tools beside them", async () => {
    const client = await connect(await podKey({ permissions: ["read", "send", "manage", "events", "agents"] }));
    const agent = await connect(pod.outsider.apiKey);
    const podListing = (await client.listTools()).tools;
    const agentListing = (await agent.listTools()).tools;
    expect(client.getInstructions()).toMatch(/pod's key/);
    expect(client.getInstructions()).toContain("agentId");
    expect(agent.getInstructions()).not.toContain("agentId");
    for (const tool of agentListing) {
      expect(tool.inputSchema.properties ?? {}, tool.name).not.toHaveProperty("agentId");
      // The one tool about the key's own agent, which a pod's key has none of.
      if (tool.name === "get_verification_status") continue;
      const onPod = podListing.find((listed) => listed.name === tool.name);
      const { agentId, ...others } = onPod?.inputSchema.properties ?? {};
      expect(agentId, tool.name).toMatchObject({ type: "string", description: expect.stringContaining("pod") });
      expect({ ...onPod?.inputSchema, properties: others }, tool.name).toEqual({
        ...tool.inputSchema,
        required: ["agentId", ...(tool.inputSchema.required ?? [])],
      });
      expect([onPod?.description, onPod?.annotations], tool.name).toEqual([tool.description, tool.annotations]);
    }
    const agentNames = agentListing.map((tool) => tool.name);
    for (const name of POD_TOOLS) expect(agentNames).not.toContain(name);
    expect(podListing.map((tool) => tool.name).sort()).toEqual(
      [...agentNames.filter((name) => name !== "get_verification_status"), ...POD_TOOLS].sort(),
    );
    const unknown = await agent.callTool({ name: "list_pod_emails", arguments: {} }).catch((error: Error) => error);
    expect(String(unknown)).toMatch(/Tool list_pod_emails not found/);
  });

  test("reads each agent of its pod as REST does, by agentId; without one, the tool says it is required", async () => {
    const key = await podKey({ permissions: ["read", "manage"] });
    const client = await connect(key);
    for (const agentId of pod.agents) {
      const viaTool = await callTool(client, "list_emails", { agentId });
      const viaRest = await api.get(`/agents/${agentId}/emails?fenced=true`, { key });
      expect(viaTool.isError).toBe(false);
      expect(anyNonce(viaTool.body)).toEqual(anyNonce(viaRest.body));
      const [email] = viaTool.body.data;
      expect(email).toMatchObject({ agentId, subject: expect.stringMatching(/^Hello /) });
      const read = await callTool(client, "read_email", { agentId, emailId: email.id });
      expect(read.body).toMatchObject({ id: email.id, agentId, isRead: true });
    }
    const agent = await callTool(client, "get_agent", { agentId: pod.agents[1] });
    expect(agent.body).toMatchObject({ id: pod.agents[1], email: `${pod.agents[1]}@localhost` });
    const none = await callTool(client, "list_emails");
    expect(none).toMatchObject({ isError: true, body: { statusCode: 400, message: "agentId is required" } });
  });

  test("the pod's tools: its agents listed and made, its mail listed and searched, each email naming its agent", async () => {
    // A key short of an agent's primary key lists the pod's agents, and is shown no tool that makes one.
    const lister = await connect(await podKey({ permissions: ["read", "agents"] }));
    expect(await namesOf(lister)).toEqual(expect.arrayContaining(["list_pod_agents"]));
    expect(await namesOf(lister)).not.toContain("create_pod_agent");
    const key = await podKey({ permissions: ["read", "send", "manage", "events", "agents"] });
    const client = await connect(key);
    const listed = await callTool(client, "list_pod_agents");
    expect(listed.body.data.map((agent: { id: string }) => agent.id)).toEqual(pod.agents);
    const id = uniqueId("made");
    const made = await callTool(client, "create_pod_agent", { id, name: "Made" });
    expect(made.body).toMatchObject({ agent: { id, email: `${id}@localhost` }, apiKey: expect.stringMatching(/^ph_/) });
    expect(
      (await api.get(`/pods/${pod.id}/agents`, { key })).body.data.map((agent: { id: string }) => agent.id),
    ).toEqual([...pod.agents, id]);
    const mail = await callTool(client, "list_pod_emails");
    expect(anyNonce(mail.body)).toEqual(anyNonce((await api.get(`/pods/${pod.id}/emails?fenced=true`, { key })).body));
    expect(mail.body.data.map((email: { agentId: string }) => email.agentId).sort()).toEqual([...pod.agents].sort());
    // Read through the fence, as every MCP read of mail.
    expect(mail.body.data[0]).toHaveProperty("fenced");
    const found = await callTool(client, "search_pod_emails", { q: "hello" });
    expect(found.body.total).toBe(3);
    const refused = await callTool(client, "search_pod_emails", {});
    expect(refused.body).toMatchObject({ statusCode: 400, message: "q is required" });
  });

  test("a key limited to two agents is refused a third, and one outside its pod, as REST refuses them", async () => {
    const [one, two, three] = pod.agents as [string, string, string];
    const key = await podKey({ permissions: ["read", "agents"], agents: [one, two] });
    const client = await connect(key);
    for (const agentId of [one, two]) expect((await callTool(client, "list_emails", { agentId })).isError).toBe(false);
    for (const agentId of [three, pod.outsider.id, "no-such-agent"]) {
      const viaTool = await callTool(client, "list_emails", { agentId });
      const viaRest = await api.get(`/agents/${agentId}/emails`, { key });
      expect(viaRest.status).toBe(agentId === "no-such-agent" ? 404 : 403);
      expect(viaTool, agentId).toMatchObject({ isError: true, body: viaRest.body });
    }
    const read = await callTool(client, "get_agent", { agentId: three });
    expect(read.body.statusCode).toBe(403);
    const listed = await callTool(client, "list_pod_agents");
    expect(listed.body.data.map((agent: { id: string }) => agent.id)).toEqual([one, two]);
    const mail = await callTool(client, "list_pod_emails");
    expect(new Set(mail.body.data.map((email: { agentId: string }) => email.agentId))).toEqual(new Set([one, two]));
  });

  test("a read-only key sees no tool that sends, manages or makes agents, and is refused them with 403 naming the permission", async () => {
    const [agentId] = pod.agents as [string];
    const client = await connect(await podKey({ permissions: ["read"] }));
    const names = await namesOf(client);
    expect(names).toEqual(
      expect.arrayContaining(["list_emails", "read_thread", "list_pod_emails", "search_pod_emails"]),
    );
    const hidden = ["send_email", "reply_to_email", "forward_email", "create_draft", "send_draft"];
    for (const name of [...hidden, "delete_email", "wait_for_email", "list_pod_agents", "create_pod_agent"]) {
      expect(names).not.toContain(name);
    }
    const sent = await callTool(client, "send_email", { agentId, to: "a@localhost", subject: "x", text: "x" });
    expect(sent).toMatchObject({
      isError: true,
      body: { error: "Forbidden", statusCode: 403, permission: "send", message: expect.any(String) },
    });
    const made = await callTool(client, "create_pod_agent", { id: uniqueId("nope"), name: "N" });
    expect(made).toMatchObject({ isError: true, body: { statusCode: 403, permission: "agents" } });
    const sendOnly = await connect(await podKey({ permissions: ["send"] }));
    const sendNames = await namesOf(sendOnly);
    expect(sendNames).toContain("send_email");
    for (const name of ["list_emails", "list_pod_emails", "search_pod_emails"]) expect(sendNames).not.toContain(name);
    const listed = await callTool(sendOnly, "list_pod_emails");
    expect(listed).toMatchObject({ isError: true, body: { statusCode: 403, permission: "read" } });
  });
});
