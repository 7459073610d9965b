import { McpServer } from "@modelcontextprotocol/sdk/server/mcp.js";
import { WebStandardStreamableHTTPServerTransport } from "@modelcontextprotocol/sdk/server/webStandardStreamableHttp.js";
import type { CallToolResult } from "@modelcontextprotocol/sdk/types.js";
import { asServiceError, ServiceError } from "../errors.ts";
import { requestFault } from "../log.ts";
import type { AgentRecord } from "../mailbox/records.ts";
import type { Services } from "../mailbox/services.ts";
import type { RouteAnswer, RunRoute } from "../rest/router.ts";
import { type RequestFacts, requestFacts } from "../schema/context.ts";
import { type Tool, tools } from "./tools.ts";

// /mcp: the Model Context Protocol over Streamable HTTP, for the agent whose
// key the request carries. Each POST gets a server of its own and answers in
// JSON (no session, no stream), so any instance can answer any call and
// nothing outlives the request.

const INSTRUCTIONS =
  "Your own email mailbox. get_agent tells your address. Mail that arrives is in list_emails and search_emails; " +
  "read_email reads one whole; wait_for_email waits for the next. send_email, reply_to_email and forward_email send " +
  "from your address. Errors carry the service's code and message.";

/** The tool's answer as the model reads it: JSON text, or the attachment as an embedded resource. */
function resultOf(tool: Tool, answer: RouteAnswer, args: Record<string, unknown>, where: string): CallToolResult {
  if ("file" in answer) {
    const { record, content } = answer.file;
    const uri = `${where}/emails/${record.emailId}/attachments/${record.id}`;
    const resource = { uri, mimeType: record.contentType };
    const textual = /^text\/|^application\/(json|xml)/.test(record.contentType);
    return {
      content: [
        {
          type: "resource",
          resource: textual
            ? { ...resource, text: content.toString("utf8") }
            : { ...resource, blob: content.toString("base64") },
        },
      ],
    };
  }
  const body = tool.answer ? tool.answer(answer.body, args as never) : answer.body;
  return { content: [{ type: "text", text: JSON.stringify(body) }] };
}

/** Runs a tool's route for the agent; a refusal is a tool error with the spec's body. */
async function callTool(tool: Tool, args: Record<string, unknown>, agent: AgentRecord, context: ToolContext) {
  const { route, request } = tool.call(args as never, agent.id);
  try {
    const answer = await context.run(route, request, context.facts);
    return resultOf(tool, answer, args, `${context.services.config.publicUrl}/agents/${agent.id}`);
  } catch (error) {
    const refusal = asServiceError(error, requestFault(context.services.log));
    return { isError: true, content: [{ type: "text" as const, text: JSON.stringify(refusal.toBody()) }] };
  }
}

interface ToolContext {
  services: Services;
  run: RunRoute;
  facts: RequestFacts;
}

function mcpServer(agent: AgentRecord, context: ToolContext): McpServer {
  const server = new McpServer({ name: "pigeonhole", version: "1" }, { instructions: INSTRUCTIONS });
  for (const tool of tools) {
    const annotations = { readOnlyHint: tool.readOnly ?? false, openWorldHint: !tool.readOnly };
    const config = { title: tool.title, description: tool.description, inputSchema: tool.input, annotations };
    server.registerTool(tool.name, config, (args: Record<string, unknown>) => callTool(tool, args, agent, context));
  }
  return server;
}

/** Messages one POST may carry as a JSON-RPC batch; protocol versions since 2025-06-18 send none. */
export const MAX_BATCH = 10;

/** The POST's JSON-RPC message or batch, refused when it is not JSON or the batch is too long. */
async function messagesOf(request: Request): Promise<unknown> {
  let body: unknown;
  try {
    body = JSON.parse(await request.text());
  } catch {
    throw new ServiceError("BAD_REQUEST", "Request body is not valid JSON");
  }
  if (Array.isArray(body) && body.length > MAX_BATCH) {
    throw new ServiceError("BAD_REQUEST", `A JSON-RPC batch may hold at most ${MAX_BATCH} messages`);
  }
  return body;
}

/** Answers one POST /mcp for the agent the request's key names (checked before). */
export async function answerMcp(
  request: Request,
  agent: AgentRecord,
  context: Omit<ToolContext, "facts">,
): Promise<Response> {
  // One budget for the whole POST: a batch of calls answers no more than one call may.
  const facts = requestFacts(request.headers.get("authorization"), () => request.signal);
  const server = mcpServer(agent, { ...context, facts });
  const transport = new WebStandardStreamableHTTPServerTransport({ enableJsonResponse: true });
  const parsedBody = await messagesOf(request);
  await server.connect(transport);
  try {
    return await transport.handleRequest(request, { parsedBody });
  } finally {
    await server.close();
  }
}
