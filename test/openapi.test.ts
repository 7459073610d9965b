import { validate } from "@readme/openapi-parser";
import { Ajv2020 } from "ajv/dist/2020.js";
import { afterAll, beforeAll, expect, test } from "vitest";
import { publicOperations as publicRoutes } from "../src/schema/operations.ts";
import {
  createAgent,
  createVerifiedAgent,
  publishPost,
  type TestAgent,
  uniqueAuthor,
  uniqueId,
} from "./support/api.ts";
import { Clamd, EICAR } from "./support/clamav.ts";
import { inboxOf } from "./support/inbox.ts";
import { rawMessage, withAttachment } from "./support/mail.ts";
import { served } from "./support/served.ts";
import { waitFor } from "./support/wait.ts";
import { WebhookReceiver } from "./support/webhook-receiver.ts";

// /openapi.json is generated from the declarations. It must be a valid
// OpenAPI 3.1 document, and every operation it documents must answer as
// documented: one real call each, its status among the documented ones and
// its body valid against the documented schema.

// biome-ignore lint/suspicious/noExplicitAny: JSON documents read from the wire, walked by path
type Json = Record<string, any>;

let receiver: WebhookReceiver;
let doc: Json;
const checked = new Set<string>();
const ajv = new Ajv2020({ strict: false });

const ADMIN = "admin-token-openapi-0123456789";
const INBOUND = "inbound-token-openapi-0123456789";
const REVIEWER = "reviewer@people.example";
let clamd: Clamd;
beforeAll(async () => {
  clamd = await Clamd.start();
});
afterAll(async () => {
  await clamd?.stop();
});
// After clamd above has started: the service is told where it listens (it quarantines EICAR).
const { api, x, dovecot, provider } = served({
  imap: true,
  smtp: true,
  env: () => ({
    WEBHOOK_ALLOW_PRIVATE: "true",
    ADMIN_TOKEN: ADMIN,
    INBOUND_TOKEN: INBOUND,
    CLAMAV_URL: clamd.url,
    REVIEWER_EMAIL: REVIEWER,
  }),
});

beforeAll(async () => {
  receiver = await WebhookReceiver.start();
  doc = (await api.get("/openapi.json")).body;
});
afterAll(async () => {
  await receiver?.down();
});

/** The documented operation a concrete call is for. */
function documented(method: string, path: string): { template: string; operation: Json } {
  const bare = path.split("?")[0] as string;
  for (const [template, item] of Object.entries(doc.paths as Json)) {
    const pattern = new RegExp(`^${template.replace(/\{\w+\}/g, "[^/]+")}$`);
    const operation = item[method.toLowerCase()];
    if (pattern.test(bare) && operation) return { template, operation };
  }
  throw new Error(`${method} ${bare} is not documented`);
}

/** One call, checked against the document; its reply. */
async function call(method: string, path: string, options: { key?: string; body?: unknown; headers?: Json } = {}) {
  const reply = await api.call(method, path, options);
  const { template, operation } = documented(method, path);
  const response = operation.responses[String(reply.status)];
  expect(response, `${method} ${path} answered ${reply.status}: ${reply.text.slice(0, 300)}`).toBeDefined();
  const schema = response.content?.["application/json"]?.schema;
  if (schema) {
    const resolved = schema.$ref ? doc.components.schemas.Error : schema;
    const valid = ajv.validate(resolved, reply.body);
    expect(valid, `${method} ${template}: ${ajv.errorsText()} in ${reply.text.slice(0, 500)}`).toBe(true);
  }
  checked.add(`${method} ${template}`);
  return reply;
}

test("the document is valid OpenAPI 3.1 and documents every route", async () => {
  expect(doc.openapi).toBe("3.1.0");
  const result = await validate(structuredClone(doc) as never);
  expect("errors" in result ? result.errors : []).toEqual([]);
  expect(result.valid).toBe(true);
  const operations = Object.values(doc.paths as Json).flatMap((item) => Object.keys(item));
  expect(operations).toHaveLength(publicRoutes.length);
  expect(doc.components.securitySchemes.apiKey).toEqual(expect.objectContaining({ type: "http", scheme: "bearer" }));
  expect(doc.paths["/agents"].post.security).toEqual([]);
});

