// The one error type. The domain throws it; the REST layer answers with its
// status and the spec's body, GraphQL carries the same in errors[].extensions,
// so every door reports the same failure the same way.

/**
 * Every kind of failure, declared once: its HTTP status, the spec's `error`
 * words for it, and when a client meets it. The skill file and the OpenAPI
 * document read the same table.
 */
export const ERROR_KINDS = {
  BAD_REQUEST: { status: 400, error: "Bad Request", when: "Invalid body or parameters, or a verification failure" },
  UNAUTHORIZED: { status: 401, error: "Unauthorized", when: "Missing or invalid API key" },
  FORBIDDEN: {
    status: 403,
    error: "Forbidden",
    when: "Another agent's key, the agent is not verified, or the key lacks a permission (named in permission)",
  },
  NOT_FOUND: { status: 404, error: "Not Found", when: "No such agent, email or item" },
  METHOD_NOT_ALLOWED: { status: 405, error: "Method Not Allowed", when: "The path does not take this method" },
  NOT_ACCEPTABLE: { status: 406, error: "Not Acceptable", when: "No answer of a type the Accept header takes" },
  REQUEST_TIMEOUT: { status: 408, error: "Request Timeout", when: "The request did not arrive in time" },
  CONFLICT: {
    status: 409,
    error: "Conflict",
    when: "Taken already, a request with the same Idempotency-Key in flight, or a message held or rejected",
  },
  GONE: { status: 410, error: "Gone", when: "The link was used or its decision made, or its agent expired" },
  PAYLOAD_TOO_LARGE: { status: 413, error: "Payload Too Large", when: "Request body too large" },
  UNSUPPORTED_MEDIA_TYPE: {
    status: 415,
    error: "Unsupported Media Type",
    when: "The body is not of a type taken here",
  },
  UNPROCESSABLE_CONTENT: {
    status: 422,
    error: "Unprocessable Content",
    when: "The Idempotency-Key was used with another body",
  },
  RATE_LIMITED: {
    status: 429,
    error: "Rate limit exceeded",
    when: "Too many requests (with Retry-After), or a daily send, thread send or storage limit",
  },
  REQUEST_HEADER_FIELDS_TOO_LARGE: {
    status: 431,
    error: "Request Header Fields Too Large",
    when: "The URL and headers are too large",
  },
  INTERNAL_SERVER_ERROR: {
    status: 500,
    error: "Internal Server Error",
    when: "Server failure or failed delivery: check the sent list before sending again",
  },
  SERVICE_UNAVAILABLE: {
    status: 503,
    error: "Service Unavailable",
    when: "Temporarily unavailable: try again shortly",
  },
} as const satisfies Record<string, { status: number; error: string; when: string }>;

export type ErrorKind = keyof typeof ERROR_KINDS;

/**
 * The machine-readable codes a failure may carry beside its kind: the spec's
 * (spec: true) and this service's own, with the kind each comes with.
 */
export const ERROR_CODES = {
  NOT_VERIFIED: { kind: "FORBIDDEN", spec: true, when: "verify the agent first" },
  VERIFICATION_EXPIRED: { kind: "BAD_REQUEST", spec: true, when: "the verification code expired: start again" },
  INVALID_TWEET: { kind: "BAD_REQUEST", spec: true, when: "the post was not found, or lacks the handle or the code" },
  SOCIAL_ALREADY_USED: { kind: "BAD_REQUEST", spec: true, when: "that X account verified another agent" },
  DAILY_SEND_LIMIT_EXCEEDED: {
    kind: "RATE_LIMITED",
    spec: true,
    when: "the UTC day's sends are used up until resetAt",
  },
  STORAGE_LIMIT_EXCEEDED: {
    kind: "RATE_LIMITED",
    spec: true,
    when: "the mailbox is full: delete mail with permanent=true",
  },
  THREAD_SEND_LIMIT_EXCEEDED: {
    kind: "RATE_LIMITED",
    spec: false,
    when: "too many sends into one thread this hour: is a robot answering you?",
  },
  REQUEST_RATE_LIMITED: {
    kind: "RATE_LIMITED",
    spec: false,
    when: "too many requests a second: Retry-After says when to try again",
  },
  TOO_MANY_STREAMS: { kind: "RATE_LIMITED", spec: false, when: "too many event streams open at once" },
  NO_SUCH_MAILBOX: {
    kind: "BAD_REQUEST",
    spec: false,
    when: "an address on this instance's domains that no agent holds, named in recipients",
  },
  RECIPIENT_SUPPRESSED: {
    kind: "BAD_REQUEST",
    spec: false,
    when: "an address bounced or complained, named in recipients: see GET /agents/{id}/suppressions",
  },
  RECIPIENT_BLOCKED: {
    kind: "BAD_REQUEST",
    spec: false,
    when: "a send list (the instance's, the domain's or the agent's) blocks an address, named in recipients",
  },
  TOO_MANY_WEBHOOKS: { kind: "BAD_REQUEST", spec: false, when: "the agent has as many webhooks as it may" },
  IDEMPOTENCY_KEY_IN_USE: {
    kind: "CONFLICT",
    spec: false,
    when: "a request with the same Idempotency-Key is still in flight",
  },
  AWAITING_APPROVAL: {
    kind: "CONFLICT",
    spec: false,
    when: "the message waits for a person's approval: delete it to withdraw it",
  },
  MESSAGE_REJECTED: { kind: "CONFLICT", spec: false, when: "the message was rejected: write a new draft" },
  IDEMPOTENCY_KEY_REUSED: {
    kind: "UNPROCESSABLE_CONTENT",
    spec: false,
    when: "the Idempotency-Key was used with another body",
  },
  ALREADY_DECIDED: { kind: "GONE", spec: false, when: "the held message was decided already" },
} as const satisfies Record<string, { kind: ErrorKind; spec: boolean; when: string }>;

