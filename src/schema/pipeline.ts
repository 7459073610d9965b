import { useGraphQlJit } from "@envelop/graphql-jit";
import { filterSchema, pruneSchema } from "@graphql-tools/utils";
import { complexityFromQuery } from "@pothos/plugin-complexity";
import {
  BREAK,
  type DocumentNode,
  type ExecutionResult,
  GraphQLError,
  type GraphQLField,
  type GraphQLSchema,
  getNamedType,
  getOperationAST,
  isObjectType,
  Kind,
  TypeInfo,
  type VariableDefinitionNode,
  visit,
  visitWithTypeInfo,
} from "graphql";
import { createYoga, isAsyncIterable, type Plugin, type YogaServerInstance } from "graphql-yoga";
import { excerpt, ServiceError } from "../errors.ts";
import { requestFault } from "../log.ts";
import type { Services } from "../mailbox/services.ts";
import type { Instance } from "../services.ts";
import { type Context, createContext, type RequestFacts, requestFacts } from "./context.ts";
import { located, serviceErrorOf, toServiceError } from "./errors.ts";
import { cleanLiterals, jsonProblem } from "./input.ts";
import { documentLimits, LIMITS } from "./limits.ts";
import { Streams } from "./streams.ts";

/** What a caller of the pipeline passes in; Yoga's own requests bring the HTTP request instead. */
export interface ServerContext {
  request?: RequestFacts;
  /** The document costs at most the limit whatever its variables (preparedOperation). */
  costBounded?: boolean;
  /** The request's query and operationName, which Yoga's own check of the operation reads. */
  params?: GraphqlParams;
}

export type Graphql = YogaServerInstance<ServerContext, Context>;

export const badRequest = (message: string, at?: GraphQLError) =>
  located(new ServiceError("BAD_REQUEST", excerpt(message)), at);

/** GraphQL's own complaints about a document are what REST calls a bad request. */
const requestChecks: Plugin = {
  onParse:
    () =>
    ({ result, replaceParseResult }) => {
      if (result instanceof GraphQLError) replaceParseResult(badRequest(result.message, result));
      // The parser recurses: a value nested some thousand deep overflows the stack before the token limit.
      else if (result instanceof RangeError)
        replaceParseResult(badRequest("Syntax Error: the document nests too deeply"));
    },
  onParams: ({ params, setResult }) => {
    const problem = jsonProblem(params.variables ?? {}, "variables");
    if (problem) setResult({ errors: [badRequest(problem)] });
  },
  onValidate: ({ addValidationRule }) => {
    addValidationRule(cleanLiterals);
    return ({ result, setResult }) => {
      if (result.length > 0) setResult(result.map((error) => badRequest(error.message, error)));
    };
  },
};

/**
 * Validation kept per parsed document, which Yoga's parse cache hands back the
 * same for the same text: the schema and the rules never change while the
 * service runs. In place of Yoga's own validation cache, whose key is every
 * rule's name, joined at each request (some 3 % of a small query's CPU).
 * Before requestChecks, so that what is kept is GraphQL's own verdict.
 */
function keptValidation(): Plugin {
  const validated = new WeakMap<DocumentNode, readonly GraphQLError[]>();
  return {
    onValidate: ({ params: { documentAST }, setResult }) => {
      const kept = validated.get(documentAST);
      if (kept) return setResult(kept);
      return ({ result }) => {
        validated.set(documentAST, result as readonly GraphQLError[]);
      };
    },
  };
}

const introspections = new WeakMap<DocumentNode, boolean>();

/**
 * A document that only asks about the schema: what GraphiQL's explorer and typed-client generators send.
 * Decided once per document, which the parser's cache hands back the same.
 */
function isIntrospection(document: DocumentNode): boolean {
  let only = introspections.get(document);
  if (only === undefined) {
    const operations = document.definitions.filter((d) => d.kind === Kind.OPERATION_DEFINITION);
    only = operations.every((operation) =>
      operation.selectionSet.selections.every(
        (s) => s.kind === Kind.FIELD && ["__schema", "__type", "__typename"].includes(s.name.value),
      ),
    );
    introspections.set(document, only);
  }
  return only;
}

