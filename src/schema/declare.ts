import type { ResultOf, TadaDocumentNode, VariablesOf } from "gql.tada";
import type { SenderLabel } from "../mailbox/screening/fence.ts";

// What an operation is to the doors other than GraphQL: its REST binding
// (method, path, who may call it, tag, the refusals it can answer, summary),
// its MCP tool, and how its result becomes the spec's body. Each area
// declares its operations in a sibling module (agents.rest.ts beside
// agents.ts); the REST router, the OpenAPI document and MCP read them. A
// declaration's variables come from the request by name: path parameters,
// then query or body fields (an input object variable takes its fields from
// the query or body), so only a part named otherwise is written out.

/** A REST request as read off the wire. */
export interface RestRequest {
  params: Record<string, string>;
  query: Record<string, string>;
  body: Record<string, unknown>;
  /** Request headers, by lower-case name. */
  headers: Record<string, string>;
}

/** An attachment whose bytes a route answers with. */
export interface FileRef {
  agentId: string;
  emailId: string;
  attachmentId: string;
  /** Who sent its email, as a fence labels the email's text: a model reads a text file inside the same fence. */
  label: SenderLabel;
}

/** Who may call: anyone, an agent by its API key, a person by a review link's token, the operator by ADMIN_TOKEN. */
export type Access = "open" | "agent" | "reviewer" | "operator";

/** The areas of the API, as the reference groups them; the operator's are not shown to agents. */
export type Tag =
  | "agents"
  | "verification"
  | "review"
  | "sending"
  | "emails"
  | "threads"
  | "events"
  | "webhooks"
  | "keys"
  | "pods"
  | "admin";

/**
 * Refusals a route answers beyond those every route may (400, 500, 503),
 * those its access brings (401 and 429 with a key or token) and 413 for a
 * route that reads a body.
 */
export type Refusal = 403 | 404 | 409 | 410 | 422 | 429;

/**
 * The MCP tool an operation is, by the name and words the model reads. Its
 * arguments are the route's parameters (the agent's id from the key), read
 * by the same coercion; its answer is the route's. It is read-only when the
 * operation is a query.
 */
export interface McpTool {
  name: string;
  title: string;
  description: string;
  /** Parameters it sets itself, not shown to the model (read_email marks read; every read of mail is fenced). */
  fills?: Readonly<Record<string, unknown>>;
  /** Tools that run the same operation on fewer arguments or give part of its answer. */
  variants?: McpVariant[];
}

/** Another tool on the same operation: a narrower view the model looks for by name. */
export interface McpVariant extends Omit<McpTool, "variants"> {
  /** The route's parameters it takes; all of them unless given. */
  takes?: readonly string[];
  /** The fields of the route's answer it gives; all of them unless given. */
  keeps?: readonly string[];
}

// biome-ignore lint/suspicious/noExplicitAny: any operation of the schema
export type Operation = TadaDocumentNode<any, any>;

/** A variable carried by a part named otherwise: another path, query or body name, or a header. */
export type Rename = string | { header: string };

export interface Route<D extends Operation = Operation> {
  method: "GET" | "POST" | "PUT" | "PATCH" | "DELETE";
  path: string;
  access: Access;
  tag: Tag;
  /** One sentence for the reference where REST's words differ from its field's description (summaryOf); no two routes share one. */
  summary?: string;
  refuses?: Refusal[];
  operation: D;
  /** The variables whose request part has another name; every other comes by its own. */
  renames?: { [K in keyof VariablesOf<D>]?: Rename };
  /** Reads a JSON object body: the variables not in the path come from it, else from the query. */
  body?: true;
  /** Largest body accepted; 1 MiB unless given. */
  maxBodyBytes?: number;
  status?: 201;
  /** Answers 202 Accepted instead when this holds of the operation's data: the request waits (a scheduled or held send). */
  acceptedWhen?: (data: ResultOf<D>) => boolean;
  /** The body is text (a zone file), answered as text/plain. */
  text?: true;
  /** 204 No Content when the body would be null. */
  noContentWhenNull?: true;
  /** The spec's body from the operation's data, where answerOf's is not it. */
  respond?: (data: ResultOf<D>, request: RestRequest) => unknown;
  /** Answers with an attachment's bytes rather than JSON: the one the operation found. */
  file?: (data: ResultOf<D>, request: RestRequest) => FileRef | null;
  mcp?: McpTool;
}

export const DEFAULT_BODY_LIMIT = 1024 * 1024;
export const SEND_BODY_LIMIT = 10 * 1024 * 1024;

/** Who calls an agent's own route and what it may refuse: another agent's id or one not verified (403), no such item (404). */
export const ownAgent = (tag: Tag) => ({ access: "agent", tag, refuses: [403, 404] }) as const satisfies Partial<Route>;

/** Who calls a pod's route and what it may refuse: a key of another pod or an agent's (403), no such item (404). */
export const podRoute = { access: "agent", tag: "pods", refuses: [403, 404] } as const satisfies Partial<Route>;

/** A declaration, typed by its operation: the compiler checks its renames and answers against the schema. */
export const declare = <D extends Operation>(route: Route<D>) => route as unknown as Route;

/**
 * The spec's body from an operation's data: what the route's respond makes of
 * it, else the one root field's value (for the operator's fields, grouped
 * under \`admin\`, the one field's value within it).
 */
export function answerOf(route: Route, data: Record<string, unknown>, request: RestRequest): unknown {
  if (route.respond) return route.respond(data as never, request);
  const [name, value] = Object.entries(data)[0] ?? [];
  return name === "admin" && typeof value === "object" && value !== null ? Object.values(value)[0] : value;
}

/** The spec's "present only if set" fields are left out rather than null. */
export function withoutNulls<T extends object>(value: T): Partial<T> {
  const given: Record<string, unknown> = {};
  for (const key in value) if (value[key] !== null) given[key] = value[key];
  return given as Partial<T>;
}
