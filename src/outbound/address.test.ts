import { testTable } from "../testing/table.ts";
import { isEmailAddress, isRecipientAddress } from "./address.ts";

testTable("isEmailAddress(%j) is %s", isEmailAddress, [
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
]);

testTable(
  "isRecipientAddress(%j) where localhost is served is %s",
  (address: string) => isRecipientAddress(address, ["localhost"]),
  [
    ["scout@localhost", true],
    ["Scout@LOCALHOST", true],
    ["bob@example.com", true],
    ["bob@intranet", false],
    ["Bob <scout@localhost>", false],
    ["a..b@localhost", false],
  ],
);