/**
 * Introspection shows an agent its own API: not the operator's `admin`
 * fields, nor the types only they reach. The operator's token sees all, as
 * does schema.graphql. Executed on graphql-js, which takes the schema given.
 */
function agentIntrospection(schema: GraphQLSchema): Plugin<Context> {
  // Made at the first agent's introspection, not at start: most instances' agents never ask.
  let agentView: GraphQLSchema | undefined;
  const agentViewOf = () =>
    (agentView ??= pruneSchema(filterSchema({ schema, rootFieldFilter: (_, name) => name !== "admin" })));
  return {
    // Not async: every other operation goes on without waiting a turn for a promise.
    onExecute({ args, executeFn, setExecuteFn }) {
      if (!isIntrospection(args.document)) return;
      return args.contextValue.operator().then(
        () => {},
        () => setExecuteFn((given) => executeFn({ ...given, schema: agentViewOf() })),
      );
    },
  };
}

function isSubscription(document: DocumentNode, operationName?: string | null): boolean {
  return getOperationAST(document, operationName)?.operation === "subscription";
}

/**
 * Fields that carry a Prisma selection for rows they hand on through an object
 * type of their own, not a model's (a thread's messages: `select` with
 * `nested(…, path)`). The Prisma plugin finds the rows beneath such a field by
 * the identity of graphql-js's path objects; graphql-jit builds those afresh
 * for every resolver, and there the plugin would read every row again. Read
 * once per schema from the plugin's metadata on the fields.
 */
function indirectFieldsOf(schema: GraphQLSchema): Set<GraphQLField<unknown, unknown>> {
  const fields = new Set<GraphQLField<unknown, unknown>>();
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const value = getNamedType(field.type);
      if (field.extensions.pothosPrismaSelect && isObjectType(value) && !value.extensions.pothosPrismaModel) {
        fields.add(field);
      }
    }
  }
  return fields;
}

/** Whether the document (its fragments included) selects a field that passes `test`. */
function selectsField(
  schema: GraphQLSchema,
  document: DocumentNode,
  test: (field: GraphQLField<unknown, unknown>) => boolean,
): boolean {
  const types = new TypeInfo(schema);
  let found = false;
  visit(
    document,
    visitWithTypeInfo(types, {
      Field() {
        const field = types.getFieldDef();
        if (!field || !test(field)) return undefined;
        found = true;
        return BREAK;
      },
    }),
  );
  return found;
}

/**
 * Whether graphql-jit may run a document: not a subscription (graphql-jit does
 * not hand a subscribe function its arguments), not introspection
 * (agentIntrospection), and no indirect field. Decided once per document: the
 * parser's cache hands back the same one.
 */
function jitChoice(schema: GraphQLSchema) {
  const indirect = indirectFieldsOf(schema);
  const needsGraphqlJs = new WeakMap<DocumentNode, boolean>();
  return ({ document, operationName }: { document: DocumentNode; operationName?: string | null }) => {
    let needs = needsGraphqlJs.get(document);
    if (needs === undefined) {
      needs =
        isIntrospection(document) ||
        (indirect.size > 0 && selectsField(schema, document, (field) => indirect.has(field)));
      needsGraphqlJs.set(document, needs);
    }
    return !needs && !isSubscription(document, operationName);
  };
}

export interface GraphqlParams {
  query: string;
  variables?: Record<string, unknown> | null;
  operationName?: string | null;
}

type Enveloped = ReturnType<Graphql["getEnveloped"]>;

/** The document parsed and checked by the pipeline's own parse and validate, or what they refused. */
function checkedDocument({ parse, validate, schema }: Enveloped, query: string): DocumentNode | ExecutionResult {
  let document: DocumentNode;
  try {
    document = parse(query);
  } catch (error) {
    // What parsing throws is the document's fault: a syntax error, or an operationName it does not hold.
    return { errors: [badRequest((error as GraphQLError).message, error as GraphQLError)] };
  }
  const errors = validate(schema, document);
  return errors.length > 0 ? { errors } : document;
}

