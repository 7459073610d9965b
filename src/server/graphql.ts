import { GraphQLError, type GraphQLSchema } from "graphql";
import { createYoga, type Plugin } from "graphql-yoga";
import { internalError, isRequestError, serviceErrorOf } from "../errors.ts";
import { createContext, type Services } from "../schema/context.ts";

/** GraphQL's own complaints about a request are what REST calls a bad request. */
function asBadRequest(error: GraphQLError): GraphQLError {
  return new GraphQLError(error.message, { nodes: error.nodes, extensions: { code: "BAD_REQUEST", status: 400 } });
}

/** Yoga reports validation errors without passing them through maskError. */
const validationErrorsAsBadRequest: Plugin = {
  onValidate:
    () =>
    ({ result, setResult }) => {
      if (result.length > 0) setResult(result.map((error) => asBadRequest(error as GraphQLError)));
    },
};

/** GraphQL over HTTP at /graphql, with GraphiQL for browsers. */
export function createGraphqlHandler(schema: GraphQLSchema, services: Services) {
  return createYoga({
    schema,
    graphqlEndpoint: "/graphql",
    landingPage: false,
    plugins: [validationErrorsAsBadRequest],
    logging: false,
    context: ({ request }) => createContext(services, request.headers.get("authorization")),
    maskedErrors: {
      // Our errors and GraphQL's own input errors reach the client; anything
      // else is logged here and answered without its internals.
      maskError: (error) => {
        const graphqlError = error as GraphQLError;
        if (serviceErrorOf(graphqlError)) return graphqlError;
        if (isRequestError(graphqlError)) return asBadRequest(graphqlError);
        services.log("error", "request_failed", { error: String(graphqlError.originalError ?? error) });
        return internalError();
      },
    },
  });
}
