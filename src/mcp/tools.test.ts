import { expect, test } from "vitest";
import { openApiDocument } from "../rest/openapi.ts";
import { answeredFields } from "../rest/operation.ts";
import { schema } from "../schema/index.ts";
import { operations } from "../schema/operations.ts";
import { podTools, requestOf, type Tool, tools } from "./tools.ts";

// The tools made from the declarations: each takes the parameters its REST
// route takes, as the OpenAPI document names them (but the id the key
// gives), and makes the request REST would read. A pod's key's tools on an
// agent are the agent's key's, taking agentId besides.

type Parameters = { name: string; in: string }[];
type Body = { content: Record<string, { schema: { properties?: Record<string, unknown> } }> };

const document = openApiDocument(schema, { publicUrl: "https://mail.example" }) as {
  paths: Record<string, Record<string, { parameters?: Parameters; requestBody?: Body }>>;
};

/** What REST takes for a route, as a tool names it: the key's agent or pod left out, the Idempotency-Key header as idempotencyKey. */
function restParameters(tool: Tool): string[] {
  const { method, path } = tool.route;
  const described = document.paths[path.replace(/:(\w+)/g, "{$1}")]?.[method.toLowerCase()];
  const inRequest = (described?.parameters ?? [])
    .filter(({ name }) => name !== tool.fromKey)
    .map(({ name }) => (name === "Idempotency-Key" ? "idempotencyKey" : name));
  const body = Object.keys(described?.requestBody?.content["application/json"]?.schema.properties ?? {});
  return [...inRequest, ...body].sort();
}

const named = (name: string, among = tools) => among.find((tool) => tool.name === name) as Tool;

test("every declaration with a tool yields it, taking exactly its REST route's parameters", () => {
  const declared = operations.filter((route) => route.mcp);
  expect(declared.length).toBeGreaterThan(0);
  for (const route of declared) {
    const tool = named(route.mcp?.name ?? "") ?? named(route.mcp?.name ?? "", podTools);
    expect(tool.route, tool.name).toBe(route);
    expect(Object.keys(tool.inputSchema.properties).sort(), tool.name).toEqual(restParameters(tool));
  }
});

test("a pod's key: each agent's tool on an agent, taking agentId (required) besides; the pod's tools, for it only", () => {
  const onAgent = tools.filter((tool) => tool.route.path.startsWith("/agents/:agentId"));
  for (const tool of onAgent) {
    const { inputSchema, fills, permission } = named(tool.name, podTools);
    const { agentId, ...others } = inputSchema.properties;
    expect(agentId, tool.name).toMatchObject({ type: "string" });
    expect(others, tool.name).toEqual(tool.inputSchema.properties);
    expect(inputSchema.required, tool.name).toEqual(["agentId", ...(tool.inputSchema.required ?? [])]);
    expect([fills, permission], tool.name).toEqual([tool.fills, tool.permission]);
  }
  // The key's own agent, which a pod's key has none of.
  expect(named("get_verification_status", podTools)).toBeUndefined();
  const podOnly = podTools.filter((tool) => !named(tool.name)).map((tool) => [tool.name, tool.permission]);
  expect(podOnly).toEqual([
    ["create_pod_agent", ["agents", "read", "send", "manage", "events"]],
    ["list_pod_agents", "agents"],
    ["list_pod_emails", "read"],
    ["search_pod_emails", "read"],
  ]);
  expect(podTools).toHaveLength(onAgent.length + podOnly.length);
});

test("a variant takes some of its route's parameters and fills only others of them", () => {
  for (const route of operations) {
    for (const variant of route.mcp?.variants ?? []) {
      const tool = named(variant.name);
      const taken = restParameters(tool);
      for (const name of Object.keys(tool.inputSchema.properties)) expect(taken, tool.name).toContain(name);
      for (const name of Object.keys(tool.fills)) expect(taken, tool.name).toContain(name);
    }
  }
});

test("bounds and times: limit and timeout as the arguments declare them; a time in ms or ISO 8601", () => {
  expect(named("list_emails").inputSchema.properties.limit).toMatchObject({ type: "integer", minimum: 1 });
  expect(named("wait_for_email").inputSchema.properties.timeout).toMatchObject({ minimum: 0, maximum: 25 });
  expect(named("send_email").inputSchema.required?.sort()).toEqual(["subject", "to"]);
  expect(named("read_email").readOnly).toBe(false);
  expect(named("get_email").readOnly).toBe(true);
});

