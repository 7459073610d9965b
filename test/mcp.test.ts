import { randomBytes } from "node:crypto";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import MailComposer from "nodemailer/lib/mail-composer";
import { afterAll, beforeAll, describe, expect, test } from "vitest";
import { createAgent, createVerifiedAgent, type TestAgent } from "./support/api.ts";
import { inboxOf } from "./support/inbox.ts";
import { served } from "./support/served.ts";

// /mcp with the MCP SDK's own client over Streamable HTTP: the tools an
// agent's model calls, against mail filed from Dovecot and sent through a
// real SMTP server.

const DOMAIN = "mail.example";

const { svc, api, x, dovecot, provider } = served({
  imap: true,
  smtp: true,
  env: { MAIL_DOMAIN: DOMAIN, PUBLIC_URL: "https://mail.example.net" },
});

async function connect(key?: string): Promise<Client> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(`${svc.url}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: "pigeonhole-test", version: "1" });
  await client.connect(transport);
  return client;
}

interface ToolReply {
  isError?: boolean;
  content: { type: string; text?: string; resource?: { uri: string; mimeType?: string; blob?: string } }[];
}

/** A tool's answer, read as the JSON it carries. */
async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const reply = (await client.callTool({ name, arguments: args })) as ToolReply;
  const text = reply.content[0]?.text;
  return { isError: reply.isError ?? false, body: text === undefined ? undefined : JSON.parse(text), reply };
}

function compose(options: ConstructorParameters<typeof MailComposer>[0]): Promise<Buffer> {
  return new Promise((resolve, reject) =>
    new MailComposer(options).compile().build((error, raw) => (error ? reject(error) : resolve(raw))),
  );
}

async function deliver(agent: TestAgent, options: ConstructorParameters<typeof MailComposer>[0]): Promise<void> {
  const raw = await compose({ from: "Jordan <jordan@sender.example>", to: `${agent.id}@${DOMAIN}`, ...options });
  await dovecot.append(`X-Original-To: ${agent.id}@${DOMAIN}\r\n${raw.toString()}`);
}

describe("the door", () => {
  test("without a key, or with a wrong one, /mcp answers 401 in the spec's shape; only POST is served", async () => {
    await expect(connect()).rejects.toThrow(/401/);
    await expect(connect("ph_wrong")).rejects.toThrow(/401/);
    const raw = await api.post("/mcp", { body: { jsonrpc: "2.0", id: 1, method: "tools/list" } });
    expect(raw.status).toBe(401);
    expect(raw.body).toMatchObject({ error: "Unauthorized", message: "API key is required", statusCode: 401 });
    const get = await api.get("/mcp");
    expect([get.status, get.headers.get("allow")]).toEqual([405, "POST"]);
  });

  test("a batch: at most 10 calls, whose answers share one budget of 32 MiB of mail", async () => {
    const agent = await createVerifiedAgent(api, x);
    await deliver(agent, { subject: "large", text: "x".repeat(4 * 1024 * 1024) });
    const [email] = (await inboxOf(api, agent, 1)).body.data;
    const batch = (size: number) =>
      Array.from({ length: size }, (_, id) => ({
        jsonrpc: "2.0",
        id,
        method: "tools/call",
        params: { name: "read_email", arguments: { emailId: email.id, markAsRead: false } },
      }));
    const post = (body: unknown) =>
      api.post("/mcp", {
        key: agent.apiKey,
        headers: { accept: "application/json, text/event-stream" },
        body,
      });
    const refused = await post(batch(11));
    expect(refused.status).toBe(400);
    expect(refused.body).toMatchObject({ error: "Bad Request", message: expect.stringMatching(/at most 10 messages/) });
    const answered = await post(batch(10));
    expect(answered.status).toBe(200);
    const results = (answered.body as { result: ToolReply }[]).map(({ result }) => result);
    expect(results).toHaveLength(10);
    // Each whole answer carries the 4 MiB three times (bodyText, text, replyText): a few fit, the rest are refused.
    const over = results.filter((result) => result.isError);
    expect(over.length).toBeGreaterThanOrEqual(6);
    expect(over.length).toBeLessThan(10);
    for (const result of over) expect(JSON.parse(result.content[0]?.text ?? "")).toMatchObject({ statusCode: 413 });
    expect(answered.text.length).toBeLessThan(48 * 1024 * 1024);
  });

  test("a rotated key stops working at once", async () => {
    const agent = await createVerifiedAgent(api, x);
    const client = await connect(agent.apiKey);
    expect((await callTool(client, "get_agent")).body.id).toBe(agent.id);
    await api.post(`/agents/${agent.id}/rotate-key`, { key: agent.apiKey });
    await expect(client.callTool({ name: "get_agent", arguments: {} })).rejects.toThrow(/401/);
    await client.close();
  });

  test("the tools a model sees: described, typed, read-only ones marked", async () => {
    const agent = await createAgent(api);
    const client = await connect(agent.apiKey);
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(
      [
        "delete_email",
        "forward_email",
        "get_agent",
        "get_attachment",
        "get_codes_and_links",
        "get_verification_status",
        "list_emails",
        "list_sent",
        "list_drafts",
        "create_draft",
        "update_draft",
        "send_draft",
        "list_suppressions",
        "move_email",
        "read_email",
        "reply_to_email",
        "search_emails",
        "send_email",
        "wait_for_email",
      ].sort(),
    );
    for (const tool of tools) {
      expect(tool.description?.length, tool.name).toBeGreaterThan(60);
      expect(tool.inputSchema.type).toBe("object");
    }
    const byName = (name: string) => tools.find((tool) => tool.name === name);
    expect(byName("read_email")?.inputSchema.required).toEqual(["emailId"]);
    expect(byName("send_email")?.inputSchema.required).toEqual(["to", "subject"]);
    expect(byName("list_emails")?.annotations?.readOnlyHint).toBe(true);
    expect(byName("delete_email")?.annotations?.readOnlyHint).toBe(false);
    const server = client.getInstructions();
    expect(server).toContain("get_agent");
    await client.close();
  });
});

describe("tools", () => {
  let agent: TestAgent;
  let client: Client;

  beforeAll(async () => {
    agent = await createVerifiedAgent(api, x);
    client = await connect(agent.apiKey);
  });
  afterAll(async () => {
    await client.close();
  });

  test("get_agent tells the address; an unverified agent learns where it stands, and its reading is refused", async () => {
    expect((await callTool(client, "get_agent")).body).toMatchObject({
      id: agent.id,
      email: `${agent.id}@${DOMAIN}`,
      verified: true,
    });
    const waiting = await connect((await createAgent(api)).apiKey);
    expect((await callTool(waiting, "get_verification_status")).body).toEqual({
      mode: "social",
      verified: false,
      hasActiveCode: false,
    });
    const refused = await callTool(waiting, "list_emails");
    expect(refused.isError).toBe(true);
    expect(refused.body).toEqual({
      error: "Forbidden",
      message: "Agent is not verified: complete verification first",
      statusCode: 403,
      code: "NOT_VERIFIED",
    });
    await waiting.close();
  });

  test("list, search, codes and links, read (marking read), attachments", async () => {
    const pdf = randomBytes(1500);
    await deliver(agent, {
      subject: "Your Acme verification code",
      text: "Your verification code is 482913.\nConfirm at https://acme.example/confirm?t=1",
      attachments: [{ filename: "terms.pdf", content: pdf, contentType: "application/pdf" }],
    });
    // Filed before the next arrives: two filed in one millisecond would list in either order.
    await inboxOf(api, agent, 1);
    await deliver(agent, { subject: "Lunch on Friday", text: "Shall we meet at noon?" });
    await inboxOf(api, agent, 2);

    const unread = await callTool(client, "list_emails", { unreadOnly: true });
    expect(unread.body.total).toBe(2);
    const [lunch, code] = unread.body.data;
    expect(code).toEqual({
      id: expect.any(String),
      from: { address: "jordan@sender.example", name: "Jordan" },
      subject: "Your Acme verification code",
      preview: "Your verification code is 482913. Confirm at https://acme.example/confirm?t=1",
      receivedAt: expect.any(Number),
      isRead: false,
      folder: "inbox",
      threadId: expect.any(String),
      attachments: 1,
      authenticated: "none",
      autoSubmitted: null,
    });
    expect(lunch.subject).toBe("Lunch on Friday");

    const found = await callTool(client, "search_emails", { query: "verif", from: "@sender.example" });
    expect(found.body.data.map((email: { id: string }) => email.id)).toEqual([code.id]);
    expect((await callTool(client, "search_emails", { query: "-lunch", limit: 5 })).body.total).toBe(1);

    expect((await callTool(client, "get_codes_and_links", { emailId: code.id })).body).toEqual({
      id: code.id,
      from: code.from,
      subject: code.subject,
      codes: ["482913"],
      links: [{ url: "https://acme.example/confirm?t=1", text: "https://acme.example/confirm?t=1" }],
    });

    const peek = await callTool(client, "read_email", { emailId: lunch.id, markAsRead: false });
    expect(peek.body).toMatchObject({ id: lunch.id, isRead: false, text: "Shall we meet at noon?\n" });
    expect(peek.body).not.toHaveProperty("bodyHtml");
    const read = await callTool(client, "read_email", { emailId: code.id });
    expect(read.body).toMatchObject({ id: code.id, isRead: true, codes: ["482913"] });
    const [attachment] = read.body.attachments;
    expect(
      (await callTool(client, "list_emails", { unreadOnly: true })).body.data.map((e: { id: string }) => e.id),
    ).toEqual([lunch.id]);

    const file = await callTool(client, "get_attachment", { emailId: code.id, attachmentId: attachment.id });
    const resource = file.reply.content[0]?.resource;
    expect(resource).toEqual({
      uri: `https://mail.example.net/agents/${agent.id}/emails/${code.id}/attachments/${attachment.id}`,
      mimeType: "application/pdf",
      blob: pdf.toString("base64"),
    });
  });

  test("wait_for_email: null when nothing came in time, the email when it arrives", async () => {
    expect((await callTool(client, "wait_for_email", { timeoutSeconds: 0 })).body).toBeNull();
    const waiting = callTool(client, "wait_for_email", { subject: "arrives while waiting", timeoutSeconds: 20 });
    await deliver(agent, { subject: "This arrives while waiting", text: "Hello" });
    expect((await waiting).body).toMatchObject({ subject: "This arrives while waiting", text: "Hello\n" });
  });

  test("move and delete: to a folder, to the trash, for good", async () => {
    const arriving = callTool(client, "wait_for_email", { subject: "filed away", timeoutSeconds: 20 });
    await deliver(agent, { subject: "To be filed away", text: "x" });
    const email = (await arriving).body;
    expect((await callTool(client, "move_email", { emailId: email.id, folder: "receipts" })).body.folder).toBe(
      "receipts",
    );
    expect((await callTool(client, "list_emails", { folder: "receipts" })).body.total).toBe(1);
    expect((await callTool(client, "delete_email", { emailId: email.id })).body.success).toBe(true);
    expect((await callTool(client, "list_emails", { folder: "trash" })).body.data[0].id).toBe(email.id);
    await callTool(client, "delete_email", { emailId: email.id, permanent: true });
    const gone = await callTool(client, "read_email", { emailId: email.id });
    expect(gone.isError).toBe(true);
    expect(gone.body).toMatchObject({ error: "Not Found", statusCode: 404 });
  });

  test("send (once per idempotency key), reply, forward, list_sent, through the SMTP server", async () => {
    const before = provider.deliveries.length;
    const message = { to: ["pat@elsewhere.example"], subject: "Report", text: "Attached.", idempotencyKey: "r-1" };
    // A retry after the answer was lost; a retry while the first is under way is a 409 (see sending tests).
    const first = await callTool(client, "send_email", message);
    const again = await callTool(client, "send_email", message);
    expect(first.body).toMatchObject({ id: expect.any(String), to: ["pat@elsewhere.example"], subject: "Report" });
    expect(again.body.id).toBe(first.body.id);

    const inbox = (await callTool(client, "search_emails", { query: "lunch" })).body.data[0];
    const reply = await callTool(client, "reply_to_email", { emailId: inbox.id, text: "Noon works." });
    expect(reply.body).toMatchObject({ to: ["jordan@sender.example"], subject: "Re: Lunch on Friday" });
    expect(reply.body.threadId).toBe(inbox.threadId);
    const forward = await callTool(client, "forward_email", { emailId: inbox.id, to: ["sam@elsewhere.example"] });
    expect(forward.body).toMatchObject({ to: ["sam@elsewhere.example"], subject: "Fwd: Lunch on Friday" });

    const sent = provider.deliveries.slice(before);
    expect(sent.map((delivery) => delivery.parsed.subject)).toEqual([
      "Report",
      "Re: Lunch on Friday",
      "Fwd: Lunch on Friday",
    ]);
    expect(sent[1]?.parsed.inReplyTo).toBeTruthy();
    const listed = await callTool(client, "list_sent", { limit: 3 });
    expect(listed.body.data.map((email: { id: string }) => email.id)).toEqual([
      forward.body.id,
      reply.body.id,
      first.body.id,
    ]);
  });

  test("as REST takes them: one address as a string, a limit above 100 given 100; recipients come back as a list", async () => {
    const sent = await callTool(client, "send_email", { to: "lee@elsewhere.example", subject: "One", text: "x" });
    expect(sent).toMatchObject({
      isError: false,
      body: { to: ["lee@elsewhere.example"], threadId: expect.any(String) },
    });
    const inbox = (await callTool(client, "list_emails", { limit: 1000 })).body;
    expect(inbox).toMatchObject({ limit: 100 });
    const forward = await callTool(client, "forward_email", { emailId: inbox.data[0].id, to: "kim@elsewhere.example" });
    expect(forward.body.to).toEqual(["kim@elsewhere.example"]);
    const many = await callTool(client, "send_email", {
      to: ["a@elsewhere.example", "b@elsewhere.example"],
      cc: "c@elsewhere.example",
      subject: "Two",
      text: "x",
    });
    expect(many.body.to).toEqual(["a@elsewhere.example", "b@elsewhere.example"]);
    const listed = (await callTool(client, "list_sent", { limit: 1000 })).body;
    expect(listed.limit).toBe(100);
    expect(listed.data[0].to).toEqual(["a@elsewhere.example", "b@elsewhere.example"]);
  });

  test("bad arguments are tool errors, never a crash", async () => {
    const unknown = await callTool(client, "read_email", { emailId: "no-such-email" });
    expect(unknown).toMatchObject({ isError: true, body: { error: "Not Found", statusCode: 404 } });
    const wrongType = await callTool(client, "list_emails", { limit: "ten", unreadOnly: "yes" });
    expect(wrongType).toMatchObject({ isError: true, body: { error: "Bad Request", statusCode: 400 } });
    expect(wrongType.body.message).toMatch(/^Invalid arguments: /);
    for (const name of ["limit", "unreadOnly"]) expect(wrongType.body.message).toContain(`${name}: `);
    const missing = await callTool(client, "read_email", {});
    expect(missing).toMatchObject({ isError: true, body: { error: "Bad Request", statusCode: 400 } });
    expect(missing.body.message).toContain("emailId");
    const noRecipient = await callTool(client, "send_email", { to: ["not an address"], subject: "x", text: "y" });
    expect(noRecipient).toMatchObject({ isError: true, body: { error: "Bad Request", statusCode: 400 } });
    expect(svc.logs.filter((line) => line.level === "error")).toEqual([]);
  });
});
