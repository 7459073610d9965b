import {
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  getNamedType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isObjectType,
  isUnionType,
  Kind,
  type SelectionSetNode,
} from "graphql";
import type { Config } from "../config.ts";
import { ERROR_BODY_SCHEMA, statusWords } from "../errors.ts";
import { type Access, answerOf, type Route, type Tag } from "../schema/declare.ts";
import { publicOperations } from "../schema/operations.ts";
import { needed } from "../schema/scopes.ts";
import { operationOf, permissionOfRoute, summaryOf } from "./operation.ts";
import { type Place, partsOf } from "./request.ts";

// The OpenAPI 3.1 description of the REST layer, generated from the
// operations' declarations: security, tag, statuses and summary as each
// declares them; parameters and body from where each variable comes from
// (request.ts) and its GraphQL type; the answer by running the route's
// respond function on sample data shaped like the operation's result.
// Nothing is written twice.

type Schema = Record<string, unknown>;

const SCALARS: Record<string, Schema> = {
  String: { type: "string" },
  ID: { type: "string" },
  Int: { type: "integer" },
  Float: { type: "number" },
  Boolean: { type: "boolean" },
  Timestamp: { type: "integer", description: "Milliseconds since the Unix epoch" },
  JSONObject: { type: "object" },
};

const orNull = (schema: Schema): Schema => ({ anyOf: [schema, { type: "null" }] });

function namedSchema(type: GraphQLNamedType): Schema {
  if (isEnumType(type)) return { type: "string", enum: type.getValues().map((v) => v.value) };
  return SCALARS[type.name] ?? {};
}

/** Whether an example is of the schema's own type. */
function fits(example: unknown, schema: Schema): boolean {
  if (schema.type === "integer") return Number.isInteger(example);
  if (schema.type === "array") return Array.isArray(example);
  return schema.type !== undefined && schema.type === typeof example;
}

/** A part with its description, and an example when one of its type is known by its name. */
function described(schema: Schema, name: string, description: string | null | undefined): Schema {
  const example = EXAMPLES[name];
  return {
    ...schema,
    ...(description ? { description } : {}),
    ...(example !== undefined && fits(example, schema) ? { examples: [example] } : {}),
  };
}

function inputSchema(type: GraphQLInputType): Schema {
  if (isNonNullType(type)) return inputSchema(type.ofType);
  if (isListType(type)) return { type: "array", items: inputSchema(type.ofType) };
  if (isInputObjectType(type)) {
    const fields = Object.values(type.getFields());
    return {
      type: "object",
      properties: Object.fromEntries(
        fields.map((f) => [f.name, described(inputSchema(f.type), f.name, f.description)]),
      ),
      required: fields.filter((f) => isNonNullType(f.type)).map((f) => f.name),
    };
  }
  return namedSchema(type);
}

// ---- Requests: each variable's part, from the declaration.

interface Landing {
  schema: Schema;
  required: boolean;
}

const MARK = "\u0000probe:";

/** A request whose every query, body and header value is a marker naming itself: an answer that repeats one is known by it. */
function probeRequest() {
  const part = (where: string) =>
    new Proxy({} as Record<string, string>, {
      get: (_, name) => (typeof name === "string" ? `${MARK}${where}:${name}` : undefined),
    });
  return { params: part("path"), query: part("query"), body: part("body"), headers: part("header") };
}

/** A part's schema; in a body, GraphQL takes one value where a list is asked for. */
function partSchema(type: GraphQLInputType, place: Place, name: string, description: string | null | undefined) {
  const inner = isNonNullType(type) ? type.ofType : type;
  const schema =
    place === "body" && isListType(inner)
      ? { oneOf: [inputSchema(inner.ofType), inputSchema(inner)] }
      : inputSchema(type);
  return described(schema, name, description);
}

