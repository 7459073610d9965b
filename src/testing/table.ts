import { expect, test } from "vitest";

// Table tests of a pure function: one test a row, each row an input and
// what the function makes of it.

/** One test a row, named by the title with the row's values in it (as test.each names them): the function makes each input into its expected value. */
export function testTable<I, O>(title: string, fn: (input: I) => O, rows: [I, O][]): void {
  test.each(rows)(title, (input, expected) => {
    expect(fn(input)).toBe(expected);
  });
}
