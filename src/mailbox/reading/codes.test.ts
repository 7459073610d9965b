import { describe, expect, test } from "vitest";
import { CODE_FIXTURES } from "./fixtures.ts";
import { readingOf } from "./index.ts";

describe("codes", () => {
  test("at least 30 fixtures, some HTML only, some without a code", () => {
    expect(CODE_FIXTURES.length).toBeGreaterThanOrEqual(30);
    expect(CODE_FIXTURES.filter((f) => f.html && !f.text).length).toBeGreaterThanOrEqual(4);
    expect(CODE_FIXTURES.filter((f) => f.codes.length === 0).length).toBeGreaterThanOrEqual(10);
  });

  test.each(CODE_FIXTURES)("$name", (fixture) => {
    const reading = readingOf({
      subject: fixture.subject,
      bodyText: fixture.text ?? null,
      bodyHtml: fixture.html ?? null,
    });
    expect(reading.codes).toEqual(fixture.codes);
  });
});
