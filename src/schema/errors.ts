import { PothosValidationError } from "@pothos/core";
import { GraphQLError } from "graphql";
import { isVanishedRow } from "../db/errors.ts";
import { asServiceError, excerpt, ServiceError } from "../errors.ts";

// From GraphQL's errors to ours, in one place, for /graphql and REST alike:
// our own errors as they are; GraphQL's complaints about the request
// (syntax, validation, variables, a malformed argument) as a bad request; a
// row deleted meanwhile as not found; anything else is a fault of ours,
// logged and answered without its internals.

/** The ServiceError behind a GraphQL error. */
export function serviceErrorOf(error: GraphQLError): ServiceError | null {
  const cause = error.originalError;
  if (cause instanceof ServiceError) return cause;
  return cause instanceof GraphQLError ? serviceErrorOf(cause) : null;
}

/**
 * Syntax, validation and variable errors come before any resolver runs: they
 * have no path, and no cause but GraphQL's own. Pothos refuses malformed
 * arguments with its validation error.
 */
function isRequestError(error: GraphQLError): boolean {
  const cause = error.originalError;
  if (cause instanceof PothosValidationError) return true;
  return error.path === undefined && (cause === undefined || cause instanceof GraphQLError);
}

export function toServiceError(error: GraphQLError, logFault: (fault: unknown) => void): ServiceError {
  const service = serviceErrorOf(error);
  if (service) return service;
  if (isRequestError(error)) return new ServiceError("BAD_REQUEST", excerpt(error.message));
  const cause = error.originalError;
  if (isVanishedRow(cause)) return new ServiceError("NOT_FOUND", "The agent or email was deleted meanwhile");
  return asServiceError(cause ?? error, logFault);
}

/**
 * Our error where GraphQL found it, carrying the spec's code and status in
 * its extensions. Before execution (no path) it also sets the HTTP status as
 * GraphQL over HTTP has it: 200 over application/json, the error's own over
 * application/graphql-response+json.
 */
export function located(error: ServiceError, at?: GraphQLError): GraphQLError {
  const http = at?.path === undefined ? { http: { spec: true, status: error.status } } : {};
  return new GraphQLError(error.message, {
    nodes: at?.nodes,
    path: at?.path,
    originalError: error,
    extensions: { ...error.extensions, ...http },
  });
}
