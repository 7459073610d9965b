import { expect, test } from "vitest";
import { isEmailAddress } from "./address.ts";
import { queueIdOf } from "./smtp.ts";

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
  ["250 2.0.0 Ok: queued as 4Hm7Zx0bQzz1X", "4Hm7Zx0bQzz1X"],
  ["250 Message queued as <0100018c-abc>", "0100018c-abc"],
  ["250 OK id=1rC5Zq-0003Mk-1a", "1rC5Zq-0003Mk-1a"],
  ["250 Ok 0000014a-deadbeef-1234", "0000014a-deadbeef-1234"],
  ["250 Great success", null],
])("queueIdOf(%j) is %j", (reply, id) => {
  expect(queueIdOf(reply)).toBe(id);
});
