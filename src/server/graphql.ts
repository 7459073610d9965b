import type { GraphQLSchema } from "graphql";
import { createYoga } from "graphql-yoga";
import { internalError, isRequestError, serviceErrorOf } from "../errors.ts";
import { createContext, type Services } from "../schema/context.ts";

/** GraphQL over HTTP at /graphql, with GraphiQL for browsers. */
export function createGraphqlHandler(schema: GraphQLSchema, services: Services) {
  return createYoga({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    logging: false,
    context: ({ request }) => createContext(services, request.headers.get("authorization")),
    maskedErrors: {
      // Our errors and GraphQL's own input errors reach the client; anything
      // else is logged here and answered without its internals.
      maskError: (error) => {
        const graphqlError = error as Parameters<typeof serviceErrorOf>[0];
        if (serviceErrorOf(graphqlError) || isRequestError(graphqlError)) return graphqlError;
        services.log("error", "request_failed", { error: String(graphqlError.originalError ?? error) });
        return internalError();
      },
    },
  });
}
