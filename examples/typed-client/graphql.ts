import { initGraphQLTada, type TadaDocumentNode } from "gql.tada";
import { print } from "graphql";
import type { introspection } from "../../src/generated/graphql-env.d.ts";

/**
 * Operations typed by the service's schema.graphql (graphql-env.d.ts is its
 * introspection, which the repository's npm install writes; in a project of
 * your own, `gql.tada generate-output` writes it): a field the schema lacks,
 * or a variable of the wrong type, is a compile error here.
 */
export const graphql = initGraphQLTada<{
  introspection: introspection;
  scalars: { ID: string; Timestamp: number; JSONObject: Record<string, unknown> };
}>();

export class GraphqlError extends Error {
  constructor(
    message: string,
    readonly code: unknown,
  ) {
    super(message);
  }
}

/** Runs one typed operation against the service's /graphql, with the agent's key when it has one. */
export async function request<Result, Variables>(
  url: string,
  document: TadaDocumentNode<Result, Variables>,
  variables: Variables,
  apiKey?: string,
): Promise<Result> {
  const headers: Record<string, string> = { "content-type": "application/json" };
  if (apiKey) headers.authorization = `Bearer ${apiKey}`;
  const response = await fetch(`${url}/graphql`, {
    method: "POST",
    headers,
    body: JSON.stringify({ query: print(document), variables }),
  });
  const { data, errors } = (await response.json()) as {
    data?: Result;
    errors?: { message: string; extensions?: { code?: unknown } }[];
  };
  const [error] = errors ?? [];
  if (error || !data) throw new GraphqlError(error?.message ?? "no data", error?.extensions?.code);
  return data;
}