async function executed(
  { contextFactory, execute, schema }: Enveloped,
  document: DocumentNode,
  params: GraphqlParams,
): Promise<ExecutionResult> {
  return (await execute({
    schema,
    document,
    variableValues: params.variables,
    operationName: params.operationName,
    contextValue: await contextFactory(),
  })) as ExecutionResult;
}

const isDocument = (checked: DocumentNode | ExecutionResult): checked is DocumentNode => "kind" in checked;

/**
 * One operation through the pipeline's parse, validate, context and execute,
 * with every plugin in force; what GraphQL refuses comes back as errors.
 */
export async function runOperation(
  graphql: Graphql,
  params: GraphqlParams,
  request: RequestFacts,
): Promise<ExecutionResult> {
  const initial: ServerContext = { request, params };
  const enveloped = graphql.getEnveloped(initial);
  const checked = checkedDocument(enveloped, params.query);
  if (!isDocument(checked)) return checked;
  // The context is made from this object when the operation executes.
  initial.costBounded = alwaysWithinCost(enveloped.schema, checked);
  return executed(enveloped, checked, params);
}

/** The most an Int holds: every cost clamps the page sizes it multiplies by (pageCost) well below it. */
const MOST_INT = 2 ** 31 - 1;

function isIntVariable({ type }: VariableDefinitionNode): boolean {
  const named = type.kind === Kind.NON_NULL_TYPE ? type.type : type;
  return named.kind === Kind.NAMED_TYPE && named.name.value === "Int";
}

/**
 * The most a document can cost whatever its variables: its Int variables
 * (the page sizes a cost multiplies by) at the most an Int holds, the others
 * as a request gave them. Undefined when they do not make a valid operation.
 */
export function worstCost(schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>) {
  const definitions = getOperationAST(document)?.variableDefinitions ?? [];
  const most = Object.fromEntries(
    definitions.filter(isIntVariable).map((definition) => [definition.variable.name.value, MOST_INT]),
  );
  try {
    return complexityFromQuery(document, { schema, variables: { ...variables, ...most } }).complexity;
  } catch {
    return undefined;
  }
}

const withinCost = new WeakMap<DocumentNode, boolean>();

/**
 * Whether a document costs at most the limit whatever a request sends: one
 * whose variables are all Ints (the page sizes, taken at their most), costed
 * once. The parser's cache hands back the same document for the same text;
 * a document with other variables is costed at each run, with its values.
 */
export function alwaysWithinCost(schema: GraphQLSchema, document: DocumentNode): boolean {
  let within = withinCost.get(document);
  if (within === undefined) {
    const operation = getOperationAST(document) ?? undefined;
    within =
      operation !== undefined &&
      (operation.variableDefinitions ?? []).every(isIntVariable) &&
      isWithinCost(schema, document, {});
    withinCost.set(document, within);
  }
  return within;
}

const isWithinCost = (schema: GraphQLSchema, document: DocumentNode, variables: Record<string, unknown>) =>
  (worstCost(schema, document, variables) ?? Infinity) <= LIMITS.cost;

/**
 * An operation whose document never changes (a REST route's): parsed and
 * validated by the pipeline at its first run, which no request can change,
 * and costed once: a document that costs at most the limit whatever its
 * variables is not costed at each run. Every run then builds its context
 * and executes, with every plugin's execute hooks in force.
 */
export function preparedOperation(graphql: Graphql, query: string) {
  let checked: DocumentNode | ExecutionResult | undefined;
  let costBounded = false;
  return (variables: Record<string, unknown>, request: RequestFacts): Promise<ExecutionResult> => {
    const params = { query, variables };
    const enveloped = graphql.getEnveloped({ request, params, costBounded });
    checked ??= checkedDocument(enveloped, query);
    if (!isDocument(checked)) return Promise.resolve(checked);
    if (!costBounded && isWithinCost(enveloped.schema, checked, variables)) costBounded = true;
    return executed(enveloped, checked, params);
  };
}

