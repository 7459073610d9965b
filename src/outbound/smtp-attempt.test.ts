import { expect, test } from "vitest";
import { queueIdOf } from "./smtp-attempt.ts";

test.each([
  ["250 2.0.0 Ok: queued as 4Hm7Zx0bQzz1X", "4Hm7Zx0bQzz1X"],
  ["250 Message queued as <0100018c-abc>", "0100018c-abc"],
  ["250 OK id=1rC5Zq-0003Mk-1a", "1rC5Zq-0003Mk-1a"],
  ["250 Ok 0000014a-deadbeef-1234", "0000014a-deadbeef-1234"],
  ["250 Great success", null],
])("queueIdOf(%j) is %j", (reply, id) => {
  expect(queueIdOf(reply)).toBe(id);
});