/** Each part of a route's request by place and name ("body:to"), with its schema. */
function requestParts(route: Route, schema: GraphQLSchema): Map<string, Landing> {
  const found = new Map<string, Landing>();
  for (const part of partsOf(route, schema)) {
    const named = getNamedType(part.type);
    if (part.spread && isInputObjectType(named)) {
      for (const field of Object.values(named.getFields())) {
        found.set(`${part.place}:${field.name}`, {
          schema: partSchema(field.type, part.place, field.name, field.description),
          required: isNonNullType(field.type) && isNonNullType(part.type),
        });
      }
    } else if (part.place !== "path") {
      found.set(`${part.place}:${part.name}`, {
        schema: { ...partSchema(part.type, part.place, part.name, part.description), ...part.bounds },
        required: isNonNullType(part.type),
      });
    }
  }
  return found;
}

// ---- Answers: sample data shaped like the result, each part known by its schema.

class Sample {
  readonly schemas = new Map<unknown, Schema>();
  /** What the schema says of each field's value. */
  readonly descriptions = new Map<unknown, string>();
  /** Parts that may be null, and so may be left out of an object made of them. */
  readonly nullable = new Set<unknown>();
  #next = 0;

  constructor(
    private readonly schema: GraphQLSchema,
    private readonly fragments: Map<string, FragmentDefinitionNode>,
    /** Of an object's nullable object fields, which one is there (the others null): answers may pick one. */
    private readonly present: number,
    /** What the probe request's parts are, for an answer that repeats one (send answers `to` as given). */
    private readonly request: Map<string, Landing>,
  ) {}

  of(type: GraphQLOutputType, selection: SelectionSetNode | undefined): unknown {
    const nullable = !isNonNullType(type);
    const inner = isNonNullType(type) ? type.ofType : type;
    let value: unknown;
    let schema: Schema;
    if (isListType(inner)) {
      const item = this.of(inner.ofType, selection);
      // Two values in a list of scalars, so that one joined into a string is known for a string.
      value = isObjectType(getNamedType(inner.ofType)) ? [item] : [item, this.of(inner.ofType, selection)];
      schema = { type: "array", items: this.schemaOf(item) };
    } else if (isUnionType(inner)) {
      // One member per sample: merged, the answer documents every member's fields.
      const member = inner.getTypes()[this.present % inner.getTypes().length] as GraphQLObjectType;
      value = Object.fromEntries(this.fields(member, selection));
      schema = objectSchema(this.fields(member, selection).map(([name, v]) => this.property(name, v)));
    } else if (isObjectType(inner)) {
      const all = this.fields(inner, selection);
      const fields = inner.extensions.alternatives ? this.oneOf(all) : all;
      value = Object.fromEntries(fields.map(([name, v]) => [name, v]));
      schema = objectSchema(fields.map(([name, v]) => this.property(name, v)));
    } else {
      value = `${MARK}out:${this.#next++}`;
      schema = namedSchema(getNamedType(inner));
    }
    if (nullable) this.nullable.add(value);
    this.schemas.set(value, nullable ? orNull(schema) : schema);
    return value;
  }

  /** Of a type's nullable objects that are alternatives (a thread message's email or sent record), the chosen one only. */
  private oneOf(fields: [string, unknown][]): [string, unknown][] {
    const optional = fields.filter(([, v]) => this.nullable.has(v) && typeof v === "object").map(([name]) => name);
    if (optional.length < 2) return fields;
    const chosen = optional[this.present % optional.length];
    return fields.map(([name, v]) => [name, optional.includes(name) && name !== chosen ? null : v]);
  }

  private fields(type: GraphQLObjectType, selection: SelectionSetNode | undefined): [string, unknown][] {
    return this.fieldNodes(selection, type.name).map((node) => {
      if (node.name.value === "__typename") return [node.alias?.value ?? "__typename", type.name];
      const field = type.getFields()[node.name.value];
      if (!field) throw new Error(`${type.name} has no field ${node.name.value}`);
      const value = this.of(field.type, node.selectionSet);
      if (field.description) this.descriptions.set(value, field.description);
      // A field behind @include or @skip is in some answers only.
      if (node.directives?.length) this.nullable.add(value);
      return [node.alias?.value ?? node.name.value, value];
    });
  }

