import {
  coerceInputValue,
  type DirectiveNode,
  type FieldNode,
  type GraphQLArgument,
  GraphQLID,
  type GraphQLInputType,
  type GraphQLSchema,
  GraphQLString,
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  Kind,
  TypeInfo,
  typeFromAST,
  visit,
  visitWithTypeInfo,
} from "graphql";
import { ServiceError } from "../errors.ts";
import type { Rename, RestRequest, Route } from "../schema/declare.ts";
import { operationOf } from "./operation.ts";

// How a REST request becomes its operation's variables: each variable from
// the part of the same name (or the one its declaration renames it to), an
// input object variable from the body's or query's fields of its type's
// names. The values are checked by graphql-js's own input coercion, and a
// refusal names the REST part in one wording per kind: "to is required",
// "Invalid limit: expected an integer of at least 1".

/** Where a variable's value is in a request. */
export type Place = "path" | "query" | "body" | "header";

/** An integer argument's bounds, declared on the argument (`extensions: { minimum }`); GraphQL's Int is all 32 bits. */
export interface Bounds {
  minimum?: number;
  maximum?: number;
}

export interface Part {
  variable: string;
  type: GraphQLInputType;
  place: Place;
  /** The part's name in the request; for an input object taken from its fields, the variable's. */
  name: string;
  /** An input object whose fields are the body's or query's own. */
  spread: boolean;
  /** The description of the argument the variable is passed to. */
  description?: string;
  bounds: Bounds;
}

/** What a scalar takes, in the words a REST client reads. */
const EXPECTED: Record<string, string> = {
  String: "a string",
  ID: "a string",
  Int: "an integer",
  Boolean: "true or false",
  JSONObject: "a JSON object",
  Timestamp: "a time in milliseconds",
};

function expected(type: GraphQLInputType, bounds: Bounds): string {
  const named = getNamedType(type);
  if (isInputObjectType(named)) return "an object";
  // An enum takes one of its values' names.
  if (isEnumType(named))
    return named
      .getValues()
      .map((v) => v.name)
      .join(", ");
  const { minimum, maximum } = bounds;
  const words = EXPECTED[named.name] ?? named.name;
  if (minimum !== undefined && maximum !== undefined) return `${words} from ${minimum} to ${maximum}`;
  if (minimum !== undefined) return `${words} of at least ${minimum}`;
  if (maximum !== undefined) return `${words} of at most ${maximum}`;
  return words;
}

/** The field argument each variable is passed to, for its description and bounds (an @include's is no field's). */
function argumentsOf(route: Route, schema: GraphQLSchema): Map<string, GraphQLArgument> {
  const found = new Map<string, GraphQLArgument>();
  const typeInfo = new TypeInfo(schema);
  visit(
    route.operation,
    visitWithTypeInfo(typeInfo, {
      Argument(node) {
        const argument = typeInfo.getArgument();
        const ofField = typeInfo.getDirective() === null;
        if (node.value.kind === Kind.VARIABLE && argument && ofField) found.set(node.value.name.value, argument);
      },
    }),
  );
  return found;
}

const answerName = (field: FieldNode) => field.alias?.value ?? field.name.value;

/**
 * For each variable that @include and @skip read, what it does: "true: the answer has fenced, not text". On an
 * inline fragment, they switch the fields it selects.
 */
function switchesOf(route: Route): Map<string, string> {
  const fields = new Map<string, { include: string[]; skip: string[] }>();
  const note = (directives: readonly DirectiveNode[] | undefined, names: string[]) => {
    for (const directive of directives ?? []) {
      const value = directive.arguments?.find((argument) => argument.name.value === "if")?.value;
      const kind = directive.name.value;
      if (value?.kind !== Kind.VARIABLE || (kind !== "include" && kind !== "skip")) continue;
      const switched = fields.get(value.name.value) ?? { include: [], skip: [] };
      switched[kind].push(...names);
      fields.set(value.name.value, switched);
    }
  };
  visit(route.operation, {
    Field: (node) => note(node.directives, [answerName(node)]),
    InlineFragment: (node) =>
      note(
        node.directives,
        node.selectionSet.selections.flatMap((s) => (s.kind === Kind.FIELD ? [answerName(s)] : [])),
      ),
  });
  return new Map(
    [...fields].map(([variable, { include, skip }]) => {
      const not = skip.length > 0 ? `${include.length > 0 ? ", " : ""}not ${skip.join(", ")}` : "";
      return [variable, `true: the answer has ${include.join(", ")}${not}`];
    }),
  );
}

function boundsOf(extensions: Readonly<Record<string, unknown>> | undefined | null): Bounds {
  const { minimum, maximum } = (extensions ?? {}) as Bounds;
  return { minimum, maximum };
}

/** Whether a route takes a variable from a header: only a rename to one does (partsOf). */
export function takesHeader(route: Route): boolean {
  return Object.values(route.renames ?? {}).some((rename) => typeof rename === "object");
}