test("the request REST would read: path, query as text, body, header; ISO 8601 as ms; a variant's fills", () => {
  const after = "2026-05-01T09:00:00Z";
  expect(requestOf(named("search_emails"), { q: "x", after, limit: 5 }, "a1")).toEqual({
    params: { agentId: "a1" },
    query: { q: "x", after: String(Date.parse(after)), limit: "5", fenced: "true" },
    body: {},
    headers: {},
  });
  expect(requestOf(named("send_email"), { to: ["p@x.example"], subject: "s", idempotencyKey: "k" }, "a1")).toEqual({
    params: { agentId: "a1" },
    query: {},
    body: { to: ["p@x.example"], subject: "s" },
    headers: { "idempotency-key": "k" },
  });
  expect(requestOf(named("read_email"), { emailId: "e1", folder: "trash" }, "a1")).toEqual({
    params: { agentId: "a1", emailId: "e1" },
    query: {},
    body: { isRead: true, fenced: true },
    headers: {},
  });
  expect(requestOf(named("get_attachment"), { emailId: "e1", attachmentId: "t1" }, "a1").params).toEqual({
    agentId: "a1",
    emailId: "e1",
    attachmentId: "t1",
  });
});

/** An email's fields that carry its text as the sender wrote it, unfenced. */
const BODIES = ["bodyText", "bodyHtml", "text", "replyText"];
/** The same of mail the agent wrote: a forward, sent or held as a draft, quotes a received email whole. */
const OWN_BODIES = { SentEmail: ["bodyText", "bodyHtml"], Draft: ["text", "html"] };

test("no tool gives a model an email's text but inside the fence; each that answers emails names their fields", () => {
  for (const tool of [...tools, ...podTools]) {
    const answered = answeredFields(tool.route, schema, tool.fills);
    for (const [type, bodies] of Object.entries(OWN_BODIES)) {
      const own = answered.get(type) ?? [];
      for (const body of bodies) expect(own, `${tool.name}: ${type}`).not.toContain(body);
    }
    const fields = answered.get("Email") ?? [];
    const given = tool.keeps ? fields.filter((name) => tool.keeps?.includes(name)) : fields;
    for (const body of BODIES) expect(given, tool.name).not.toContain(body);
    if (tool.keeps || tool.route.file || !fields.includes("subject")) continue;
    expect(fields, tool.name).toContain("fenced");
    for (const name of fields) expect(tool.description, `${tool.name}: ${name}`).toMatch(new RegExp(`\\b${name}\\b`));
  }
});

test("mail the agent wrote reaches a model fenced: sent mail, a thread's sent messages, drafts", () => {
  const fieldsOf = (name: string, type: string) => {
    const tool = named(name);
    return answeredFields(tool.route, schema, tool.fills).get(type);
  };
  for (const [name, type] of [
    ["list_sent", "SentEmail"],
    ["read_thread", "SentEmail"],
    ["list_drafts", "Draft"],
    ["create_draft", "Draft"],
    ["update_draft", "Draft"],
  ] as const) {
    expect(fieldsOf(name, type), name).toEqual(expect.arrayContaining(["subject", "fenced"]));
    expect(named(name).description, name).toContain("author=you");
  }
});

test("the fields an answer gives, as the variables decide @include and @skip (else their defaults)", () => {
  const route = named("get_email").route;
  const email = (variables: Record<string, unknown>) => answeredFields(route, schema, variables).get("Email");
  expect(email({ fenced: true })).toEqual(expect.arrayContaining(["subject", "screening", "spam", "fenced"]));
  expect(email({})).toEqual(expect.arrayContaining(BODIES));
  expect(email({})).not.toContain("fenced");
  expect(answeredFields(route, schema, {}).get("SpamVerdict")).toContain("isSpam");
});

test("a pod's key gives its pod's id; its agent is the tool's argument, left out when not given", () => {
  expect(requestOf(named("read_email", podTools), { agentId: "a2", emailId: "e1" }, "team").params).toEqual({
    podId: "team",
    agentId: "a2",
    emailId: "e1",
  });
  expect(requestOf(named("get_agent", podTools), {}, "team").params).toEqual({ podId: "team" });
  expect(requestOf(named("search_pod_emails", podTools), { q: "x", agentId: "a2" }, "team")).toEqual({
    params: { podId: "team" },
    query: { q: "x", fenced: "true" },
    body: {},
    headers: {},
  });
});
