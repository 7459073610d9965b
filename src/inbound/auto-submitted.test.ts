import { readFileSync } from "node:fs";
import { expect, test } from "vitest";
import { parseMime } from "../mailbox/mime.ts";
import { autoSubmittedOf } from "./auto-submitted.ts";

const parsed = (name: string) => parseMime(readFileSync(new URL(`./fixtures/${name}`, import.meta.url)));

test.each([
  ["auto/sieve-vacation.eml", "auto-replied"],
  ["auto/exchange-out-of-office.eml", "auto-replied"],
  ["auto/cron-notice.eml", "auto-generated"],
  ["auto/newsletter.eml", "list"],
  ["auto/list-id-only.eml", "list"],
  ["auto/list-unsubscribe-only.eml", "list"],
  ["auto/person.eml", null],
  ["gmail-alternative.eml", null],
])("%s is %s", async (name, expected) => {
  expect(autoSubmittedOf(await parsed(name), false)).toBe(expected);
});

test("a delivery report no sent email matched is auto-generated, whatever its headers say", async () => {
  expect(autoSubmittedOf(await parsed("reports/references-only.eml"), true)).toBe("auto-generated");
});