  /**
   * The fields selected on a type: a fragment on another member of a union is not its. A fragment behind @include
   * or @skip gives its fields the directive, as if each carried it.
   */
  private fieldNodes(selection: SelectionSetNode | undefined, typeName: string): FieldNode[] {
    return (selection?.selections ?? []).flatMap((s) => {
      if (s.kind === Kind.FIELD) return [s];
      const fragment = s.kind === Kind.INLINE_FRAGMENT ? s : this.fragments.get(s.name.value);
      const on = fragment?.typeCondition?.name.value;
      if (!fragment || !this.isOf(on, typeName)) return [];
      const nodes = this.fieldNodes(fragment.selectionSet, typeName);
      const switched = s.directives ?? [];
      return switched.length === 0 ? nodes : nodes.map((node) => ({ ...node, directives: [...switched] }));
    });
  }

  /** A fragment's type condition holds for the type: none, the type itself, or a union or interface it is part of. */
  private isOf(condition: string | undefined, typeName: string): boolean {
    if (condition === undefined || condition === typeName) return true;
    const abstract = this.schema.getType(condition);
    const type = this.schema.getType(typeName);
    return isAbstractType(abstract) && isObjectType(type) && this.schema.isSubType(abstract, type);
  }

  /** The schema of what a respond function made of the sample. */
  schemaOf(value: unknown): Schema {
    const known = this.schemas.get(value);
    if (known) return known;
    const given = typeof value === "string" ? this.request.get(value.slice(MARK.length)) : undefined;
    if (given) return given.schema;
    if (value === null || value === undefined) return { type: "null" };
    if (Array.isArray(value)) return { type: "array", items: value.length ? this.schemaOf(value[0]) : {} };
    if (typeof value === "object")
      return objectSchema(Object.entries(value).map(([name, v]) => this.property(name, v)));
    return { type: typeof value };
  }

  /** A field of an answer: its schema, described, and whether it may be left out. */
  private property(name: string, value: unknown): [string, Schema, boolean] {
    return [name, described(this.schemaOf(value), name, this.descriptions.get(value)), this.nullable.has(value)];
  }

  static for(route: Route, schema: GraphQLSchema, request: Map<string, Landing>, present: number): Sample {
    const fragments = new Map(
      (route.operation as DocumentNode).definitions
        .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
        .map((d) => [d.name.value, d]),
    );
    return new Sample(schema, fragments, present, request);
  }

  root(route: Route): Record<string, unknown> {
    const operation = operationOf(route);
    const rootType = operation.operation === "mutation" ? this.schema.getMutationType() : this.schema.getQueryType();
    if (!rootType) throw new Error("the schema has no root type for this operation");
    return Object.fromEntries(this.fields(rootType, operation.selectionSet));
  }
}

/** Nullable fields may also be left out: the spec's "present only if set". */
function objectSchema(fields: [string, Schema, boolean][]): Schema {
  return {
    type: "object",
    properties: Object.fromEntries(fields.map(([name, schema]) => [name, schema])),
    required: fields.filter(([, , nullable]) => !nullable).map(([name]) => name),
  };
}

/** What one sample's answer is; `present` picks which of a message's email or sent record is there. */
function answerVariant(route: Route, schema: GraphQLSchema, request: Map<string, Landing>, present: number): Schema {
  const sample = Sample.for(route, schema, request, present);
  const data = sample.root(route);
  const answer = answerOf(route, data as Record<string, unknown>, probeRequest() as never);
  // An answer that may be null is a 404 in REST: the 200 carries the rest.
  const found = sample.schemaOf(answer);
  return (found.anyOf as Schema[] | undefined)?.[0] ?? found;
}

/** Two descriptions of one answer as one: objects field by field (required where both require), else either. */
function merged(a: Schema, b: Schema): Schema {
  if (JSON.stringify(a) === JSON.stringify(b)) return a;
  if (a.type === "array" && b.type === "array")
    return { type: "array", items: merged(a.items as Schema, b.items as Schema) };
  if (a.type === "object" && b.type === "object" && a.properties && b.properties) {
    const [pa, pb] = [a.properties as Record<string, Schema>, b.properties as Record<string, Schema>];
    const names = [...new Set([...Object.keys(pa), ...Object.keys(pb)])];
    const required = (a.required as string[]).filter((name) => (b.required as string[]).includes(name));
    const property = (name: string) => (pa[name] && pb[name] ? merged(pa[name], pb[name]) : (pa[name] ?? pb[name]));
    return { type: "object", properties: Object.fromEntries(names.map((name) => [name, property(name)])), required };
  }
  return { anyOf: [a, b] };
}

