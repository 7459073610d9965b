import SchemaBuilder from "@pothos/core";
import ComplexityPlugin from "@pothos/plugin-complexity";
import PrismaPlugin from "@pothos/plugin-prisma";
import RelayPlugin from "@pothos/plugin-relay";
import ScopeAuthPlugin from "@pothos/plugin-scope-auth";
import { GraphQLError, GraphQLScalarType, Kind } from "graphql";
import { JSONObjectResolver, TimestampResolver } from "graphql-scalars";
import type PrismaTypes from "../generated/pothos-types.ts";
import { getDatamodel } from "../generated/pothos-types.ts";
import type { Context } from "./context.ts";
import { costOverLimit, FIELD_COST, LIMITS } from "./limits.ts";
import { keepPlans } from "./plan-cache.ts";
import { type AgentAccess, type PodAccess, scopeKey, scopesOf } from "./scopes.ts";

// The one builder: plugins, scalars, the data model and the context every
// resolver sees. Scope auth runs first, so no other plugin's wrapper runs for
// a caller that may not see the field. The Prisma plugin reads the models of
// prisma/schema.prisma through whichever client the request's database has:
// both are generated from it.

keepPlans();

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  DefaultInputFieldRequiredness: false;
  Scalars: {
    ID: { Input: string; Output: string };
    Timestamp: { Input: Date; Output: Date };
    JSONObject: { Input: Record<string, unknown>; Output: unknown };
  };
  AuthScopes: {
    /** A valid API key. */
    key: boolean;
    /** The key's own agent, verified or not: the agent's id, and the permission the key needs. */
    ownAgent: AgentAccess;
    /** The key's own agent, verified: the agent's id, and the permission the key needs. */
    verifiedAgent: AgentAccess;
    /** A key of the pod: the pod's id, and the permission the key needs. */
    podKey: PodAccess;
    /** The operator, by ADMIN_TOKEN; never an agent's key. */
    operator: boolean;
    /** A held message's review link: its token, which decides that message only; never with an agent's key. */
    reviewer: string;
    /** A quarantined message's review link: its token, which releases or deletes that message only; never with an agent's key. */
    quarantineReviewer: string;
    /** The agent a verification link's claim token is for, or without one the key's agent. */
    verifier: string | null;
  };
}>({
  plugins: [ScopeAuthPlugin, PrismaPlugin, ComplexityPlugin, RelayPlugin],
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    // A root field that ignores the selection it is handed would read row by row below it: refused, by
    // the service as by its tests. Watching costs a getter per key of the root field's query, about a µs.
    onUnusedQuery: "error",
  },
  defaultFieldNullability: false,
  // Subscriptions are authorized once, when they start.
  // A scope's result is kept for the request by its argument: an agent's access by its agent and permission.
  scopeAuth: { authScopes: scopesOf, authorizeOnSubscribe: true, cacheKey: scopeKey },
  // Connections only: agents and emails are reached through their owner, never by a global node id.
  relay: { nodeQueryOptions: false, nodesQueryOptions: false, cursorType: "String" },
  // Lists multiply only where a field says by how much: a page by its limit.
  complexity: {
    defaultComplexity: FIELD_COST,
    defaultListMultiplier: 1,
    // A document costed once when it was prepared (a REST route's) is not costed at each request.
    limit: (ctx) => (ctx.costBounded ? {} : { complexity: LIMITS.cost }),
    complexityError: (_kind, { complexity }) => costOverLimit(complexity),
  },
});

/** Milliseconds since the epoch, out and in; in, nothing else (graphql-scalars would take "soon" as an invalid Date). */
function timestampOf(value: unknown): Date {
  if (typeof value !== "number" || !Number.isSafeInteger(value) || value < 0) {
    throw new GraphQLError("A time is a whole number of milliseconds since 1970");
  }
  return new Date(value);
}

builder.addScalarType(
  "Timestamp",
  new GraphQLScalarType({
    ...TimestampResolver.toConfig(),
    parseValue: timestampOf,
    parseLiteral: (ast) => timestampOf(ast.kind === Kind.INT ? Number(ast.value) : undefined),
  }),
);
builder.addScalarType("JSONObject", JSONObjectResolver);

builder.queryType({});
builder.mutationType({});

/** `{success, message}`: what the spec's deletions answer. */
export const OutcomeType = builder.objectRef<{ success: boolean; message: string }>("Outcome").implement({
  fields: (t) => ({
    success: t.exposeBoolean("success"),
    message: t.exposeString("message"),
  }),
});
