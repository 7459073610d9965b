import { testTable } from "../testing/table.ts";
import { queueIdOf } from "./smtp-attempt.ts";

testTable("queueIdOf(%j) is %j", queueIdOf, [
  ["250 2.0.0 Ok: queued as 4Hm7Zx0bQzz1X", "4Hm7Zx0bQzz1X"],
  ["250 Message queued as <0100018c-abc>", "0100018c-abc"],
  ["250 OK id=1rC5Zq-0003Mk-1a", "1rC5Zq-0003Mk-1a"],
  ["250 Ok 0000014a-deadbeef-1234", "0000014a-deadbeef-1234"],
  ["250 Great success", null],
]);