function answerSchema(route: Route, schema: GraphQLSchema, request: Map<string, Landing>): Schema {
  return merged(answerVariant(route, schema, request, 0), answerVariant(route, schema, request, 1));
}

// ---- The document.

/** Examples of the parts and fields clients meet most, by name. */
const EXAMPLES: Record<string, unknown> = {
  agentId: "scout",
  emailId: "0b6d3c1e-4f7a-4d8e-9a51-2f1c7e9b8d20",
  threadId: "5f2e9a4c-1b3d-4e6f-8a7b-9c0d1e2f3a4b",
  sentId: "8c7b6a59-4e3d-4c2b-9a18-f7e6d5c4b3a2",
  webhookId: "wh_3kQ9zT2mR8",
  name: "Scout",
  email: "scout@mail.example",
  apiKey: "ph_6fY2kQ9zT2mR8vB1xN4cL7pJ0sD3gH5wE8uA2iO9yK1",
  verifyUrl: "https://mail.example.net/verify/pv_Yq3T8mR2kQ9zB1xN4cL7pJ0sD3gH5wE8uA2iO9yK1",
  verificationCode: "PIGEON-7KQ2ZD",
  tweetUrl: "https://x.com/you/status/1795430400000",
  socialUsername: "you",
  to: "pat@example.com",
  from: "jordan@sender.example",
  replyTo: "replies@example.com",
  subject: "Quarterly numbers",
  text: "Hello Pat,\n\nThe numbers are attached.\n\nScout",
  html: "<p>Hello Pat,</p><p>The numbers are attached.</p><p>Scout</p>",
  bodyText: "Hello Pat,\n\nThe numbers are attached.\n\nScout",
  folder: "inbox",
  q: "invoice march",
  createdAt: 1795430400000,
  sentAt: 1795430400000,
  receivedAt: 1795430400000,
  expiresAt: 1795431300000,
  verifiedAt: 1795430400000,
  limit: 50,
  offset: 0,
  url: "https://agent.example/hooks/mail",
  address: "pat@example.com",
  "idempotency-key": "send-2026-11-26-report",
};

/** What each access needs: a key (or ADMIN_TOKEN) brings 401 and 429; a link's token stands in for a key. */
const KEYED: Record<Access, boolean> = { open: false, agent: true, reviewer: false, operator: true };

/** The statuses a route may refuse with: every route on input, on the server or on time; then its own. */
function errorStatuses(route: Route): string[] {
  const statuses: number[] = [400, 500, 503, ...(route.refuses ?? [])];
  if (KEYED[route.access]) statuses.push(401, 429);
  if (route.body) statuses.push(413);
  return [...new Set(statuses)].sort((a, b) => a - b).map(String);
}

/**
 * An agent's route says the permissions its key needs (x-permission: one, or several each needed, comma-separated;
 * "every": every permission and no limit).
 */
function permissionNote(route: Route, schema: GraphQLSchema): { "x-permission"?: string } {
  if (route.access !== "agent") return {};
  const permission = permissionOfRoute(route, schema);
  if (!permission) return {};
  return { "x-permission": permission === "every" ? permission : needed(permission).join(", ") };
}

/** The areas of the API, in the order the reference shows them; the operator's are not in it. */
const TAGS: Record<Exclude<Tag, "admin">, string> = {
  agents: "Registering an agent, reading it, its key and its sender lists.",
  verification: "Proving a human owner by a public post on X.",
  review: "A person's decision on a held message, by its review link (no API key): read it, approve or reject it.",
  sending:
    "Sending, replying and forwarding, drafts, what was sent and what became of it (delivery reports), and the addresses mail no longer goes to.",
  emails: "Received mail in folders: list, search, read, move, delete, attachments.",
  threads: "Conversations: received and sent messages linked by Message-ID.",
  events: "Hearing of mail as it arrives: the event log and its long poll.",
  webhooks: "Events delivered by signed POSTs to the agent's URL.",
  keys: "The agent's API keys: each with permissions (read, send, manage, events), and an expiry it cannot lift.",
  pods: "A pod's keys and agents, by a key of the pod: permissions (read, send, manage, events, agents), some of its agents, an expiry.",
};

