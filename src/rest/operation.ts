import {
  type FragmentDefinitionNode,
  type GraphQLField,
  GraphQLIncludeDirective,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLSchema,
  GraphQLSkipDirective,
  getDirectiveValues,
  getNamedType,
  isInterfaceType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionNode,
  type SelectionSetNode,
  typeFromAST,
  valueFromAST,
} from "graphql";
import type { Route } from "../schema/declare.ts";
import { permissionOf } from "../schema/own-agent.ts";
import type { Need } from "../schema/scopes.ts";

// What a route's operation is about, for the doors that describe it (the
// OpenAPI document, the MCP tool list): its definition, the field it is
// about, and from that field the route's summary and the permission it needs;
// and the fields its answer gives of each type.

export function operationOf(route: Route): OperationDefinitionNode {
  const operation = route.operation.definitions.find(
    (d): d is OperationDefinitionNode => d.kind === Kind.OPERATION_DEFINITION,
  );
  if (!operation) throw new Error(`${route.method} ${route.path} has no operation`);
  return operation;
}

/**
 * The field an operation is about: down from its root while one field is
 * selected with fields of its own (`agent(id) { emails { … } }` is about
 * `emails`; `deleteAgent { success message }` about `deleteAgent`).
 */
function leadField(type: GraphQLObjectType, selections: SelectionSetNode): GraphQLField<unknown, unknown> | undefined {
  const [node, ...others] = selections.selections;
  if (others.length > 0 || node?.kind !== Kind.FIELD || !node.selectionSet) return undefined;
  const field = type.getFields()[node.name.value];
  const inner = field && getNamedType(field.type);
  return (isObjectType(inner) && leadField(inner, node.selectionSet)) || field;
}

/** The field the route's operation is about. */
function leadFieldOf(route: Route, schema: GraphQLSchema): GraphQLField<unknown, unknown> | undefined {
  const operation = operationOf(route);
  const root = schema.getRootType(operation.operation);
  return root ? leadField(root, operation.selectionSet) : undefined;
}

/** The route's one sentence for the reference: its declaration's, else its operation's field's description. */
export function summaryOf(route: Route, schema: GraphQLSchema): string {
  const summary = route.summary ?? leadFieldOf(route, schema)?.description;
  if (!summary) throw new Error(`${route.method} ${route.path} has no summary and its field no description`);
  return summary;
}

/**
 * The permission a key needs for the route: what its operation's field's scope declares (null: none beyond the key;
 * undefined: not an agent's route). What the MCP tool list and the OpenAPI document say.
 */
export function permissionOfRoute(route: Route, schema: GraphQLSchema): Need | undefined {
  const field = leadFieldOf(route, schema);
  return permissionOf((field?.extensions.pothosOptions as { authScopes?: unknown } | undefined)?.authScopes);
}

/** Variables as the operation reads them: those given, else their defaults. */
function variablesOf(
  operation: OperationDefinitionNode,
  schema: GraphQLSchema,
  given: Readonly<Record<string, unknown>>,
) {
  const values: Record<string, unknown> = {};
  for (const { variable, type, defaultValue } of operation.variableDefinitions ?? []) {
    const name = variable.name.value;
    const inputType = typeFromAST(schema, type) as GraphQLInputType | undefined;
    if (name in given) values[name] = given[name];
    else if (defaultValue && inputType) values[name] = valueFromAST(defaultValue, inputType);
  }
  return values;
}

/** Whether @include and @skip keep a selection for these variables (GraphQL's own reading of them). */
function kept(node: SelectionNode, values: Record<string, unknown>): boolean {
  if (getDirectiveValues(GraphQLSkipDirective, node, values)?.if === true) return false;
  return getDirectiveValues(GraphQLIncludeDirective, node, values)?.if !== false;
}

/**
 * The fields the route's operation selects on each type (by the names the
 * answer has them, aliases too), through its fragments, with @include and
 * @skip decided for the given variables (else their defaults): what an MCP
 * tool that fills `fenced` answers of an email, say.
 */
export function answeredFields(
  route: Route,
  schema: GraphQLSchema,
  given: Readonly<Record<string, unknown>>,
): Map<string, string[]> {
  const operation = operationOf(route);
  const values = variablesOf(operation, schema, given);
  const fragments = new Map(
    route.operation.definitions
      .filter((d): d is FragmentDefinitionNode => d.kind === Kind.FRAGMENT_DEFINITION)
      .map((d) => [d.name.value, d]),
  );
  const found = new Map<string, Set<string>>();
  const walk = (type: GraphQLNamedType | undefined | null, selectionSet: SelectionSetNode) => {
    if (!type) return;
    for (const node of selectionSet.selections) {
      if (!kept(node, values)) continue;
      if (node.kind === Kind.FIELD) {
        const names = found.get(type.name) ?? new Set();
        found.set(type.name, names.add(node.alias?.value ?? node.name.value));
        const field = isObjectType(type) || isInterfaceType(type) ? type.getFields()[node.name.value] : undefined;
        if (field && node.selectionSet) walk(getNamedType(field.type), node.selectionSet);
        continue;
      }
      const fragment = node.kind === Kind.INLINE_FRAGMENT ? node : fragments.get(node.name.value);
      const on = fragment?.typeCondition ? schema.getType(fragment.typeCondition.name.value) : type;
      if (fragment) walk(on, fragment.selectionSet);
    }
  };
  walk(schema.getRootType(operation.operation), operation.selectionSet);
  return new Map([...found].map(([name, fields]) => [name, [...fields]]));
}
