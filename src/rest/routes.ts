// The declared operations under the names src/mcp/tools.ts imports; this
// file goes when MCP reads src/schema/operations.ts itself.
export type { RestRequest, Route } from "../schema/declare.ts";
export { operations as routes } from "../schema/operations.ts";