test("a reference a person reads: operations grouped by area, every part described, its own statuses", async () => {
  expect(doc.info.title).toBe("Pigeonhole API");
  const tags = doc.tags.map((tag: Json) => tag.name);
  expect(tags).toEqual([
    "agents",
    "verification",
    "review",
    "sending",
    "emails",
    "threads",
    "events",
    "webhooks",
    "keys",
    "pods",
  ]);
  const operations = Object.entries(doc.paths as Json).flatMap(([path, item]) =>
    Object.entries(item as Json).map(([method, operation]): [string, Json] => [
      `${method.toUpperCase()} ${path}`,
      operation as Json,
    ]),
  );
  const summaries = operations.map(([, operation]) => operation.summary);
  expect(new Set(summaries).size).toBe(summaries.length);
  for (const [name, operation] of operations) {
    expect(operation.tags, name).toHaveLength(1);
    expect(tags, name).toContain(operation.tags[0]);
    for (const parameter of operation.parameters ?? []) {
      if (parameter.in !== "path") expect(parameter.description, `${name} ${parameter.name}`).toBeTruthy();
    }
    const body = operation.requestBody?.content["application/json"].schema.properties ?? {};
    for (const [field, schema] of Object.entries(body as Json)) {
      expect(schema.description, `${name} body.${field}`).toBeTruthy();
    }
  }
  const byName = new Map(operations);
  expect(Object.keys(byName.get("POST /agents")?.responses ?? {})).not.toContain("404");
  expect(Object.keys(byName.get("POST /verify/{claimToken}/start")?.responses ?? {})).toContain("410");
  const send = byName.get("POST /agents/{agentId}/send");
  expect(send?.tags).toEqual(["sending"]);
  expect(send?.parameters.find((p: Json) => p.name === "Idempotency-Key").description).toBeTruthy();
  expect(send?.requestBody.content["application/json"].schema.properties.subject.examples).toEqual([
    "Quarterly numbers",
  ]);
});

