import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";

// The MCP SDK's own client, as an agent framework connects it: to /mcp, with
// an API key or without one.

export async function connectMcp(serviceUrl: string, key?: string): Promise<Client> {
  const headers: Record<string, string> = key ? { authorization: `Bearer ${key}` } : {};
  const transport = new StreamableHTTPClientTransport(new URL(`${serviceUrl}/mcp`), { requestInit: { headers } });
  const client = new Client({ name: "pigeonhole-test", version: "1" });
  await client.connect(transport);
  return client;
}

export interface ToolReply {
  isError?: boolean;
  content: {
    type: string;
    text?: string;
    resource?: { uri: string; mimeType?: string; blob?: string; text?: string };
  }[];
}

/** A tool's answer, read as the JSON it carries, and the time it ends with. */
export async function callTool(client: Client, name: string, args: Record<string, unknown> = {}) {
  const reply = (await client.callTool({ name, arguments: args })) as ToolReply;
  const text = reply.content[0]?.text;
  const { now } = JSON.parse(reply.content.at(-1)?.text ?? "{}");
  return { isError: reply.isError ?? false, body: text === undefined ? undefined : JSON.parse(text), now, reply };
}