const openApiPath = (path: string) => path.replace(/:(\w+)/g, "{$1}");

function operationFor(route: Route, schema: GraphQLSchema): Schema {
  const parts = requestParts(route, schema);
  const byPlace = (place: string) =>
    [...parts]
      .filter(([key]) => key.startsWith(`${place}:`))
      .map(([key, landing]) => [key.slice(place.length + 1), landing] as const);
  const pathNames = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1] as string);
  const parameters = [
    ...pathNames.map((name) => ({ name, in: "path", required: true, schema: { type: "string" } })),
    ...byPlace("query").map(([name, landing]) => ({
      name,
      in: "query",
      description: landing.schema.description,
      required: landing.required,
      schema: queryParamSchema(landing.schema),
    })),
    ...byPlace("header").map(([name, landing]) => ({
      name: headerName(name),
      in: "header",
      description: landing.schema.description,
      required: false,
      schema: landing.schema,
    })),
  ];
  const body = byPlace("body");
  const operation = operationOf(route);
  const success = route.file
    ? {
        description: "The attachment's bytes",
        content: {
          "application/octet-stream": { schema: { type: "string", contentMediaType: "application/octet-stream" } },
        },
      }
    : { description: "Succeeded", content: { "application/json": { schema: answerSchema(route, schema, parts) } } };
  return {
    operationId: operation.name?.value,
    tags: [route.tag],
    summary: summaryOf(route, schema),
    ...permissionNote(route, schema),
    ...(KEYED[route.access] ? {} : { security: [] }),
    ...(parameters.length ? { parameters } : {}),
    ...(route.body
      ? {
          requestBody: {
            required: true,
            content: {
              "application/json": {
                schema: {
                  type: "object",
                  properties: Object.fromEntries(body.map(([name, landing]) => [name, landing.schema])),
                  required: body.filter(([, landing]) => landing.required).map(([name]) => name),
                },
              },
            },
          },
        }
      : {}),
    responses: {
      [String(route.status ?? 200)]: success,
      ...(route.acceptedWhen
        ? { "202": { ...success, description: "Accepted: it waits, scheduled or for approval" } }
        : {}),
      ...(route.noContentWhenNull ? { "204": { description: "Nothing came in time" } } : {}),
      ...Object.fromEntries(
        errorStatuses(route).map((status) => [
          status,
          {
            description: statusWords(Number(status)),
            content: { "application/json": { schema: { $ref: "#/components/schemas/Error" } } },
          },
        ]),
      ),
    },
  };
}

/** Query strings carry text: numbers and flags as text, lists comma-separated. */
function queryParamSchema(schema: Schema): Schema {
  return schema.type === "array" ? { type: "string", description: "comma-separated" } : schema;
}

const headerName = (name: string) => name.replace(/(^|-)(\w)/g, (_, dash: string, c: string) => dash + c.toUpperCase());

export function openApiDocument(schema: GraphQLSchema, config: Pick<Config, "publicUrl">): Schema {
  const paths: Record<string, Schema> = {};
  for (const route of publicOperations) {
    const path = openApiPath(route.path);
    const operation = operationFor(route, schema);
    paths[path] = { ...paths[path], [route.method.toLowerCase()]: operation };
  }
  return {
    openapi: "3.1.0",
    info: {
      title: "Pigeonhole API",
      version: "1.0.0",
      description:
        "Mailboxes for AI agents: register, verify a human owner by a public post on X, receive mail into folders and send mail. GraphQL at /graphql carries the same operations.",
    },
    servers: [{ url: config.publicUrl }],
    security: [{ apiKey: [] }],
    tags: Object.entries(TAGS).map(([name, description]) => ({ name, description })),
    paths,
    components: {
      securitySchemes: { apiKey: { type: "http", scheme: "bearer", description: "The agent's API key" } },
      schemas: { Error: ERROR_BODY_SCHEMA },
    },
  };
}
