import { expect, test } from "vitest";
import { isEmailAddress, isRecipientAddress } from "./address.ts";

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

test.each([
  ["scout@localhost", true],
  ["Scout@LOCALHOST", true],
  ["bob@example.com", true],
  ["bob@intranet", false],
  ["Bob <scout@localhost>", false],
  ["a..b@localhost", false],
])("isRecipientAddress(%j) where localhost is served is %s", (address, valid) => {
  expect(isRecipientAddress(address, ["localhost"])).toBe(valid);
});