export type ErrorCode = keyof typeof ERROR_CODES;

/** When a status is answered, with the codes it may carry: what the skill file and OpenAPI say of it. */
export function statusWords(status: number): string {
  const [kind, { when }] = kindOfStatus(status);
  const codes = Object.entries(ERROR_CODES).filter(([, code]) => code.kind === kind);
  const listed = codes.map(([name, code]) => `${name} (${code.when})`).join(", ");
  return codes.length > 0 ? `${when}. Codes: ${listed}` : when;
}

function kindOfStatus(status: number): [ErrorKind, (typeof ERROR_KINDS)[ErrorKind]] {
  const found = Object.entries(ERROR_KINDS).find(([, kind]) => kind.status === status);
  if (!found) throw new Error(`no error kind answers ${status}`);
  return found as [ErrorKind, (typeof ERROR_KINDS)[ErrorKind]];
}

/** The codes that come with a kind, as the table pairs them. */
type CodeOf<K extends ErrorKind> = {
  [C in ErrorCode]: (typeof ERROR_CODES)[C]["kind"] extends K ? C : never;
}[ErrorCode];

export interface ErrorDetails {
  code?: ErrorCode;
  limit?: number;
  current?: number;
  resetAt?: number;
  /** Seconds until a request-rate refusal lifts. */
  retryAfter?: number;
  /** The addresses a send was refused for (RECIPIENT_SUPPRESSED, RECIPIENT_BLOCKED, NO_SUCH_MAILBOX). */
  recipients?: string[];
  /** The permission a key lacks, when a 403 is for that. */
  permission?: string;
}

export interface ErrorBody extends ErrorDetails {
  error: string;
  message: string;
  /** The HTTP status as a number, as ClawMail's client types read it. */
  statusCode: number;
}

/** The error body as JSON Schema, for the OpenAPI document. */
export const ERROR_BODY_SCHEMA: Record<string, unknown> = {
  type: "object",
  properties: {
    error: { type: "string", description: "The status's reason phrase; 429 is written Rate limit exceeded" },
    message: { type: "string" },
    statusCode: { type: "integer" },
    code: {
      type: "string",
      enum: Object.keys(ERROR_CODES),
      description: `The spec's (${codesWhere(true)}) and this service's own (${codesWhere(false)})`,
    },
    limit: { type: "integer" },
    current: { type: "integer" },
    resetAt: { type: "integer" },
    retryAfter: { type: "integer", description: "REQUEST_RATE_LIMITED: seconds until it lifts" },
    recipients: {
      type: "array",
      items: { type: "string" },
      description: "RECIPIENT_SUPPRESSED: the addresses the send was refused for",
    },
    permission: {
      type: "string",
      enum: ["read", "send", "manage", "events"],
      description: "403: the permission the API key lacks",
    },
  },
  required: ["error", "message", "statusCode"],
};

function codesWhere(spec: boolean): string {
  return Object.entries(ERROR_CODES)
    .filter(([, code]) => code.spec === spec)
    .map(([name]) => name)
    .join(", ");
}

export class ServiceError<K extends ErrorKind = ErrorKind> extends Error {
  readonly kind: ErrorKind;
  readonly details: ErrorDetails;
  /** HTTP headers the answer carries besides the body (Retry-After and the rate-limit headers). */
  readonly headers: Record<string, string>;

  /** The code, if any, must be one the table pairs with the kind: the compiler checks each throw. */
  constructor(
    kind: K,
    message: string,
    details: ErrorDetails & { code?: CodeOf<K> } = {},
    headers: Record<string, string> = {},
  ) {
    // An answer, not a fault: its stack is never shown nor logged, and gathering one was a tenth of a 404's time.
    const stackTraceLimit = Error.stackTraceLimit;
    Error.stackTraceLimit = 0;
    try {
      super(message);
    } finally {
      Error.stackTraceLimit = stackTraceLimit;
    }
    this.name = "ServiceError";
    this.kind = kind;
    this.details = details;
    this.headers = headers;
  }

  get status(): number {
    return ERROR_KINDS[this.kind].status;
  }

  /** What GraphQL clients read in errors[].extensions: the spec's code (else the kind), the status, the numbers. */
  get extensions(): Record<string, unknown> {
    const { code, ...numbers } = this.details;
    return { code: code ?? this.kind, status: this.status, ...numbers };
  }

  /** The spec's error body, with the status beside it. */
  toBody(): ErrorBody {
    return { error: ERROR_KINDS[this.kind].error, message: this.message, statusCode: this.status, ...this.details };
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
