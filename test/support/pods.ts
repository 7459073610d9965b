import { expect } from "vitest";
import { type Api, createAgent, type Reply, type TestAgent, uniqueId } from "./api.ts";

// Pods as the operator makes them over the admin API, for the tests of pods:
// the admin calls with the operator's token, a pod's agents and keys, and a
// pod whose agents hold mail.

/** A call of the admin API (its path after /admin) with the operator's token. */
export type Admin = (method: string, path: string, body?: unknown) => Promise<Reply>;

export const adminOf =
  (api: Api, token: string): Admin =>
  (method, path, body) =>
    api.call(method, `/admin${path}`, { key: token, body });

/** A key of the pod the operator makes: its id and the key itself. */
export async function makePodKey(
  admin: Admin,
  podId: string,
  body: Record<string, unknown>,
): Promise<{ id: string; key: string }> {
  const made = await admin("POST", `/pods/${podId}/keys`, { name: "a key", ...body });
  expect(made.status).toBe(201);
  return made.body;
}

/** An agent the operator makes in the pod, with its key. */
export async function makePodAgent(admin: Admin, podId: string, name: string): Promise<TestAgent> {
  const id = uniqueId(name);
  const made = await admin("POST", "/agents", { id, name, podId });
  expect(made.status).toBe(201);
  return { id, apiKey: made.body.apiKey };
}

export interface PodWithMail {
  id: string;
  /** Its agents' ids, in the order of their names. */
  agents: string[];
  /** The agent outside the pod that wrote to each. */
  outsider: TestAgent;
}

/**
 * A pod named Team of agents by these names (on localhost, where mail between
 * agents is filed at once), each sent one email, "Hello <name>", by an agent
 * outside it.
 */
export async function makePodWithMail(api: Api, admin: Admin, names = ["one", "two", "three"]): Promise<PodWithMail> {
  const id = uniqueId("pod");
  expect((await admin("POST", "/pods", { id, name: "Team" })).status).toBe(201);
  const outsider = await createAgent(api);
  const agents: string[] = [];
  for (const name of names) {
    const agent = await makePodAgent(admin, id, name);
    const sent = await api.post(`/agents/${outsider.id}/send`, {
      key: outsider.apiKey,
      body: { to: `${agent.id}@localhost`, subject: `Hello ${name}`, text: "Hi." },
    });
    expect(sent.status).toBe(201);
    agents.push(agent.id);
  }
  return { id, agents, outsider };
}
