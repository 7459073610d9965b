import SchemaBuilder from "@pothos/core";
import PrismaPlugin from "@pothos/plugin-prisma";
import RelayPlugin from "@pothos/plugin-relay";
import { JSONObjectResolver, TimestampResolver } from "graphql-scalars";
import type PrismaTypes from "../generated/pothos-types.ts";
import { getDatamodel } from "../generated/pothos-types.ts";
import type { Context } from "./context.ts";

export const builder = new SchemaBuilder<{
  Context: Context;
  PrismaTypes: PrismaTypes;
  DefaultFieldNullability: false;
  Scalars: {
    Timestamp: { Input: Date; Output: Date };
    JSONObject: { Input: Record<string, unknown>; Output: unknown };
  };
}>({
  plugins: [PrismaPlugin, RelayPlugin],
  defaultFieldNullability: false,
  // Connections only: agents and emails are reached through their owner, never by a global node id.
  relay: { nodeQueryOptions: false, nodesQueryOptions: false },
  prisma: {
    client: (ctx) => ctx.prisma,
    dmmf: getDatamodel(),
    onUnusedQuery: null,
  },
});

builder.addScalarType("Timestamp", TimestampResolver);
builder.addScalarType("JSONObject", JSONObjectResolver);

builder.queryType({});
builder.mutationType({});

/** `{success, message}`: what the spec's deletions answer. */
export const Outcome = builder.objectRef<{ success: boolean; message: string }>("Outcome").implement({
  fields: (t) => ({
    success: t.exposeBoolean("success"),
    message: t.exposeString("message"),
  }),
});
