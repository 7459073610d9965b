import {
  type GraphQLField,
  type GraphQLObjectType,
  type GraphQLSchema,
  getNamedType,
  isObjectType,
  Kind,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from "graphql";
import type { Route } from "../schema/declare.ts";
import { permissionOf } from "../schema/own-agent.ts";
import type { Need } from "../schema/scopes.ts";

// What a route's operation is about, for the doors that describe it (the
// OpenAPI document, the MCP tool list): its definition, the field it is
// about, and from that field the route's summary and the permission it needs.

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