test("every documented operation answers as documented", async () => {
  // Agents and verification.
  await call("GET", "/domains");
  const created = await call("POST", "/agents", { body: { id: uniqueId(), name: "Documented" } });
  const fresh = { id: created.body.agent.id, apiKey: created.body.apiKey } as TestAgent;
  const claim = /\/verify\/(.+)$/.exec(created.body.verifyUrl)?.[1] as string;
  await call("GET", "/verify/status", { key: fresh.apiKey });
  const started = await call("POST", "/verify/start", { key: fresh.apiKey });
  await call("POST", "/verify/complete", {
    key: fresh.apiKey,
    body: { tweetUrl: publishPost(x, uniqueAuthor(), started.body.tweetText) },
  });
  const other = await createAgent(api);
  const otherClaim = (await api.post("/agents", { body: { id: uniqueId(), name: "By link" } })).body.verifyUrl;
  const linkToken = /\/verify\/(.+)$/.exec(otherClaim)?.[1] as string;
  const byLink = await call("POST", `/verify/${linkToken}/start`);
  await call("POST", `/verify/${linkToken}/complete`, {
    body: { tweetUrl: publishPost(x, uniqueAuthor(), byLink.body.tweetText) },
  });
  expect(claim).toMatch(/^pv_/);
  const agent = await createVerifiedAgent(api, x);
  const key = agent.apiKey;
  const base = `/agents/${agent.id}`;
  await call("GET", base, { key });

  // Mail in, with an attachment, through Dovecot.
  await dovecot.append(`X-Original-To: ${agent.id}@mail.example\r\n${withAttachment(`${agent.id}@mail.example`)}`);
  const [email] = (await inboxOf(api, agent, 1)).body.data;
  await call("GET", `${base}/emails?limit=10&q=report&isRead=false`, { key });
  await call("GET", `${base}/emails/${email.id}`, { key });
  await call("PATCH", `${base}/emails/${email.id}`, { key, body: { isRead: true, addLabels: ["Documented"] } });
  await call("GET", `${base}/emails?label=documented,-other`, { key });
  await call("POST", `${base}/emails/batch`, { key, body: { emailIds: [email.id], folder: "archive" } });
  await call("GET", `${base}/emails/wait?after=0&timeout=1`, { key });
  await call("GET", `${base}/emails/${email.id}/attachments/${email.attachments[0].id}`, { key });
  await call("GET", `${base}/events?limit=5`, { key });
  await call("GET", `${base}/senders`, { key });
  await call("PUT", `${base}/senders`, { key, body: { block: ["@spam.example"] } });
  await call("GET", `${base}/threads`, { key });

  // Mail out.
  const sent = await call("POST", `${base}/send`, {
    key,
    body: { to: ["pat@example.com", "sam@example.com"], subject: "Documented", text: "Hello." },
  });
  await call("POST", `${base}/emails/${email.id}/reply`, { key, body: { text: "Thanks." } });
  await call("POST", `${base}/emails/${email.id}/forward`, { key, body: { to: "pat@example.com", text: "FYI" } });
  await call("GET", `${base}/threads/${email.threadId}`, { key });
  await call("PATCH", `${base}/threads/${email.threadId}`, { key, body: { addLabels: ["documented"] } });
  await call("GET", `${base}/threads?label=documented`, { key });
  await call("GET", `${base}/sent?limit=5`, { key });
  await call("GET", `${base}/sent/${sent.body.id}`, { key });
  await call("DELETE", `${base}/sent/${sent.body.id}`, { key });
  await call("GET", `${base}/suppressions`, { key });
  const draft = await call("POST", `${base}/drafts`, { key, body: { to: "pat@example.com", subject: "Draft" } });
  const drafted = `${base}/drafts/${draft.body.id}`;
  await call("GET", `${base}/drafts`, { key });
  await call("GET", drafted, { key });
  await call("PATCH", drafted, { key, body: { text: "Ready." } });
  await call("POST", `${drafted}/send`, { key });
  const second = await call("POST", `${base}/drafts`, { key, body: { subject: "Dropped" } });
  await call("DELETE", `${base}/drafts/${second.body.id}`, { key });
  await call("DELETE", `${base}/suppressions/nobody@example.com`, { key });

  // Held for a person, and decided by review link; scheduled (202).
  await call("POST", `${base}/send`, {
    key,
    body: { to: "pat@example.com", subject: "Later", text: "Hi.", sendAt: Date.now() + 3_600_000 },
  });
  await api.call("PUT", `/admin/agents/${agent.id}/policy`, {
    key: ADMIN,
    body: { sendPolicy: "review_all" },
  });
  // The link goes to the reviewer, by mail.
  const reviewToken = (subject: string) =>
    waitFor(() => {
      const mail = provider.deliveries.find((d) => d.to.includes(REVIEWER) && d.parsed.subject?.includes(subject));
      return mail ? (/\/review\/(pr_[\w-]{43})/.exec(mail.parsed.text ?? "")?.[1] ?? null) : null;
    });
  await call("POST", `${base}/send`, { key, body: { to: "pat@example.com", subject: "Held", text: "Hi." } });
  const held = await reviewToken("Review: Held (");
  await call("GET", `/review/${held}/message`);
  await call("POST", `/review/${held}/approve`);
  await call("POST", `${base}/send`, { key, body: { to: "pat@example.com", subject: "No", text: "Hi." } });
  await call("POST", `/review/${await reviewToken("Review: No (")}/reject`, { body: { reason: "No." } });
  // Quarantined (EICAR, which clamd finds), and released or deleted by its review link.
  const quarantined = async (subject: string) => {
    const to = `${agent.id}@mail.example`;
    await fetch(`${api.url}/inbound/raw`, {
      method: "POST",
      body: rawMessage({ to, subject, body: EICAR }),
      headers: { Authorization: `Bearer ${INBOUND}`, "Content-Type": "message/rfc822", "X-Envelope-To": to },
    });
    return reviewToken(`Quarantined: ${subject} (`);
  };
  const infected = await quarantined("Infected");
  await call("GET", `/review/${infected}/quarantined`);
  await call("POST", `/review/${infected}/release`);
  await call("POST", `/review/${await quarantined("Infected too")}/delete`);

  // Webhooks and their deliveries.
  const hook = await call("POST", `${base}/webhooks`, { key, body: { url: receiver.url, events: ["email.updated"] } });
  const hooks = `${base}/webhooks/${hook.body.id}`;
  await call("GET", `${base}/webhooks`, { key });
  await call("GET", hooks, { key });
  await call("PATCH", hooks, { key, body: { description: "documented" } });
  await call("POST", `${hooks}/rotate-secret`, { key });
  await api.call("PATCH", `${base}/emails/${email.id}`, { key, body: { isRead: false } });
  const deliveries = await waitFor(async () => {
    const reply = await call("GET", `${hooks}/deliveries`, { key });
    return reply.body.data[0] ? reply : null;
  });
  await call("POST", `${hooks}/deliveries/${deliveries.body.data[0].id}/retry`, { key });
  await call("DELETE", hooks, { key });

  // Keys, and a key's refusal for lack of a permission.
  const made = await call("POST", `${base}/keys`, { key, body: { name: "documented", permissions: ["read"] } });
  await call("GET", `${base}/keys`, { key });
  expect((await call("GET", `${base}/keys`, { key: made.body.key })).body.permission).toBe("manage");
  await call("DELETE", `${base}/keys/${made.body.id}`, { key });

  // A pod's keys, by a key of the pod the operator made.
  const pod = uniqueId("pod");
  await api.post("/admin/pods", { key: ADMIN, body: { id: pod, name: "Documented" } });
  const podKey = (
    await api.post(`/admin/pods/${pod}/keys`, {
      key: ADMIN,
      body: { name: "p", permissions: ["read", "send", "manage", "events", "agents"] },
    })
  ).body.key;
  // Verified by its owner's post, so that the agent its key makes is verified with it.
  const podStart = await call("POST", `/pods/${pod}/verify/start`, { key: podKey });
  await call("POST", `/pods/${pod}/verify/complete`, {
    key: podKey,
    body: { tweetUrl: publishPost(x, uniqueAuthor(), podStart.body.tweetText) },
  });
  const podChild = await call("POST", `/pods/${pod}/keys`, {
    key: podKey,
    body: { name: "c", permissions: ["manage"] },
  });
  await call("GET", `/pods/${pod}/keys`, { key: podKey });
  await call("DELETE", `/pods/${pod}/keys/${podChild.body.id}`, { key: podKey });
  const podHook = await call("POST", `/pods/${pod}/webhooks`, { key: podKey, body: { url: receiver.url } });
  const podHooks = `/pods/${pod}/webhooks/${podHook.body.id}`;
  const podAgent = await call("POST", `/pods/${pod}/agents`, {
    key: podKey,
    body: { id: uniqueId(), name: "Pod agent" },
  });
  await call("GET", `/pods/${pod}/agents`, { key: podKey });
  // A pod's events and webhooks: the pod's agent's sent mail is an event of the pod.
  await api.post(`/agents/${podAgent.body.agent.id}/send`, {
    key: podAgent.body.apiKey,
    body: { to: "pat@example.com", subject: "From the pod", text: "Hello." },
  });
  await call("GET", `/pods/${pod}/events?limit=5&wait=0`, { key: podKey });
  await call("GET", `/pods/${pod}/webhooks`, { key: podKey });
  await call("GET", podHooks, { key: podKey });
  await call("PATCH", podHooks, { key: podKey, body: { description: "documented" } });
  await call("POST", `${podHooks}/rotate-secret`, { key: podKey });
  const podDeliveries = await waitFor(async () => {
    const reply = await call("GET", `${podHooks}/deliveries`, { key: podKey });
    return reply.body.data[0] ? reply : null;
  });
  await call("POST", `${podHooks}/deliveries/${podDeliveries.body.data[0].id}/retry`, { key: podKey });
  await call("DELETE", podHooks, { key: podKey });
  await call("PUT", `/pods/${pod}/lists`, { key: podKey, body: { receive: { block: ["@spam.example"] } } });
  await call("GET", `/pods/${pod}/lists`, { key: podKey });
  await call("PUT", `/pods/${pod}/policy`, { key: podKey, body: { sendPolicy: "review_new_recipients" } });
  await call("GET", `/pods/${pod}/policy`, { key: podKey });
  const podReader = (
    await api.post(`/admin/pods/${pod}/keys`, { key: ADMIN, body: { name: "r", permissions: ["read"] } })
  ).body.key;
  await call("GET", `/pods/${pod}/emails`, { key: podReader });
  await call("GET", `/pods/${pod}/search?q=hello`, { key: podReader });

  // Endings.
  await call("DELETE", `${base}/emails/${email.id}`, { key, headers: {} });
  await call("GET", `${base}/emails/missing-email`, { key });
  await call("POST", `/agents/${other.id}/rotate-key`, { key: other.apiKey });
  await call("DELETE", `/agents/${fresh.id}`, { key: fresh.apiKey });

  const all = Object.entries(doc.paths as Json).flatMap(([template, item]) =>
    Object.keys(item).map((method) => `${method.toUpperCase()} ${template}`),
  );
  expect([...all].filter((operation) => !checked.has(operation))).toEqual([]);
});
