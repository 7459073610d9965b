import { expect, test } from "vitest";
import { isEmailAddress } from "./address.ts";

test.each([
  ["bob@example.com", true],
  ["first.last+tag@sub.example.co.uk", true],
  ["o'brien@example.ie", true],
  ["user@xn--bcher-kva.example", true],
  ["Bob <bob@example.com>", false],
  ['"quoted"@example.com', false],
  ["bob@localhost", false],
  ["bob@example.com\r\nBcc: victim@example.com", false],
  ["a..b@example.com", false],
  [`${"x".repeat(65)}@example.com`, false],
])("isEmailAddress(%j) is %s", (address, valid) => {
  expect(isEmailAddress(address)).toBe(valid);
});
