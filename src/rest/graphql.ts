import { initGraphQLTada } from "gql.tada";
import type { introspection } from "../generated/graphql-env.d.ts";

/**
 * Typed operations over the committed schema (src/generated/graphql-env.d.ts
 * is its introspection, written by npm install and npm run schema): scalars
 * as they come out of execution.
 */
export const graphql = initGraphQLTada<{
  introspection: introspection;
  disableMasking: true;
  scalars: { ID: string; Timestamp: number; JSONObject: Record<string, unknown> };
}>();
