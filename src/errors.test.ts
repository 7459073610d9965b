import { expect, test } from "vitest";
import { ERROR_BODY_SCHEMA, ERROR_CODES, ERROR_KINDS, ServiceError, statusWords } from "./errors.ts";

// The error table: one status a kind, every code with its kind (checked at
// each throw by the compiler), and the words the skill file and OpenAPI give
// each status.

test("each kind answers a status of its own, with the spec's words for it", () => {
  const statuses = Object.values(ERROR_KINDS).map((kind) => kind.status);
  expect(new Set(statuses).size).toBe(statuses.length);
  const error = new ServiceError("RATE_LIMITED", "Daily send limit reached", { code: "DAILY_SEND_LIMIT_EXCEEDED" });
  expect(error.toBody()).toEqual({
    error: "Rate limit exceeded",
    message: "Daily send limit reached",
    statusCode: 429,
    code: "DAILY_SEND_LIMIT_EXCEEDED",
  });
});

test("a status's words name every code its kind carries", () => {
  for (const [name, code] of Object.entries(ERROR_CODES)) {
    expect(statusWords(ERROR_KINDS[code.kind].status)).toContain(`${name} (${code.when})`);
  }
  expect(statusWords(401)).toBe(ERROR_KINDS.UNAUTHORIZED.when);
  expect(() => statusWords(418)).toThrow(/418/);
});

test("the error body's schema lists every code", () => {
  const code = (ERROR_BODY_SCHEMA.properties as Record<string, { enum: string[] }>).code;
  expect(code?.enum).toEqual(Object.keys(ERROR_CODES));
});

test("a code comes only with the kind the table pairs it with (the compiler checks each throw)", () => {
  const right = new ServiceError("FORBIDDEN", "Verify the agent first", { code: "NOT_VERIFIED" });
  // @ts-expect-error NOT_VERIFIED comes with FORBIDDEN, never GONE
  const wrong = new ServiceError("GONE", "Gone", { code: "NOT_VERIFIED" });
  expect([right.status, wrong.status]).toEqual([403, 410]);
});

test("an error answer gathers no stack, and leaves the stacks of faults as they were", () => {
  const limit = Error.stackTraceLimit;
  const error = new ServiceError("NOT_FOUND", "Email not found");
  expect(error.stack?.split("\n")).toHaveLength(1);
  expect(Error.stackTraceLimit).toBe(limit);
  expect(new Error("a fault").stack?.split("\n").length).toBeGreaterThan(1);
});