/**
 * A subscription refused before its stream starts (no key, another agent's,
 * no such agent, too many streams) answers with the refusal's own status,
 * as REST would, instead of a stream holding the error.
 */
const refusedSubscriptions: Plugin = {
  onSubscribe: () => ({
    onSubscribeResult: ({ result, setResult }) => {
      if (isAsyncIterable(result) || !result.errors?.length) return;
      const status = Math.max(...result.errors.map((error) => serviceErrorOf(error)?.status ?? 500));
      setResult({ ...result, extensions: { ...result.extensions, http: { status } } });
    },
  }),
};

/** Each operation run, by name, for /metrics: over /graphql, and those of the REST routes and MCP tools. */
function countOperations({ metrics }: Services): Plugin {
  const count = ({ args }: { args: { document: DocumentNode; operationName?: string | null } }) =>
    metrics.operation(getOperationAST(args.document, args.operationName)?.name?.value ?? "anonymous");
  return { onExecute: count, onSubscribe: count };
}

/**
 * The one GraphQL pipeline: /graphql is served by it, and the REST routes run
 * their operations through its envelop plugins, so limits, masking and any
 * later plugin hold for both.
 */
export function createGraphql(schema: GraphQLSchema, services: Instance): Graphql {
  const introspection = services.config.graphqlIntrospection;
  const streams = new Streams();
  return createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    // Served by the app itself, from installed assets (graphiql.ts).
    graphiql: false,
    cors: false,
    // Node's own Request and Response, which the HTTP adapter answers with directly.
    fetchAPI: { Request, Response, Headers, ReadableStream, TextEncoder, TextDecoder, URL, URLSearchParams },
    logging: false,
    parserAndValidationCache: { validationCache: false },
    // graphql-jit compiles each document once into plain functions; the same answers, several times faster.
    // The documents it may not run go to graphql-js (jitChoice).
    plugins: [
      countOperations(services),
      ...documentLimits({ introspection }),
      keptValidation(),
      requestChecks,
      refusedSubscriptions,
      agentIntrospection(schema),
      useGraphQlJit({}, { enableIf: jitChoice(schema) }),
    ],
    context: (initial) => {
      const facts = initial.request as Request | RequestFacts;
      if (!(facts instanceof Request)) return createContext(services, facts, streams, initial.costBounded);
      return createContext(
        services,
        requestFacts(facts.headers.get("authorization"), () => facts.signal),
        streams,
      );
    },
    maskedErrors: {
      maskError: (error) =>
        located(toServiceError(error as GraphQLError, requestFault(services.log)), error as GraphQLError),
    },
  });
}

/** What /graphql can answer with. */
const GRAPHQL_ANSWERS = "application/json, application/graphql-response+json, text/event-stream, multipart/mixed";

/** Media types compare without case (RFC 9110); Yoga compares them as written. Parameters are kept. */
function lowerMediaTypes(value: string): string {
  return value.replace(/(^|,)\s*[^;,]+/g, (type) => type.toLowerCase());
}

/**
 * A request only Yoga answers (any but a plain JSON POST), its media types in
 * lower case. Yoga refuses a type it does not read or cannot answer with an
 * empty body; the client hears why, as REST would tell it.
 */
export async function yogaAnswer(graphql: Graphql, request: Request): Promise<Response> {
  const headers = new Headers(request.headers);
  for (const name of ["content-type", "accept"]) {
    const value = headers.get(name);
    if (value !== null) headers.set(name, lowerMediaTypes(value));
  }
  const response = await graphql.fetch(new Request(request, { headers }));
  if (response.status === 415) {
    throw new ServiceError(
      "UNSUPPORTED_MEDIA_TYPE",
      "Send the query as application/json (or application/graphql+json)",
    );
  }
  if (response.status === 406) throw new ServiceError("NOT_ACCEPTABLE", `Accept one of: ${GRAPHQL_ANSWERS}`);
  return response;
}
