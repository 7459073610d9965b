import { GraphQLError } from "graphql";

// The one error type. A resolver throws it; GraphQL clients read it from
// errors[].extensions and the REST layer turns it into the spec's status and
// body, so both see the same failure.

const KINDS = {
  BAD_REQUEST: { status: 400, error: "Bad Request" },
  UNAUTHORIZED: { status: 401, error: "Unauthorized" },
  FORBIDDEN: { status: 403, error: "Forbidden" },
  NOT_FOUND: { status: 404, error: "Not Found" },
  METHOD_NOT_ALLOWED: { status: 405, error: "Method Not Allowed" },
  CONFLICT: { status: 409, error: "Conflict" },
  PAYLOAD_TOO_LARGE: { status: 413, error: "Payload Too Large" },
  RATE_LIMITED: { status: 429, error: "Rate limit exceeded" },
  INTERNAL_SERVER_ERROR: { status: 500, error: "Internal Server Error" },
  SERVICE_UNAVAILABLE: { status: 503, error: "Service Unavailable" },
} as const;

export type ErrorKind = keyof typeof KINDS;

/** The spec's machine-readable codes. */
export type SpecCode =
  | "DAILY_SEND_LIMIT_EXCEEDED"
  | "STORAGE_LIMIT_EXCEEDED"
  | "NOT_VERIFIED"
  | "VERIFICATION_EXPIRED"
  | "INVALID_TWEET"
  | "SOCIAL_ALREADY_USED";

export interface ErrorDetails {
  code?: SpecCode;
  limit?: number;
  current?: number;
  resetAt?: number;
}

export interface ErrorBody extends ErrorDetails {
  error: string;
  message: string;
}

export class ServiceError extends GraphQLError {
  readonly kind: ErrorKind;
  readonly details: ErrorDetails;

  constructor(kind: ErrorKind, message: string, details: ErrorDetails = {}) {
    super(message, { extensions: { code: details.code ?? kind, status: KINDS[kind].status, ...numbers(details) } });
    this.kind = kind;
    this.details = details;
  }

  get status(): number {
    return KINDS[this.kind].status;
  }

  toBody(): ErrorBody {
    return { error: KINDS[this.kind].error, message: this.message, ...this.details };
  }
}

function numbers({ code: _, ...rest }: ErrorDetails): Omit<ErrorDetails, "code"> {
  return rest;
}

export const internalError = () => new ServiceError("INTERNAL_SERVER_ERROR", "Internal server error");

/** The ServiceError a resolver threw, unwrapped from graphql-js's located error. */
export function serviceErrorOf(error: GraphQLError): ServiceError | null {
  if (error instanceof ServiceError) return error;
  return error.originalError instanceof ServiceError ? error.originalError : null;
}

/** Parse, validation and variable errors come before any resolver runs, so they have no path. */
export function isRequestError(error: GraphQLError): boolean {
  return error.path === undefined;
}