/** Each variable of a route's operation and the request part it comes from. */
export function partsOf(route: Route, schema: GraphQLSchema): Part[] {
  const argumentOf = argumentsOf(route, schema);
  const switches = switchesOf(route);
  const pathNames = new Set([...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]));
  return (operationOf(route).variableDefinitions ?? []).map((definition) => {
    const variable = definition.variable.name.value;
    const type = typeFromAST(schema, definition.type) as GraphQLInputType;
    const argument = argumentOf.get(variable);
    const renamed = (route.renames as Record<string, Rename> | undefined)?.[variable];
    const spread = isInputObjectType(isNonNullType(type) ? type.ofType : type);
    const part = { variable, type, spread, description: argument?.description ?? switches.get(variable) };
    const bounds = boundsOf(argument?.extensions);
    if (typeof renamed === "object") return { ...part, place: "header", name: renamed.header, bounds };
    const name = renamed ?? variable;
    const place = pathNames.has(name) ? "path" : route.body ? "body" : "query";
    return { ...part, place, name, bounds };
  });
}

/** A query string's value as the type takes it: numbers and flags from text, lists comma-separated. Text that is none is passed on for the check to refuse. */
function fromQuery(value: string, type: GraphQLInputType): unknown {
  if (isNonNullType(type)) return fromQuery(value, type.ofType);
  if (isListType(type)) return value.split(",").map((item) => fromQuery(item, type.ofType));
  const name = getNamedType(type).name;
  if ((name === "Int" || name === "Timestamp") && /^-?\d{1,15}$/.test(value)) return Number(value);
  if (name === "Boolean" && (value === "true" || value === "false")) return value === "true";
  return value;
}

/** The fields of an input object a request gives, by the type's field names; left out stays left out. */
function fieldsFrom(source: Record<string, unknown>, type: GraphQLInputType, fromText: boolean) {
  const named = getNamedType(type);
  if (!isInputObjectType(named)) return {};
  const given: Record<string, unknown> = {};
  for (const field of Object.values(named.getFields())) {
    const value = source[field.name];
    if (value !== undefined) given[field.name] = fromText ? fromQuery(value as string, field.type) : value;
  }
  return given;
}

function givenValue(part: Part, request: RestRequest): unknown {
  if (part.place === "path") return request.params[part.name];
  if (part.place === "header") return request.headers[part.name];
  const source = part.place === "body" ? request.body : request.query;
  if (part.spread) return fieldsFrom(source, part.type, part.place === "query");
  const value = source[part.name];
  return part.place === "query" && value !== undefined ? fromQuery(value as string, part.type) : value;
}

/** The operation's variables from a request: every variable its part gives, none the request left out. */
export function variablesFrom(parts: Part[], request: RestRequest): Record<string, unknown> {
  const variables: Record<string, unknown> = {};
  for (const part of parts) {
    const value = givenValue(part, request);
    if (value !== undefined) variables[part.variable] = value;
  }
  return variables;
}

/** The type and bounds at a path inside a value of a type, and the REST name of that place. */
function placeAt(part: Part, path: readonly (string | number)[]) {
  let type = part.type;
  let bounds = part.bounds;
  let name = part.spread ? "" : part.name;
  for (const key of path) {
    while (isNonNullType(type) || (isListType(type) && typeof key !== "number")) type = type.ofType;
    if (typeof key === "number" && isListType(type)) {
      type = type.ofType;
      name = `${name}[${key}]`;
    } else if (isInputObjectType(type)) {
      const field = type.getFields()[key];
      if (!field) break;
      type = field.type;
      bounds = {};
      name = name ? `${name}.${key}` : String(key);
    }
  }
  return { type, bounds, name };
}

/** A string where a String or ID is asked: nothing to coerce (most parts are a path's id). */
function plainString(type: GraphQLInputType, value: unknown): boolean {
  const inner = isNonNullType(type) ? type.ofType : type;
  return typeof value === "string" && (inner === GraphQLString || inner === GraphQLID);
}

/** The first problem with a part's value in REST's words, or null. */
function problemOf(part: Part, value: unknown): string | null {
  if (plainString(part.type, value)) return null;
  let problem: string | null = null;
  const coerced = coerceInputValue(value, part.type, (path, invalid) => {
    if (problem) return;
    const at = placeAt(part, path);
    // graphql-js reports a required field left out at its object (one given where a list is asked for too).
    const inner = getNamedType(at.type);
    const missing =
      isInputObjectType(inner) && typeof invalid === "object" && invalid !== null
        ? Object.values(inner.getFields()).find((f) => isNonNullType(f.type) && !(f.name in invalid))
        : undefined;
    if (missing) problem = `${at.name ? `${at.name}.` : ""}${missing.name} is required`;
    else if (invalid === null || invalid === undefined) problem = `${at.name} is required`;
    else problem = `Invalid ${at.name}: expected ${expected(at.type, at.bounds)}`;
  });
  return problem ?? boundsProblem(part, coerced);
}

function boundsProblem(part: Part, value: unknown): string | null {
  const { minimum, maximum } = part.bounds;
  if (typeof value !== "number") return null;
  if ((minimum !== undefined && value < minimum) || (maximum !== undefined && value > maximum)) {
    return `Invalid ${part.name}: expected ${expected(part.type, part.bounds)}`;
  }
  return null;
}

/** Refuses variables their types do not take: 400, naming the REST part. */
export function assertValidVariables(parts: Part[], variables: Record<string, unknown>): void {
  for (const part of parts) {
    const problem = problemOf(part, variables[part.variable]);
    if (problem) throw new ServiceError("BAD_REQUEST", problem);
  }
}
