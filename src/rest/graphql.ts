import { initGraphQLTada } from "gql.tada";
import type { introspection } from "./graphql-env.d.ts";

/**
 * Typed operations over the committed schema (graphql-env.d.ts is printed
 * with schema.graphql): scalars as they come out of execution.
 */
export const graphql = initGraphQLTada<{
  introspection: introspection;
  disableMasking: true;
  scalars: { ID: string; Timestamp: number; JSONObject: Record<string, unknown> };
}>();
