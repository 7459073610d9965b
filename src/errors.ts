// The one error type. The domain throws it; the REST layer answers with its
// status and the spec's body, GraphQL carries the same in errors[].extensions,
// so every door reports the same failure the same way.

const KINDS = {
  BAD_REQUEST: { status: 400, error: "Bad Request" },
  UNAUTHORIZED: { status: 401, error: "Unauthorized" },
  FORBIDDEN: { status: 403, error: "Forbidden" },
  NOT_FOUND: { status: 404, error: "Not Found" },
  METHOD_NOT_ALLOWED: { status: 405, error: "Method Not Allowed" },
  NOT_ACCEPTABLE: { status: 406, error: "Not Acceptable" },
  REQUEST_TIMEOUT: { status: 408, error: "Request Timeout" },
  CONFLICT: { status: 409, error: "Conflict" },
  GONE: { status: 410, error: "Gone" },
  PAYLOAD_TOO_LARGE: { status: 413, error: "Payload Too Large" },
  UNPROCESSABLE_CONTENT: { status: 422, error: "Unprocessable Content" },
  UNSUPPORTED_MEDIA_TYPE: { status: 415, error: "Unsupported Media Type" },
  RATE_LIMITED: { status: 429, error: "Rate limit exceeded" },
  REQUEST_HEADER_FIELDS_TOO_LARGE: { status: 431, error: "Request Header Fields Too Large" },
  INTERNAL_SERVER_ERROR: { status: 500, error: "Internal Server Error" },
  SERVICE_UNAVAILABLE: { status: 503, error: "Service Unavailable" },
} as const;

export type ErrorKind = keyof typeof KINDS;

/** The spec's machine-readable codes, and this service's own beside them. */
export type ErrorCode =
  | "DAILY_SEND_LIMIT_EXCEEDED"
  | "THREAD_SEND_LIMIT_EXCEEDED"
  | "RECIPIENT_SUPPRESSED"
  | "NO_SUCH_MAILBOX"
  | "STORAGE_LIMIT_EXCEEDED"
  | "NOT_VERIFIED"
  | "VERIFICATION_EXPIRED"
  | "INVALID_TWEET"
  | "SOCIAL_ALREADY_USED"
  | "TOO_MANY_STREAMS"
  | "TOO_MANY_WEBHOOKS"
  | "IDEMPOTENCY_KEY_REUSED"
  | "IDEMPOTENCY_KEY_IN_USE"
  | "REQUEST_RATE_LIMITED"
  | "AWAITING_APPROVAL"
  | "MESSAGE_REJECTED"
  | "ALREADY_DECIDED";

export interface ErrorDetails {
  code?: ErrorCode;
  limit?: number;
  current?: number;
  resetAt?: number;
  /** Seconds until a request-rate refusal lifts. */
  retryAfter?: number;
  /** The addresses a send was refused for (RECIPIENT_SUPPRESSED, NO_SUCH_MAILBOX). */
  recipients?: string[];
}

export interface ErrorBody extends ErrorDetails {
  error: string;
  message: string;
  /** The HTTP status as a number, as ClawMail's client types read it. */
  statusCode: number;
}

export class ServiceError extends Error {
  readonly kind: ErrorKind;
  readonly details: ErrorDetails;
  /** HTTP headers the answer carries besides the body (Retry-After and the rate-limit headers). */
  readonly headers: Record<string, string>;

  constructor(kind: ErrorKind, message: string, details: ErrorDetails = {}, headers: Record<string, string> = {}) {
    super(message);
    this.name = "ServiceError";
    this.kind = kind;
    this.details = details;
    this.headers = headers;
  }

  get status(): number {
    return KINDS[this.kind].status;
  }

  /** What GraphQL clients read in errors[].extensions: the spec's code (else the kind), the status, the numbers. */
  get extensions(): Record<string, unknown> {
    const { code, ...numbers } = this.details;
    return { code: code ?? this.kind, status: this.status, ...numbers };
  }

  /** The spec's error body, with the status beside it. */
  toBody(): ErrorBody {
    return { error: KINDS[this.kind].error, message: this.message, statusCode: this.status, ...this.details };
  }
}

export const internalError = () => new ServiceError("INTERNAL_SERVER_ERROR", "Internal server error");

/** Our own errors as they are; anything else is a fault of ours, reported and answered without its internals. */
export function asServiceError(error: unknown, reportFault: (fault: unknown) => void): ServiceError {
  if (error instanceof ServiceError) return error;
  reportFault(error);
  return internalError();
}

const EXCERPT_MAX = 200;

/** Client input quoted in a message: never more than a short excerpt. */
export function excerpt(text: string, max = EXCERPT_MAX): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}
